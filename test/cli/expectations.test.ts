// `run --expectations` end to end against the embedded emulator with one fault: the expected fail does not fail the
// run, an expected rule that passes fails it only with --strict-expectations, a bad file is one line and exit 2
// before any request; `expectations --from` writes a file from the run's results.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/conformance.js');
const FAULT = 'P3.firewall.status.enable-blocked-by-active';
const PASSING = 'P3.firewall.status.disabled-to-enabled';
const work = mkdtempSync(join(tmpdir(), 'conformance-expectations-'));

function conformance(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 300_000, env: { ...process.env, ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const file = (name: string, value: unknown) => {
  const path = join(work, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

const RUN = ['run', '--emulator-fault', FAULT, '--rules', 'P3.firewall.status', '--seed', '9', '--no-allure', '--progress', 'quiet'];
let strict: ReturnType<typeof conformance>;
let results: Results;

beforeAll(() => {
  const expectations = file('gate.json', { [FAULT]: 'enabling is not refused yet (OPS-1)', [PASSING]: 'broken last release' });
  strict = conformance([...RUN, '--out', join(work, 'out'), '--expectations', expectations, '--strict-expectations']);
  results = JSON.parse(readFileSync(join(work, 'out', 'results.json'), 'utf8')) as Results;
}, 300_000);

describe('run --expectations', () => {
  it('shows the expected fail as expected, and exits 1 under --strict-expectations for the rule that now passes', () => {
    expect(strict.code, strict.stderr.slice(-2000)).toBe(1);
    expect(results.summary).toMatchObject({ fail: 0, expected: 1 });
    expect(results.rules.find((rule) => rule.id === FAULT)).toMatchObject({ status: 'expected', expected: { reason: 'enabling is not refused yet (OPS-1)' } });
    expect(results.expectations).toMatchObject({ expected: [FAULT], unexpectedlyPassing: [PASSING], expired: [] });
    expect(strict.stdout).toMatch(/; expectations: 1 expected, 1 unexpectedly passing \(P3\.firewall\.status\.disabled-to-enabled\), 0 expired/);
    expect(strict.stderr).toMatch(/conformance: 1 rule\(s\) expected to fail now pass: take them out of .*gate\.json \(--strict-expectations\)\n$/);
    expect(readFileSync(join(work, 'out', 'compliance.html'), 'utf8')).toContain(`id="expected-${FAULT}"`);
  });

  it('refuses a malformed file or an unknown rule id with one line and exit 2, sending nothing', () => {
    const cases: Array<[string, RegExp]> = [
      [file('broken.json', '{"P3.firewall'), /^conformance: .*broken\.json is not valid JSON\n$/],
      [
        file('unknown.json', { 'P3.firewall.nope': 'x' }),
        /^conformance: .*unknown\.json: unknown rule id P3\.firewall\.nope \(`conformance rules` lists them\)\n$/,
      ],
      [join(work, 'missing.json'), /^conformance: cannot read expectations file .*missing\.json: ENOENT\n$/],
    ];
    for (const [path, message] of cases) {
      const result = conformance([...RUN, '--out', join(work, 'refused'), '--expectations', path]);
      expect(result.code, path).toBe(2);
      expect(result.stderr.replace(/^conformance: run .*\n/m, '')).toMatch(message);
    }
  }, 60_000);

  it('`expectations --from` writes a file naming the failed rules, which gates the next run on "no new divergence"', () => {
    const out = join(work, 'written.json');
    const written = conformance(['expectations', '--from', join(work, 'out', 'results.json'), '--out', out, '--expires', '2099-12-31']);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toBe(`conformance: 1 expectation → ${out}\n`);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ [FAULT]: { reason: 'enabling is not refused yet (OPS-1)', expires: '2099-12-31' } });
    const printed = conformance(['expectations', '--from', join(work, 'out', 'results.json')]);
    expect(JSON.parse(printed.stdout)).toEqual({ [FAULT]: { reason: 'enabling is not refused yet (OPS-1)' } });
    expect(conformance(['expectations', '--from', join(work, 'nothing.json')])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^conformance: cannot read .*nothing\.json: ENOENT\n$/),
    });
  });
});
