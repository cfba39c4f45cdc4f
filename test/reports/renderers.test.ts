// results.json, compliance.html and junit.xml built from small hand-made outcomes: the extended results members,
// escaping of hostile response bodies, well-formed XML, and the one-line errors of `report --from`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../reports/html.js';
import { renderJunit } from '../../reports/junit.js';
import { renderMutationHtml } from '../../reports/mutation.js';
import { replayCommand, runInfoOf, targetOf } from '../../reports/results.js';
import { defaults } from '../../harness/config.js';
import { ResultsFileError, readResultsFile, rerenderReports } from '../../reports/write.js';
import { HOSTILE, OUTCOMES, RUN, outcome, sampleResults } from './sample-results.js';

const results = sampleResults();
const rule = (id: string) => results.rules.find((candidate) => candidate.id === id)!;

describe('results.json', () => {
  it('describes the run: target, date, documents version, score and counts per status', () => {
    expect(results).toMatchObject({ target: 'embedded reference emulator', date: '2026-11-21T07:00:00.000Z', documentsVersion: '4.123.1', run: RUN });
    expect(results.checks).toEqual({ pass: 1, fail: 2, error: 1, skip: 1, disabled: 1 });
    // Rules: the two failed ones and the finding's, the other declared rule of the first check passes.
    expect(results.summary.fail).toBe(3);
    expect(results.summary.pass).toBe(2);
    expect(results.score).toMatchObject({ passedMust: 2, judgedMust: 5, percent: 40 });
    expect(results.score.definition).toMatch(/MUST rules that passed ÷ MUST rules judged/);
    expect(results.untested).toBe(results.rules.filter((candidate) => candidate.status === 'untested').length);
  });

  it('gives every rule its document, section and its anchor, sentence, level and the checks behind it', () => {
    expect(rule('P3.firewall.status.enable-blocked-by-active')).toMatchObject({
      document: 'part3',
      section: 'Firewall status',
      anchor: 'firewall-status',
      area: 'Firewalls',
      level: 'MUST',
      status: 'fail',
    });
    expect(rule('P3.firewall.status.enable-blocked-by-active').sentence).toMatch(/cannot be enabled/);
    expect(rule('P3.firewall.status.disabled-to-enabled').checks).toEqual([expect.objectContaining({ verdict: 'pass' })]);
    expect(rule('P1.account.serves.get-account')).toMatchObject({ status: 'error', area: 'Account' });
    expect(results.rules.some((candidate) => candidate.untestable)).toBe(true);
  });

  it('fails the general rules a break of the named rule breaks too (Check.alsoBreaks), and only those', () => {
    const rules = ['P3.domains.scope.get-domains', 'P1.auth.oauth.scope-required', 'P1.auth.scope.read-write-changes'];
    const broken = sampleResults([
      outcome('a token lacking domains:read_only is refused', 'specs/generic/part3.spec.ts', 'fail', rules, {
        failedRule: rules[0],
        alsoFailed: [rules[1]!],
      }),
    ]);
    const status = (id: string) => broken.rules.find((candidate) => candidate.id === id)!.status;
    expect(rules.map(status)).toEqual(['fail', 'fail', 'pass']);
  });

  it('covers all 127 endpoints with their requests and the verdicts of the checks that sent them', () => {
    expect(results.endpoints).toHaveLength(127);
    const status = results.endpoints.find((endpoint) => endpoint.method === 'PUT' && endpoint.path === '/v4/networking/firewalls/{firewallId}')!;
    expect(status).toMatchObject({ requests: 1, requested: true, document: 'part3', area: 'Firewalls' });
    expect(status.verdicts.fail).toBe(1);
    expect(results.endpoints.filter((endpoint) => endpoint.requested)).toHaveLength(3);
  });

  it('indexes every fail of a MUST rule with its evidence, seed, counterexample and a replay command for its spec file', () => {
    expect(results.failures.map((failure) => failure.rule).sort()).toEqual([
      'P3.domain.types',
      'P3.firewall.rules.max-25',
      'P3.firewall.status.enable-blocked-by-active',
    ]);
    const property = rule('P3.firewall.rules.max-25').checks[0]!;
    expect(property).toMatchObject({
      verdict: 'fail',
      seed: 4242,
      path: '3:1',
      counterexample: expect.stringContaining('26 rules'),
      file: 'specs/properties/part3.spec.ts',
    });
    expect(property.replay).toBe(
      'npx conformance run --emulator-fault P3.firewall.status.enable-blocked-by-active --rules P3.firewall.rules.max-25 --seed 4242 specs/properties/part3.spec.ts',
    );
    expect(rule('P3.firewall.status.enable-blocked-by-active').checks[0]!.evidence).toHaveLength(2);
    // A finding is replayed through the check that saw it (the finding's own rule selects no check).
    expect(rule('P3.domain.types').checks[0]!.replay).toMatch(/--rules P3\.domains\.serves\.get-domains .*specs\/part3\/domains\.spec\.ts$/);
  });

  it('lists every check once, for JUnit', () => {
    expect(results.checkList).toHaveLength(OUTCOMES.length);
    expect(results.checkList[0]).toMatchObject({
      file: 'specs/part3/firewalls.spec.ts',
      area: 'Firewalls',
      verdict: 'fail',
      failedRule: 'P3.firewall.status.enable-blocked-by-active',
      durationMs: 12,
    });
  });

  it('names the target without the credentials a base URL may carry', () => {
    const config = { ...defaults(), baseUrl: 'https://deploy:s3cret@api.example.com:8443/base', token: 't0ken' };
    expect(targetOf(config)).toBe('https://api.example.com:8443/base');
    expect(JSON.stringify(runInfoOf(config))).not.toMatch(/s3cret|t0ken/);
    expect(targetOf(defaults())).toBe('embedded reference emulator');
  });

  it('replays against the same target with the same runs, and quotes what the shell would split', () => {
    const command = replayCommand(
      { ...RUN, baseUrl: "https://api.example.com/it's", emulatorFaults: [], runs: 7 },
      'P3.firewall.rules.max-25',
      'specs/part3/firewalls.spec.ts',
    );
    expect(command).toBe(
      `npx conformance run --base-url 'https://api.example.com/it'\\''s' --token "$CONFORMANCE_TOKEN" --rules P3.firewall.rules.max-25 --seed 4242 --runs 7 specs/part3/firewalls.spec.ts`,
    );
  });
});

describe('honest rule status', () => {
  const FIREWALLS = 'specs/part3/firewalls.spec.ts';
  const shapeOnly = outcome('a firewall is created', FIREWALLS, 'pass', ['P3.firewalls.serves.post-networking-firewalls'], {
    exercised: ['P3.firewall.label.min-3'],
  });
  const refusalSkipped = outcome('a 2-char label is refused', FIREWALLS, 'skip', ['P3.firewall.label.min-3'], {}, 'needs a capability');
  const inferred = outcome('lists domains', 'specs/part3/domains.spec.ts', 'pass', ['P3.domains.serves.get-domains'], {
    findings: [{ rule: 'P3.domain.fields', level: 'SHOULD', path: '/data/0', message: 'must have property ttl_sec', request: 'GET /v4/domains' }],
  });
  const honest = sampleResults([shapeOnly, refusalSkipped, inferred]);
  const of = (id: string) => honest.rules.find((candidate) => candidate.id === id)!;

  it('gives every rule its checks judged and total, and a rule whose discriminating check skipped is only partly judged', () => {
    expect(of('P3.firewall.label.min-3')).toMatchObject({ status: 'pass', checksJudged: 1, checksTotal: 2, judgement: 'partial' });
    expect(of('P3.firewalls.serves.post-networking-firewalls')).toMatchObject({ status: 'pass', checksJudged: 1, checksTotal: 1, judgement: 'full' });
    expect(of('P1.account.serves.get-account')).toMatchObject({ checksJudged: 0, checksTotal: 0, judgement: 'none' });
    expect(honest.judgement.partial).toBe(1);
    expect(honest.judgement.full + honest.judgement.partial + honest.judgement.none + honest.judgement.untestable).toBe(honest.rules.length);
    // An errored or disabled check leaves its rule partly judged too.
    const errored = sampleResults([shapeOnly, { ...refusalSkipped, verdict: 'error', record: { ...refusalSkipped.record!, verdict: 'error' } }]);
    expect(errored.rules.find((candidate) => candidate.id === 'P3.firewall.label.min-3')).toMatchObject({ status: 'error', judgement: 'partial' });
  });

  it('reports a SHOULD rule with a finding as a warning, never a pass or a fail', () => {
    expect(of('P3.domain.fields')).toMatchObject({ level: 'SHOULD', status: 'warning', judgement: 'full', warning: expect.stringContaining('ttl_sec') });
    expect(honest.summary).toMatchObject({ warning: 1, fail: 0 });
    expect(honest.warnings).toBe(1);
    expect(honest.failures).toEqual([]);
  });

  it('compliance.html counts rules fully, partly and not judged, and lists warnings in their own filterable section', () => {
    const page = renderHtml(honest);
    expect(page).toContain('<b data-judgement="partial">1</b> partly judged');
    expect(page).toContain('partly judged: 1 of 2 checks');
    expect(page).toMatch(/<section id="warnings">[\s\S]*<article class="warned" id="warn-P3\.domain\.fields" data-status="warning"/);
    expect(page).toContain('<input type="checkbox" name="status" value="warning" checked>');
    expect(page).toMatch(/data-count="warning"><b>1<\/b>/);
  });
});

describe('a property judged on fewer generated values than asked', () => {
  const note = 'judged on 26 of 100 generated values: the target answered too slowly for the rest within the check&#39;s time';
  const slow = sampleResults([
    ...OUTCOMES,
    outcome('valid bodies are accepted', 'specs/properties/part1.spec.ts', 'pass', ['P1.account.serves.put-account'], {}, note.replace('&#39;', "'")),
  ]);
  it('passes, and its rule shows how many were judged, in results.json and the page', () => {
    const entry = slow.rules.find((candidate) => candidate.id === 'P1.account.serves.put-account')!;
    expect(entry.status).toBe('pass');
    expect(entry.checks).toEqual([expect.objectContaining({ verdict: 'pass', message: note.replace('&#39;', "'") })]);
    expect(renderHtml(slow)).toContain(`<span class="check-message">${note}`);
  });
  it('a fail of another rule of the same check gives this one no message', () => {
    const failing = rule('P3.firewall.status.disabled-to-enabled');
    expect(failing.checks.every((entry) => entry.message === undefined)).toBe(true);
  });
});

describe('compliance.html', () => {
  const page = renderHtml(results);

  it('says when the run was one shard of several', () => {
    expect(page).not.toContain('a partial run');
    expect(renderHtml({ ...results, run: { ...results.run, shard: '2/3' } })).toContain('shard 2/3 (a partial run: this shard&#39;s spec files only)');
  });

  it('shows a hostile response body as text, never as markup', () => {
    expect(page).not.toContain(HOSTILE);
    expect(page).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.match(/<script>/g)).toHaveLength(1);
  });

  it("says where in the documents each failed rule is stated: file and heading anchor, and the documents' own words", () => {
    expect(page).toContain('<code title="where the documents say it">part3-domains-monitoring-networking.md#firewall-status</code>');
    expect(rule('P3.firewall.status.enable-blocked-by-active').quotes?.length).toBeGreaterThan(0);
    // The table row stating it, its cells joined, quoted under the rule.
    expect(page).toContain(
      '<blockquote class="quote" title="the document\'s own words"><p><code>disabled</code> — PUT firewall with status <code>enabled</code> — no other enabled firewall is assigned to the same instance — <code>enabled</code> — event firewall_enable</p>',
    );
  });

  it("renders a sentence's `code` spans as code, and still escapes what is inside them", () => {
    const rule = { ...results.rules[0]!, sentence: 'The member `data` is an array; `<b>` is text.' };
    const shown = renderHtml({ ...results, rules: [rule, ...results.rules.slice(1)] });
    expect(shown).toContain('The member <code>data</code> is an array; <code>&lt;b&gt;</code> is text.');
    expect(shown).not.toContain('`data`');
  });

  it('loads nothing from the network', () => {
    expect(page).not.toMatch(/\ssrc=|<link|@import|url\(/i);
    expect(page).toContain(`default-src 'none'`);
  });

  it('carries the summary, the failures with their replay commands, the rules and the 127 endpoint rows', () => {
    expect(page).toContain('id="score">40.0 %');
    expect(page).toMatch(/data-count="fail"><b>3<\/b>/);
    expect(page).toContain('version 4.123.1');
    for (const failure of results.failures) expect(page).toContain(`data-copy="${failure.replay}"`);
    expect(page.match(/<li class="rule" /g)).toHaveLength(results.rules.length);
    expect(page.match(/<tr data-status=/g)).toHaveLength(127);
    expect(page).toContain('<dt>counterexample</dt>');
  });
});

describe('junit.xml', () => {
  const xml = renderJunit(results);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as {
    testsuites: { testsuite: Array<{ name: string; testcase: Record<string, unknown> | Array<Record<string, unknown>> }> };
  };
  const cases = parsed.testsuites.testsuite.flatMap((suite) => (Array.isArray(suite.testcase) ? suite.testcase : [suite.testcase]));

  it('is well-formed XML even with control characters and CDATA terminators in a body', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain('\u0001');
  });

  it('has one test case per check, grouped by spec file, with fails, errors and skips', () => {
    expect(cases).toHaveLength(OUTCOMES.length);
    expect(parsed.testsuites.testsuite.map((suite) => suite.name).sort()).toEqual([
      'specs/part1/account.spec.ts',
      'specs/part2/tags.spec.ts',
      'specs/part3/domains.spec.ts',
      'specs/part3/firewalls.spec.ts',
      'specs/properties/part3.spec.ts',
    ]);
    const byName = (fragment: string) => cases.find((testCase) => String(testCase.name).includes(fragment))!;
    expect(byName('cannot be enabled')).toMatchObject({ classname: 'specs.part3.firewalls', failure: expect.objectContaining({ type: 'fail' }) });
    expect(JSON.stringify(byName('cannot be enabled').failure)).toContain('replay: npx conformance run');
    expect(byName('the account answers')).toHaveProperty('error');
    expect(byName('card charge')).toHaveProperty('skipped');
    expect(byName('tags are listed')).toHaveProperty('skipped');
    // A passing check whose response broke a MUST rule is a failure too (the run exits 1 for it).
    expect(byName('lists domains')).toHaveProperty('failure');
  });

  it('counts the tests, failures, errors and skips of each suite and of the whole', () => {
    type Counted = Record<'tests' | 'failures' | 'errors' | 'skipped', string>;
    const count = (testCases: Array<Record<string, unknown>>): Counted => ({
      tests: String(testCases.length),
      failures: String(testCases.filter((testCase) => 'failure' in testCase).length),
      errors: String(testCases.filter((testCase) => 'error' in testCase).length),
      skipped: String(testCases.filter((testCase) => 'skipped' in testCase).length),
    });
    const totals = parsed.testsuites as unknown as Counted;
    expect(count(cases)).toMatchObject({ failures: '3', errors: '1' });
    expect({ tests: totals.tests, failures: totals.failures, errors: totals.errors, skipped: totals.skipped }).toEqual(count(cases));
    for (const suite of parsed.testsuites.testsuite) {
      const own = Array.isArray(suite.testcase) ? suite.testcase : [suite.testcase];
      expect(suite).toMatchObject(count(own));
    }
  });

  it('names the rule ids as properties', () => {
    const properties = JSON.stringify(cases[0]!.properties);
    expect(properties).toContain('P3.firewall.status.enable-blocked-by-active');
    expect(properties).toContain('P3.firewall.status.disabled-to-enabled');
  });
});

describe('reading results.json back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-reports-'));

  it('re-renders the reports beside it', () => {
    const file = join(dir, 'results.json');
    writeFileSync(file, JSON.stringify(results));
    expect(readResultsFile(file).failures).toHaveLength(3);
    expect(rerenderReports(file)).toEqual({ html: join(dir, 'compliance.html'), junit: join(dir, 'junit.xml') });
  });

  it('refuses what is not a results.json with one line', () => {
    const cases: Array<[string, string | null, RegExp]> = [
      ['missing.json', null, /cannot read .*missing\.json: ENOENT/],
      ['garbage.json', '{not json', /is not valid JSON/],
      ['array.json', '[]', /not a JSON object/],
      ['old.json', JSON.stringify({ summary: {}, rules: [] }), /missing target, .*: run the suite again/],
    ];
    for (const [name, content, message] of cases) {
      const file = join(dir, name);
      if (content !== null) writeFileSync(file, content);
      expect(() => readResultsFile(file)).toThrow(ResultsFileError);
      expect(() => readResultsFile(file)).toThrow(message);
    }
  });
});

describe('mutation.html', () => {
  const outcome = { rule: 'P3.firewall.rules.max-25', does: 'accepts a 26th rule', durationMs: 1200, otherFails: [] };
  const matrix = {
    started: '2026-11-21T07:00:00.000Z',
    finished: '2026-11-21T07:03:00.000Z',
    seed: 7,
    runs: 20,
    violationRuns: 3,
    jobs: 2,
    durationMs: 180_000,
    faults: 2,
    detected: 1,
    outcomes: [
      {
        ...outcome,
        id: 'P3.firewall.rules.max-25',
        detected: true,
        ruleStatus: 'fail',
        detectedBy: [{ check: '[P3.firewall.rules.max-25] a 26th rule is refused', message: 'got HTTP 200 <script>' }],
        otherFails: ['P3.firewall.view.rules'],
      },
      {
        ...outcome,
        id: 'P3.firewall.rules.max-25~update',
        detected: false,
        ruleStatus: 'pass',
        detectedBy: [],
        problem: 'the run stopped making progress: no spec file ended within 120 s',
      },
    ],
  };
  const html = renderMutationHtml(matrix);

  it('gives the counts, per document, and each fault with what caught it or why it was missed', () => {
    expect(html).toContain('<strong>1 of 2</strong> faults detected with their own rule id — <strong>1 missed</strong>');
    expect(html).toContain('<li>P3: 1 / 2</li>');
    expect(html).toMatch(/<tr class="missed">.*MISSED.*rule status: pass — the run stopped making progress: no spec file ended within 120 s/);
    expect(html).toContain('the same run also failed: P3.firewall.view.rules');
    expect(html).toContain('Seed 7, 20 runs per valid-body property, 3 per violation property, 2 workers, 180 s');
  });

  it('escapes what the target answered', () => {
    expect(html).toContain('got HTTP 200 &#60;script&#62;');
    expect(html).not.toContain('<script>');
  });
});
