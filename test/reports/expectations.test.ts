// Expectations applied to hand-made results: expected fails, unexpectedly passing rules, expired entries, the file's
// one-line refusals, what compliance.html and junit.xml make of them, and a file written from a run.
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { exitOf } from '../../cli/run.js';
import {
  ExpectationsError,
  applyExpectations,
  expectationsFrom,
  expectationsLine,
  parseExpectations,
  withoutExpectations,
} from '../../reports/expectations.js';
import { renderHtml } from '../../reports/html.js';
import { renderJunit } from '../../reports/junit.js';
import { sampleResults } from './sample-results.js';

const FIREWALL = 'P3.firewall.status.enable-blocked-by-active';
const PROPERTY = 'P3.firewall.rules.max-25';
const PASSING = 'P3.firewall.status.disabled-to-enabled';
const results = sampleResults();
// The sample run started on 2026-11-21.
const applied = applyExpectations(
  results,
  {
    [FIREWALL]: { reason: 'known bug OPS-1' },
    [PASSING]: { reason: 'was broken last month' },
    [PROPERTY]: { reason: 'fixed by now, surely', expires: '2026-11-20' },
  },
  'gate.json',
);
const rule = (id: string) => applied.rules.find((candidate) => candidate.id === id)!;

describe('an expectations file', () => {
  it('accepts reasons and {reason, expires}', () => {
    expect(parseExpectations(JSON.stringify({ [FIREWALL]: 'bug', [PROPERTY]: { reason: 'r', expires: '2027-02-28' } }), 'f.json')).toEqual({
      [FIREWALL]: { reason: 'bug' },
      [PROPERTY]: { reason: 'r', expires: '2027-02-28' },
    });
  });

  it('is refused with one line when malformed or naming an unknown rule', () => {
    const cases: Array<[string, RegExp]> = [
      ['{', /^f\.json is not valid JSON$/],
      ['[]', /^f\.json must hold a JSON object/],
      [JSON.stringify({ 'P9.nope': 'x', [FIREWALL]: 'y' }), /^f\.json: unknown rule id P9\.nope \(`conformance rules` lists them\)$/],
      [JSON.stringify({ [FIREWALL]: '' }), /needs a reason/],
      [JSON.stringify({ [FIREWALL]: 3 }), /must be a reason or \{"reason", "expires"\}/],
      [JSON.stringify({ [FIREWALL]: { reason: 'x', until: 'soon' } }), /unknown member\(s\) until/],
      [JSON.stringify({ [FIREWALL]: { reason: 'x', expires: '2027-02-30' } }), /expires must be a date YYYY-MM-DD, got "2027-02-30"/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseExpectations(text, 'f.json'), text).toThrow(ExpectationsError);
      expect(() => parseExpectations(text, 'f.json'), text).toThrow(message);
    }
  });
});

describe('applied to a run', () => {
  it('turns an expected fail into `expected`, which no longer counts as a fail', () => {
    expect(rule(FIREWALL)).toMatchObject({ status: 'expected', expected: { reason: 'known bug OPS-1' } });
    expect(applied.summary).toMatchObject({ fail: results.summary.fail - 1, expected: 1 });
    expect(applied.failures.find((failure) => failure.rule === FIREWALL)).toMatchObject({ expected: true });
    // The score is the target's: an expected fail is still a fail there.
    expect(applied.score).toEqual(results.score);
  });

  it('lists an expected rule that passed as unexpectedly passing, and an expired expectation excuses nothing', () => {
    expect(applied.expectations).toMatchObject({ file: 'gate.json', expected: [FIREWALL], unexpectedlyPassing: [PASSING], expired: [PROPERTY] });
    expect(rule(PROPERTY).status).toBe('fail');
    expect(expectationsLine(applied.expectations)).toBe(`; expectations: 1 expected, 1 unexpectedly passing (${PASSING}), 1 expired (${PROPERTY})`);
  });

  it('exits 0 when every fail is expected, and 1 for an unexpectedly passing rule only with --strict-expectations', () => {
    const allExpected = applyExpectations(results, Object.fromEntries(results.failures.map((failure) => [failure.rule, { reason: 'known' }])), 'all.json');
    expect(allExpected.summary.fail).toBe(0);
    expect(exitOf({ ...allExpected, summary: { ...allExpected.summary, error: 0 } }, { failOn: 'must' })).toEqual({ code: 0 });
    const stale = applyExpectations(allExpected, { ...allExpected.expectations!.entries, [PASSING]: { reason: 'old' } }, 'all.json');
    const noError = { ...stale, summary: { ...stale.summary, error: 0 } };
    expect(exitOf(noError, { failOn: 'must' })).toEqual({ code: 0 });
    expect(exitOf(noError, { failOn: 'must', strictExpectations: true })).toEqual({
      code: 1,
      line: '1 rule(s) expected to fail now pass: take them out of all.json (--strict-expectations)',
    });
    expect(exitOf(applied, { failOn: 'must' }).code).toBe(1);
  });

  it('can be taken back off, and applying another file starts from the run as judged', () => {
    expect(withoutExpectations(applied)).toEqual(results);
    expect(applyExpectations(applied, {}, 'empty.json').summary).toEqual(results.summary);
  });
});

describe('in the reports', () => {
  it('compliance.html shows expected fails with their reason, apart from the failures, and the out-of-date entries', () => {
    const page = renderHtml(applied);
    expect(page).toMatch(
      /<section id="expectations">[\s\S]*<article class="expected-fail" id="expected-P3\.firewall\.status\.enable-blocked-by-active" data-status="expected"/,
    );
    expect(page).toContain('expected: known bug OPS-1');
    expect(page).toMatch(/<h3 id="unexpectedly-passing">[\s\S]*P3\.firewall\.status\.disabled-to-enabled/);
    expect(page).toMatch(/<h3 id="expired">[\s\S]*P3\.firewall\.rules\.max-25<\/code><\/a> — fixed by now, surely <span class="expires">\(until 2026-11-20\)/);
    expect(page).not.toContain(`id="fail-${FIREWALL}"`);
    expect(page).toMatch(/data-count="expected"><b>1<\/b>/);
    expect(renderHtml(results)).not.toMatch(/id="expectations"|data-count="expected"|value="expected"/);
  });

  it('junit.xml reports an expected fail as skipped, saying so', () => {
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(renderJunit(applied)) as {
      testsuites: { testsuite: Array<{ testcase: Record<string, unknown> | Array<Record<string, unknown>> }> };
    };
    const cases = parsed.testsuites.testsuite.flatMap((suite) => (Array.isArray(suite.testcase) ? suite.testcase : [suite.testcase]));
    const firewall = cases.find((testCase) => String(testCase.name).includes('cannot be enabled'))!;
    expect(firewall).not.toHaveProperty('failure');
    expect(firewall).toHaveProperty('skipped');
    expect(String(firewall['system-out'])).toMatch(/^expected fail \(known bug OPS-1\)/);
    expect(cases.find((testCase) => String(testCase.name).includes(PROPERTY))).toHaveProperty('failure');
  });
});

describe('written from a run', () => {
  it('names every MUST rule that failed, keeping the reasons a file already gave', () => {
    const written = expectationsFrom(applied, '2027-01-31');
    expect(Object.keys(written).sort()).toEqual(results.failures.map((failure) => failure.rule).sort());
    expect(written[FIREWALL]).toEqual({ reason: 'known bug OPS-1', expires: '2027-01-31' });
    expect(written[PROPERTY]).toEqual({ reason: 'fixed by now, surely', expires: '2027-01-31' });
    expect(expectationsFrom(results)[PROPERTY]).toEqual({ reason: expect.stringMatching(/^a 26th rule should be rejected .* \(run rtest01, 2026-11-21\)$/) });
    expect(() => expectationsFrom(results, 'tomorrow')).toThrow(/--expires must be a date YYYY-MM-DD/);
    // What it writes is a valid expectations file that excuses every fail of that run.
    const again = applyExpectations(results, parseExpectations(JSON.stringify(expectationsFrom(results)), 'w.json'), 'w.json');
    expect(again.summary.fail).toBe(0);
  });
});
