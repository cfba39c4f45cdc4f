// Every spec file of the suite collects: a check naming an unknown rule id (or any other error while declaring the
// checks) fails here, not silently in a run that drops the file. No two checks share a name. Checks whose request keeps
// the file's instance busy (a clone from it) are declared after every other check of their file. rules/ledger.json, the
// ledger with the checks judging each rule, is generated from the same collection and checked in: a change to the
// rules or the checks shows in it.
import { readFileSync, readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_JSON, collectChecks, ledgerJson, type CollectedCheck } from '../../scripts/docs-ledger.js';

const specFiles = (readdirSync('specs', { recursive: true }) as string[]).filter((file) => file.endsWith('.spec.ts')).map((file) => `specs/${file}`);

let checks: CollectedCheck[];
beforeAll(async () => {
  // collectChecks throws, naming each file and its error, when a spec file does not collect.
  checks = await collectChecks();
}, 120_000);

describe('the spec files', () => {
  it('all collect, each declaring at least one check', () => {
    expect(specFiles.length).toBeGreaterThan(10);
    expect([...new Set(checks.map((check) => check.file))].sort()).toEqual(specFiles.sort());
    // A name of its own: reports, the cost table and Allure's history (which would show a namesake as a retry) tell
    // checks apart by name.
    const keys = checks.map((check) => check.key);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it("declare the checks of a clone from the file's instance last, the clones it accepts after the bodies it refuses", () => {
    const CLONE = 'POST /v4/compute/instances/{computeId}/clone';
    for (const file of ['specs/generic/part2.spec.ts', 'specs/properties/part2.spec.ts']) {
      const keys = checks.filter((check) => check.file === file).map((check) => check.key);
      const first = keys.findIndex((key) => key.includes(`> ${CLONE}`));
      expect(first, file).toBeGreaterThan(0);
      expect(
        keys.slice(first).filter((key) => !key.includes(`> ${CLONE}`)),
        file,
      ).toEqual([]);
    }
    const properties = checks.filter((check) => check.file === 'specs/properties/part2.spec.ts');
    expect(properties.at(-1)!.key).toMatch(/clone body > .* valid bodies are accepted$/);
  });
});

describe('rules/ledger.json', () => {
  it('is what `npm run docs:ledger` writes', () => {
    expect(readFileSync(LEDGER_JSON, 'utf8') === ledgerJson(checks), 'rules/ledger.json is stale: run `npm run docs:ledger`').toBe(true);
  });
});
