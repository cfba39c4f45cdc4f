// Two hand-made runs compared: the rules whose status changed, in order (fails now, fixed, other), with what each run
// saw; expectations do not hide a change; the text and HTML forms.
import { describe, expect, it } from 'vitest';
import { diffResults, diffText, renderDiffHtml } from '../../reports/diff.js';
import { applyExpectations } from '../../reports/expectations.js';
import { HOSTILE, OUTCOMES, outcome, sampleResults } from './sample-results.js';

const FIREWALL = 'P3.firewall.status.enable-blocked-by-active';
const PROPERTY = 'P3.firewall.rules.max-25';
const ACCOUNT = 'P1.account.serves.get-account';
const before = sampleResults();
// The release after: the firewall rule fixed, the account check errors no more, the domain check failing its own rule.
const after = sampleResults([
  outcome('a disabled firewall cannot be enabled while another enabled one is assigned', 'specs/part3/firewalls.spec.ts', 'pass', [
    FIREWALL,
    'P3.firewall.status.disabled-to-enabled',
  ]),
  OUTCOMES[1]!,
  outcome('the account answers', 'specs/part1/account.spec.ts', 'pass', [ACCOUNT]),
  outcome(
    'lists domains',
    'specs/part3/domains.spec.ts',
    'fail',
    ['P3.domains.serves.get-domains'],
    { failedRule: 'P3.domains.serves.get-domains' },
    `P3.domains.serves.get-domains: got HTTP 500 ${HOSTILE}`,
  ),
  ...OUTCOMES.slice(4),
]);
const diff = diffResults('before.json', before, 'after.json', after);

describe('conformance diff', () => {
  it('lists the rules whose status changed, failing ones first, with both runs’ evidence', () => {
    expect(diff.changed.map((change) => [change.kind, change.id, change.from, change.to])).toEqual([
      ['fails now', 'P3.domains.serves.get-domains', 'pass', 'fail'],
      ['fixed', 'P3.domain.types', 'fail', 'untested'],
      ['fixed', FIREWALL, 'fail', 'pass'],
      ['changed', ACCOUNT, 'error', 'pass'],
    ]);
    expect(diff.counts).toEqual({ 'fails now': 1, fixed: 2, changed: 1 });
    const fixed = diff.changed.find((change) => change.id === FIREWALL)!;
    expect(fixed.before).toEqual([
      expect.objectContaining({ verdict: 'fail', replay: expect.stringContaining(`--rules ${FIREWALL}`), evidence: expect.any(Array) }),
    ]);
    expect(fixed.after).toEqual([]);
    expect(diff.changed.find((change) => change.id === ACCOUNT)!.before).toEqual([
      expect.objectContaining({ verdict: 'error', message: 'the harness broke: TypeError' }),
    ]);
    expect(diff.changed.some((change) => change.id === PROPERTY)).toBe(false);
  });

  it('compares the statuses as judged: an expectations file on either side changes nothing', () => {
    const excused = applyExpectations(after, { 'P3.domains.serves.get-domains': { reason: 'known' } }, 'gate.json');
    expect(diffResults('before.json', before, 'after.json', excused).changed).toEqual(diff.changed);
    expect(diffResults('a.json', before, 'b.json', before).changed).toEqual([]);
  });

  it('prints one block per change and an HTML page with both sides, escaping what targets answered', () => {
    const text = diffText(diff);
    expect(text[0]).toMatch(/^before: embedded reference emulator \(run rtest01, 2026-11-21 07:00:00, documents 4\.123\.1; before\.json\)$/);
    expect(text[2]).toBe('4 rules changed status: 1 fails now, 2 fixed, 1 changed');
    expect(text).toContain(`FIXED  ${FIREWALL} (MUST)  fail → pass`);
    expect(
      text.some((line) => line.startsWith('  after: fail [P3.domains.serves.get-domains] lists domains: P3.domains.serves.get-domains: got HTTP 500')),
    ).toBe(true);
    const page = renderDiffHtml(diff);
    expect(page.match(/<article class="change"/g)).toHaveLength(4);
    expect(page).toMatch(
      /id="change-P3\.firewall\.status\.enable-blocked-by-active" data-kind="fixed"[\s\S]*?<div class="side"><h4>before <span class="badge st-fail">fail<\/span><\/h4><div class="failing-check">/,
    );
    expect(page).not.toContain(HOSTILE);
    expect(page).not.toMatch(/<script|\ssrc=/);
  });
});
