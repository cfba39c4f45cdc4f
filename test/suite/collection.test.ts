// Every spec file of the suite collects: a check naming an unknown rule id (or any other error while declaring the
// checks) fails here, not silently in a run that drops the file. No two checks share a name.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectChecks } from '../../scripts/docs-ledger.js';

const specFiles = (readdirSync('specs', { recursive: true }) as string[]).filter((file) => file.endsWith('.spec.ts')).map((file) => `specs/${file}`);

describe('the spec files', () => {
  it('all collect, each declaring at least one check', async () => {
    // collectChecks throws, naming each file and its error, when a spec file does not collect.
    const checks = await collectChecks();
    expect(specFiles.length).toBeGreaterThan(10);
    expect([...new Set(checks.map((check) => check.file))].sort()).toEqual(specFiles.sort());
    // A name of its own: reports, the cost table and Allure's history (which would show a namesake as a retry) tell
    // checks apart by name.
    const keys = checks.map((check) => check.key);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  }, 120_000);
});
