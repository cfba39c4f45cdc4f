// Runs `conformance run` as a child process (asynchronously: the fake targets answer from this process) and reads
// what it left behind.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Results, RuleResult } from '../../reports/results.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/conformance.js');

export interface RunOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** null when the run wrote no results.json. */
  results: Results | null;
  /** The run's output folder. */
  out: string;
}

/** `conformance run --out <new folder> …args` (`env` added to this process's); killed after `killAfterMs` (the test then fails on the exit code). */
export function runConformance(args: string[], killAfterMs = 120_000, env: NodeJS.ProcessEnv = {}): Promise<RunOutcome> {
  const out = mkdtempSync(join(tmpdir(), 'conformance-hostile-'));
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'run', '--out', out, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(killer);
      const file = join(out, 'results.json');
      const results = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Results) : null;
      resolve({ code, stdout, stderr, wallMs: performance.now() - started, results, out });
    });
  });
}

/** The settings of the embedded run, given to a run against the emulator as a real target's. */
export const EMBEDDED_RUN_SETTINGS = [
  '--allow-destructive',
  '--max-instances',
  'unlimited',
  '--max-databases',
  'unlimited',
  '--other-region',
  'us-west',
  '--region-without-vlans',
  'us-west',
  '--spare-vlan-region',
  'eu-central',
  '--taken-domain',
  'taken-by-another-account.example',
];

/** GET /v4/account (two checks) and a domain view, which needs a domain created first (a fixture). */
export const NARROW = {
  rules: ['P1.account.serves.get-account', 'P1.account.auth.get-account', 'P3.domains.serves.get-domains-id'],
  files: ['specs/generic/part1', 'specs/generic/part3'],
};

/** Far above what a narrowed run bounded by a 1 s request timeout needs; a target that could hold the run would pass it. */
export const WALL_LIMIT_MS = 60_000;

/**
 * A run against a target given by URL, narrowed to `rules` in the spec `files`, with a 1 s request timeout. `--areas`
 * selects the same checks by the same prefixes, but keeps the run's workers (a run narrowed by --rules has one).
 */
export function runAgainst(
  url: string,
  rules: string[],
  files: string[],
  extra: string[] = [],
  selectBy: '--rules' | '--areas' = '--rules',
): Promise<RunOutcome> {
  return runConformance([
    '--base-url',
    url,
    '--token',
    'hostile-token-0001',
    selectBy,
    rules.join(','),
    '--timeout',
    '1000',
    '--consistency-window',
    '0',
    // The verdicts are what these runs judge; the Allure report of a run against a hostile target is token-echo's.
    '--no-allure',
    ...extra,
    ...files,
  ]);
}

/** Finished on its own with a verdict: exit 1 or 2, results.json written, and no crash (no stack frames) on stderr. */
export function expectVerdictNotCrash(outcome: RunOutcome): Results {
  expect(outcome.code, outcome.stderr.slice(-3000)).toBeOneOf([1, 2]);
  expect(outcome.results, outcome.stderr.slice(-3000)).not.toBeNull();
  expect(outcome.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(outcome.stderr).not.toMatch(/❯ .+:\d+:\d+/);
  expect(outcome.stderr).not.toMatch(/Unhandled|FATAL|heap out of memory/i);
  return outcome.results!;
}

export function ruleOf(results: Results, id: string): RuleResult {
  const rule = results.rules.find((candidate) => candidate.id === id);
  if (!rule) throw new Error(`rule ${id} is not in results.json`);
  return rule;
}

/** Every message of the checks behind a rule, joined (for matching the reason of a verdict). */
export function messagesOf(results: Results, id: string): string {
  return ruleOf(results, id)
    .checks.map((check) => check.message ?? '')
    .join('\n');
}
