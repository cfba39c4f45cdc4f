// The suite as a product, run against the reference emulator: no fail, no error, every rule of the ledger checked
// (or marked not black-box testable with a reason), every endpoint requested, the exit code honest.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll } from 'vitest';
import type { Results } from '../../reports/results.js';
import { describeFullRunGate, type FullRun } from './full-run-gate.js';

const BIN = new URL('../../bin/conformance.js', import.meta.url).pathname;
/**
 * Two of the gate's three seeds: the reference emulator must give zero fails whatever the generated data (no
 * flakiness). The third, seed 7, is the yardstick run of test/hostile/liar.test.ts.
 */
const SEEDS = [20261121, 424242];

const runs = new Map<number, FullRun>();

function runSuite(seed: number): Promise<FullRun> {
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

for (const seed of SEEDS) describeFullRunGate(`a full run against the embedded reference emulator, seed ${seed}`, () => runs.get(seed)!);
