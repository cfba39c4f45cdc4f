// The terminal progress reporter in each mode, fed with hand-made checks (the CLI run test covers it end to end).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import type { TestModule, TestSpecification } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import type { ProgressMode } from '../../harness/config.js';
import ProgressReporter from '../../reports/progress-reporter.js';
import { OUTCOMES } from './sample-results.js';

class Capture extends Writable {
  text = '';
  constructor(readonly isTTY = false) {
    super();
  }
  columns = 120;
  rows = 40;
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** Feeds the sample checks through a reporter: one spec file collected, every check finished, the run ended. */
function feed(mode: ProgressMode, stream = new Capture(mode === 'tty')): string {
  const reporter = new ProgressReporter({ mode, stream, intervalMs: 60_000 });
  reporter.onTestRunStart([{}] as unknown as TestSpecification[]);
  reporter.onTestModuleCollected({ children: { allTests: () => OUTCOMES.map((outcome) => ({ name: outcome.name })) } } as unknown as TestModule);
  for (const outcome of OUTCOMES) reporter.finished(outcome);
  reporter.onTestRunEnd([], []);
  return stream.text;
}

describe('progress reporter', () => {
  it('jsonl: one JSON object per finished check, with its rule ids, verdict and file', () => {
    const lines = feed('jsonl')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { check: string; rules: string[]; verdict: string; file: string; area: string });
    expect(lines).toHaveLength(OUTCOMES.length);
    expect(lines[0]).toMatchObject({
      verdict: 'fail',
      file: 'specs/part3/firewalls.spec.ts',
      area: 'Firewalls',
      rules: ['P3.firewall.status.enable-blocked-by-active', 'P3.firewall.status.disabled-to-enabled'],
    });
    expect(lines.map((line) => line.verdict)).toEqual(OUTCOMES.map((outcome) => outcome.verdict));
  });

  it('quiet: prints nothing', () => {
    expect(feed('quiet')).toBe('');
  });

  it('plain: each fail and error as it happens, then one line per area with done / total and its fails', () => {
    const text = feed('plain');
    expect(text).toMatch(/^FAIL P3\.firewall\.status\.enable-blocked-by-active enabling should be rejected .*\(specs\/part3\/firewalls\.spec\.ts\)$/m);
    expect(text).toMatch(/^ERROR P1\.account\.serves\.get-account the harness broke/m);
    expect(text).toMatch(/^Firewalls +2\/2 checks +2 fail$/m);
    expect(text).toMatch(/^Account +2\/2 checks +1 error, 1 skip$/m);
    expect(text).toMatch(/^Tags +1\/1 checks ✓ +1 disabled$/m);
    expect(text).not.toContain('\u001b[');
  });

  it('tty: redraws the area lines in place and keeps the fails above them', () => {
    const text = feed('tty');
    expect(text).toContain('\u001b[');
    const screen = stripVTControlCharacters(text);
    expect(screen).toMatch(/FAIL P3\.firewall\.rules\.max-25/);
    expect(screen).toMatch(/Domains +1\/1 checks ✓/);
    expect(screen.lastIndexOf('Firewalls')).toBeGreaterThan(screen.lastIndexOf('FAIL'));
  });

  it('one overall line: checks done / total, time elapsed, and the time left once the total is known', () => {
    let now = 1_000_000;
    const stream = new Capture();
    const reporter = new ProgressReporter({ mode: 'plain', stream, intervalMs: 60_000, clock: () => now });
    reporter.onTestRunStart([{}, {}] as unknown as TestSpecification[]);
    reporter.onTestModuleCollected({ children: { allTests: () => OUTCOMES.map((outcome) => ({ name: outcome.name })) } } as unknown as TestModule);
    expect(reporter.overallLine()).toMatch(/^overall +0\/6 checks · 0 s elapsed \(collecting: 1\/2 spec files\)$/);
    reporter.onTestModuleCollected({ children: { allTests: () => [] } } as unknown as TestModule);
    for (const outcome of OUTCOMES.slice(0, 2)) reporter.finished(outcome);
    now += 40_000;
    expect(reporter.overallLine()).toMatch(/^overall +2\/6 checks · 40 s elapsed · about 1 min 20 s left$/);
    // A periodic print (the two firewall checks), then the rest, then the end.
    (reporter as unknown as { printMovedAreas(): void }).printMovedAreas();
    for (const outcome of OUTCOMES.slice(2)) reporter.finished(outcome);
    reporter.onTestRunEnd([], []);
    const end = stream.text.slice(stream.text.lastIndexOf('overall'));
    expect(end).toMatch(/^overall +6\/6 checks · 40 s elapsed\n/);
    // Every area's final line at the end, the firewalls' too although they did not move since the periodic print.
    expect(
      end
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(/ {2,}/)[0]),
    ).toEqual(['Account', 'Tags', 'Domains', 'Firewalls']);
  });

  it('a check that broke SHOULD rules only is a warning, as the results count it; one that broke a MUST rule too is a fail', () => {
    const versioning = 'P1.versioning.unversioned-not-served';
    const base = { ...OUTCOMES[0]!, name: `[${versioning}] the API does not answer without the version segment`, file: 'specs/part1/conventions.spec.ts' };
    const warned = {
      ...base,
      record: { ...base.record!, rules: [versioning], failedRule: versioning, alsoFailed: [] },
      message: 'GET /databases/engines answers',
    };
    const failed = { ...warned, record: { ...warned.record, alsoFailed: ['P1.versioning.v4-prefix'] } };
    const stream = new Capture();
    const reporter = new ProgressReporter({ mode: 'plain', stream, intervalMs: 60_000 });
    reporter.onTestRunStart([{}] as unknown as TestSpecification[]);
    reporter.onTestModuleCollected({ children: { allTests: () => [{ name: base.name }, { name: base.name }] } } as unknown as TestModule);
    reporter.finished(warned);
    reporter.onTestRunEnd([], []);
    expect(stream.text).toMatch(/^WARNING P1\.versioning\.unversioned-not-served GET \/databases\/engines answers/m);
    expect(stream.text).toMatch(/^Common rules +1\/2 checks +1 warning$/m);
    expect(stream.text).not.toMatch(/FAIL|fail/);
    reporter.finished(failed);
    reporter.onTestRunEnd([], []);
    expect(stream.text).toMatch(/^FAIL P1\.versioning\.unversioned-not-served/m);
    expect(stream.text).toMatch(/^Common rules +2\/2 checks +1 fail, 1 warning$/m);
  });

  it('a check whose broken rules the expectations file excuses (not past their date) is expected, as the results count it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'progress-')), 'expectations.json');
    writeFileSync(
      file,
      JSON.stringify({
        'P3.firewall.rules.max-25': 'accepts 26, OPS-1',
        'P3.firewall.status.enable-blocked-by-active': { reason: 'old', expires: '2020-01-01' },
      }),
    );
    const stream = new Capture();
    const reporter = new ProgressReporter({ mode: 'plain', stream, intervalMs: 60_000, expectations: file });
    reporter.onTestRunStart([{}] as unknown as TestSpecification[]);
    reporter.onTestModuleCollected({ children: { allTests: () => OUTCOMES.slice(0, 2).map((outcome) => ({ name: outcome.name })) } } as unknown as TestModule);
    for (const outcome of OUTCOMES.slice(0, 2)) reporter.finished(outcome);
    reporter.onTestRunEnd([], []);
    expect(stream.text).toMatch(/^EXPECTED P3\.firewall\.rules\.max-25 /m);
    // (an expectation past its date excuses nothing)
    expect(stream.text).toMatch(/^FAIL P3\.firewall\.status\.enable-blocked-by-active /m);
    expect(stream.text).toMatch(/^Firewalls +2\/2 checks +1 fail, 1 expected$/m);
    const jsonl = new Capture();
    const lines = new ProgressReporter({ mode: 'jsonl', stream: jsonl, expectations: file });
    for (const outcome of OUTCOMES.slice(0, 2)) lines.finished(outcome);
    const counted = jsonl.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { verdict: string; countedAs?: string })
      .map(({ verdict, countedAs }) => [verdict, countedAs ?? null]);
    expect(counted).toEqual([
      ['fail', null],
      ['fail', 'expected'],
    ]);
  });
});
