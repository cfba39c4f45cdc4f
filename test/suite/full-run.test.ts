// The suite as a product, run against the reference emulator: no fail, no error, every rule of the ledger checked
// (or marked not black-box testable with a reason), every endpoint requested, the exit code honest.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ledger } from '../../rules/index.js';
import type { Results } from '../../reports/results.js';

const BIN = new URL('../../bin/conformance.js', import.meta.url).pathname;
/** Three seeds: the reference emulator must give zero fails whatever the generated data (no flakiness). */
const SEEDS = [20261121, 7, 424242];

interface Run {
  out: string;
  results: Results;
  exitCode: number | null;
  stderr: string;
}
const runs = new Map<number, Run>();

function runSuite(seed: number): Promise<Run> {
  const out = mkdtempSync(join(tmpdir(), `conformance-full-run-${seed}-`));
  return new Promise((resolve, reject) => {
    // The default run (with its Allure report) once; the other seeds judge the verdicts only.
    const allure = seed === SEEDS[0] ? [] : ['--no-allure'];
    const child = spawn(process.execPath, [BIN, 'run', '--out', out, '--seed', String(seed), '--progress', 'quiet', ...allure], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => {
      try {
        resolve({ out, exitCode, stderr, results: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results });
      } catch (error) {
        reject(new Error(`seed ${seed}: no results (exit ${exitCode}): ${stderr.slice(-2000)} ${String(error)}`));
      }
    });
  });
}

beforeAll(async () => {
  // One at a time: each run is itself parallel, and the other self-tests share the machine's two cores.
  for (const seed of SEEDS) runs.set(seed, await runSuite(seed));
}, 900_000);

describe.each(SEEDS)('a full run against the embedded reference emulator, seed %i', (seed) => {
  it('reports no fail and no error, and exits 0', () => {
    const { results, exitCode, stderr } = runs.get(seed)!;
    const broken = results.rules
      .filter((rule) => rule.status === 'fail' || rule.status === 'error')
      .map((rule) => `${rule.id}: ${rule.checks.find((check) => check.verdict !== 'pass')?.message ?? ''}`.slice(0, 300));
    expect(broken).toEqual([]);
    expect(exitCode, stderr.slice(-2000)).toBe(0);
  });

  it('checks every rule of the ledger, except those marked untestable with a reason', () => {
    const untestable = new Set(ledger.filter((rule) => rule.check.startsWith('untestable: ')).map((rule) => rule.id));
    const unchecked = runs
      .get(seed)!
      .results.rules.filter((rule) => rule.status === 'untested' && !untestable.has(rule.id))
      .map((rule) => rule.id);
    expect(unchecked).toEqual([]);
  });

  it('requests every one of the 127 endpoints', () => {
    const { endpoints } = runs.get(seed)!.results;
    expect(endpoints).toHaveLength(127);
    expect(endpoints.filter((endpoint) => endpoint.requests === 0).map((endpoint) => `${endpoint.method} ${endpoint.path}`)).toEqual([]);
  });

  it('leaves nothing behind on the target: every ledger entry of the run was deleted', async () => {
    const { pendingOfRun } = await import('../../harness/cleanup.js');
    const { out, stderr } = runs.get(seed)!;
    const runId = /run (\w+) against/.exec(stderr)?.[1];
    expect(runId).toBeTruthy();
    expect(pendingOfRun(out, runId!).map((entry) => `${entry.kind} ${entry.deletePath}`)).toEqual([]);
  });
});
