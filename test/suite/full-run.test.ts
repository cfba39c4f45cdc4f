// The suite as a product, run against the reference emulator: no fail, no error, every rule of the ledger checked
// (or marked not black-box testable with a reason), every endpoint requested, the exit code honest.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ledger } from '../../rules/index.js';
import type { Results } from '../../reports/results.js';

const BIN = new URL('../../bin/conformance.js', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'conformance-full-run-'));
let results: Results;
let exitCode: number | null;
let stderr = '';

beforeAll(() => {
  const run = spawnSync(process.execPath, [BIN, 'run', '--out', out, '--seed', '20261121'], { encoding: 'utf8', timeout: 240_000, maxBuffer: 64 * 1024 * 1024 });
  exitCode = run.status;
  stderr = run.stderr;
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
}, 250_000);

describe('a full run against the embedded reference emulator', () => {
  it('reports no fail and no error, and exits 0', () => {
    const broken = results.rules.filter((rule) => rule.status === 'fail' || rule.status === 'error').map((rule) => `${rule.id}: ${rule.checks.find((check) => check.verdict !== 'pass')?.message ?? ''}`.slice(0, 300));
    expect(broken).toEqual([]);
    expect(exitCode, stderr.slice(-2000)).toBe(0);
  });

  it('checks every rule of the ledger, except those marked untestable with a reason', () => {
    const untestable = new Set(ledger.filter((rule) => rule.check.startsWith('untestable: ')).map((rule) => rule.id));
    const unchecked = results.rules.filter((rule) => rule.status === 'untested' && !untestable.has(rule.id)).map((rule) => rule.id);
    expect(unchecked).toEqual([]);
  });

  it('requests every one of the 127 endpoints', () => {
    expect(results.endpoints).toHaveLength(127);
    expect(results.endpoints.filter((endpoint) => endpoint.requests === 0).map((endpoint) => `${endpoint.method} ${endpoint.path}`)).toEqual([]);
  });

  it('leaves nothing behind on the target: every ledger entry of the run was deleted', async () => {
    const { pendingOfRun } = await import('../../harness/cleanup.js');
    const runId = /run (\w+) against/.exec(stderr)?.[1];
    expect(runId).toBeTruthy();
    expect(pendingOfRun(out, runId!).map((entry) => `${entry.kind} ${entry.deletePath}`)).toEqual([]);
  });
});
