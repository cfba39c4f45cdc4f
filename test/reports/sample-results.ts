// Small hand-made check outcomes for the report self-tests: one check per verdict, a property failure with its seed
// and counterexample, a finding of a named response check, and a hostile response body.
import type { CheckRecord, Verdict } from '../../harness/check.js';
import type { Exchange } from '../../harness/http.js';
import { buildResults, type CheckOutcome, type Results, type RunInfo } from '../../reports/results.js';

export const HOSTILE = '</script><script>alert(1)</script>';

export const RUN: RunInfo = {
  id: 'rtest01',
  seed: 4242,
  runs: 100,
  violationRuns: 10,
  baseUrl: null,
  emulatorFaults: ['P3.firewall.status.enable-blocked-by-active'],
  rules: null,
  areas: null,
  shard: null,
};

export function exchange(method: string, path: string, status: number, body: unknown, extra: Partial<Exchange> = {}): Exchange {
  return {
    method,
    path,
    requestHeaders: { accept: 'application/json', authorization: 'Bearer [REDACTED]' },
    status,
    responseHeaders: { 'content-type': 'application/json' },
    contentType: 'application/json',
    body,
    notJson: false,
    truncated: false,
    durationMs: 3.2,
    ...extra,
  };
}

function record(rules: string[], verdict: Verdict, extra: Partial<CheckRecord> = {}): CheckRecord {
  return { rules, verdict, findings: [], exchanges: [], exercised: [], endpoints: {}, ...extra };
}

export function outcome(name: string, file: string, verdict: Verdict, rules: string[], extra: Partial<CheckRecord> = {}, message?: string): CheckOutcome {
  return { name: `[${rules.join(' ')}] ${name}`, file, verdict, durationMs: 12, ...(message ? { message } : {}), record: record(rules, verdict, extra) };
}

const FIREWALLS = 'specs/part3/firewalls.spec.ts';

export const OUTCOMES: CheckOutcome[] = [
  outcome(
    'a disabled firewall cannot be enabled while another enabled one is assigned',
    FIREWALLS,
    'fail',
    ['P3.firewall.status.enable-blocked-by-active', 'P3.firewall.status.disabled-to-enabled'],
    {
      failedRule: 'P3.firewall.status.enable-blocked-by-active',
      message: 'enabling should be rejected (4xx) but got HTTP 200',
      exchanges: [
        exchange('PUT', '/v4/networking/firewalls/7', 200, { status: 'enabled', note: HOSTILE }, { requestBody: { status: 'enabled' } }),
        exchange('GET', '/v4/networking/firewalls/7', 500, `<html>${HOSTILE}]]>\u0001]]></html>`, { notJson: true, contentType: 'text/html' }),
      ],
      endpoints: { 'PUT /v4/networking/firewalls/{firewallId}': 1, 'GET /v4/networking/firewalls/{firewallId}': 1 },
    },
    'P3.firewall.status.enable-blocked-by-active: enabling should be rejected (4xx) but got HTTP 200',
  ),
  outcome(
    'a body breaking only P3.firewall.rules.max-25 is rejected',
    'specs/properties/part3.spec.ts',
    'fail',
    ['P3.firewall.rules.max-25'],
    {
      failedRule: 'P3.firewall.rules.max-25',
      seed: 4242,
      path: '3:1',
      counterexample: '{"rules":{"inbound":[…26 rules…]}}',
      exchanges: [exchange('PUT', '/v4/networking/firewalls/7/rules', 200, {})],
    },
    'P3.firewall.rules.max-25: a 26th rule should be rejected — counterexample …',
  ),
  outcome('lists domains', 'specs/part3/domains.spec.ts', 'pass', ['P3.domains.serves.get-domains'], {
    endpoints: { 'GET /v4/domains': 2 },
    findings: [{ rule: 'P3.domain.types', level: 'MUST', path: '/data/0/domain', message: 'must be string', request: 'GET /v4/domains' }],
    exchanges: [exchange('GET', '/v4/domains', 200, { data: [{ id: 1 }], page: 1, pages: 1, results: 1 })],
  }),
  outcome('the account answers', 'specs/part1/account.spec.ts', 'error', ['P1.account.serves.get-account'], {}, 'the harness broke: TypeError'),
  outcome('a card charge failure on cancel', 'specs/part1/account.spec.ts', 'skip', ['P1.account.serves.post-account-cancel'], {}, 'needs a card that fails'),
  outcome('tags are listed', 'specs/part2/tags.spec.ts', 'disabled', ['P2.tags.serves.get-tags-id'], {}, 'disabled by the --rules / --areas filter'),
];

export function sampleResults(outcomes: CheckOutcome[] = OUTCOMES): Results {
  return buildResults(outcomes, { target: 'embedded reference emulator', started: '2026-11-21T07:00:00.000Z', finished: '2026-11-21T07:00:30.000Z', run: RUN });
}
