// `conformance diff` on two results files: text by default, --json, --html, and the exit code of diff(1).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ResultsDiff } from '../../reports/diff.js';
import { OUTCOMES, outcome, sampleResults } from '../reports/sample-results.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/conformance.js');
const FIREWALL = 'P3.firewall.status.enable-blocked-by-active';
const work = mkdtempSync(join(tmpdir(), 'conformance-diff-'));

function conformance(args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const before = join(work, 'before.json');
const after = join(work, 'after.json');
writeFileSync(before, JSON.stringify(sampleResults()));
writeFileSync(
  after,
  JSON.stringify(
    sampleResults([
      outcome('a disabled firewall cannot be enabled while another enabled one is assigned', 'specs/part3/firewalls.spec.ts', 'pass', [
        FIREWALL,
        'P3.firewall.status.disabled-to-enabled',
      ]),
      ...OUTCOMES.slice(1),
    ]),
  ),
);

describe('conformance diff A B', () => {
  it('prints the changed rules and exits 1; two runs alike exit 0', () => {
    const changed = conformance(['diff', before, after]);
    expect(changed.code, changed.stderr).toBe(1);
    expect(changed.stdout).toContain(`1 rule changed status: 0 fails now, 1 fixed, 0 changed\n\nFIXED  ${FIREWALL} (MUST)  fail → pass\n`);
    expect(changed.stdout).toMatch(
      / {2}before: fail \[P3\.firewall\.status\.enable-blocked-by-active P3\.firewall\.status\.disabled-to-enabled\] a disabled firewall/,
    );
    const same = conformance(['diff', before, before]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('0 rules changed status');
  });

  it('--json gives the changes with both evidences, --html a page', () => {
    const html = join(work, 'pages', 'diff.html');
    const json = conformance(['diff', before, after, '--json', '--html', html]);
    expect(json.code).toBe(1);
    const diff = JSON.parse(json.stdout) as ResultsDiff;
    expect(diff.changed).toEqual([
      expect.objectContaining({
        id: FIREWALL,
        kind: 'fixed',
        from: 'fail',
        to: 'pass',
        before: [expect.objectContaining({ evidence: expect.any(Array) })],
        after: [],
      }),
    ]);
    expect(diff.before.file).toBe(before);
    expect(existsSync(html)).toBe(true);
    expect(readFileSync(html, 'utf8')).toContain(`id="change-${FIREWALL}"`);
  });

  it('refuses a file that is not a results.json with one line and exit 2', () => {
    expect(conformance(['diff', before, join(work, 'missing.json')])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^conformance: cannot read .*missing\.json: ENOENT\n$/),
    });
    expect(conformance(['diff', before])).toMatchObject({ code: 2 });
  });
});
