// A run against a separately started emulator (--base-url, control hooks probed) gives the same verdicts as the
// embedded run, rule by rule (on a slice of the ledger, to keep the self-test short).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedEmulator } from '../../harness/embedded.js';
import type { Results } from '../../reports/results.js';
import { EMBEDDED_RUN_SETTINGS } from '../hostile/conformance-run.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/conformance.js');
const PREFIXES = ['P3.firewall', 'P3.domain', 'P1.database.status'];
const SLICE = ['--rules', PREFIXES.join(','), '--seed', '7', '--no-allure'];
/** The selected rules (others may be touched by fixture responses in an order-dependent way). */
const selected = (id: string) => PREFIXES.some((prefix) => id.startsWith(`${prefix}.`));
let emulator: EmbeddedEmulator | undefined;
let url = '';

function run(args: string[]): { code: number | null; results: Results } {
  const out = mkdtempSync(join(tmpdir(), 'conformance-parity-'));
  const result = spawnSync(process.execPath, [BIN, 'run', '--out', out, ...SLICE, ...args], {
    encoding: 'utf8',
    timeout: 200_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, results: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results };
}

beforeAll(async () => {
  emulator = await startEmbedded('parity-token-000001', []);
  url = emulator.url;
});

afterAll(() => emulator?.stop());

describe('--base-url against a separately started emulator', () => {
  it('gives the same verdict for every rule as the embedded run', () => {
    const embedded = run([]);
    // (a 1 s consistency window, not the 5 s default for a base URL: the checks that wait it out on purpose wait it
    // whatever the target shows, and the emulator shows each write at once)
    const external = run(['--base-url', url, '--token', 'parity-token-000001', '--consistency-window', '1000', ...EMBEDDED_RUN_SETTINGS]);
    expect(embedded.code).toBe(0);
    expect(external.code).toBe(0);
    const statuses = (results: Results) => Object.fromEntries(results.rules.filter((rule) => selected(rule.id)).map((rule) => [rule.id, rule.status]));
    expect(statuses(external.results)).toEqual(statuses(embedded.results));
    expect(external.results.summary.pass).toBeGreaterThan(50);
  }, 400_000);
});
