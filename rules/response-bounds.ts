// The rules of the documents' resource tables on what a caller may send, its length bounds ("label: 3..32 chars") and
// its character rules ("only alphanumerics, dashes, underscores, periods", "RFC 1035"), are MUST, judged on requests
// (the property checks send a violation of each). Applied to what a server returns they are inferred, not stated, and
// real services return values outside them (an image description "", a domain group "", a cluster label of 35
// characters; on a shared account a colleague's RFC 2317 reverse zone `0/25.2.0.192.in-addr.arpa` or an
// `_acme-challenge` zone, RFC 1035 giving letters, digits and hyphens as its "preferred" syntax only). So each such
// rule that a response schema also carries has a response-side twin, `<rule>.returned`, level SHOULD: a response
// breaking the rule is a warning under it (harness/responses.ts).
// Rules stated only of objects the caller never sends (volume and load balancer labels) are SHOULD rules themselves.
import type { DeclaredRule } from './types.js';

// One row per rule: the formatter leaves the table alone.
// prettier-ignore
export const CALLER_SIDE_RULES: readonly string[] = [
  ...['address-1.max-64', 'address-2.max-64', 'city.max-24', 'company.max-128', 'email.max-128', 'first-name.max-50', 'last-name.max-50', 'phone.max-32', 'state.max-24', 'tax-id.max-100'].map((bound) => `P1.account.${bound}`),
  'P1.account.state.us-ca-code',
  'P1.database.label.min-3', 'P1.database.label.max-32',
  'P1.oauth-client.label.min-1', 'P1.oauth-client.label.max-512',
  'P2.image.description.min-1', 'P2.image.description.max-65000',
  'P2.instance.label.min-3', 'P2.instance.label.max-64',
  'P2.instance.label.chars', 'P2.instance.label.begin-end-alphanumeric', 'P2.instance.label.no-doubled-separators',
  'P2.tag.label.min-3', 'P2.tag.label.max-50',
  'P3.domain.domain.min-1', 'P3.domain.domain.max-255',
  'P3.domain.domain.label-max-63', 'P3.domain.domain.rfc-1035',
  'P3.domain.description.min-1', 'P3.domain.description.max-255',
  'P3.domain.group.min-1', 'P3.domain.group.max-50',
  'P3.monitor-client.label.min-3', 'P3.monitor-client.label.max-32',
  'P3.firewall.label.min-3', 'P3.firewall.label.max-32',
  'P3.firewall.label.charset', 'P3.firewall.label.alnum-ends', 'P3.firewall.label.no-double-punctuation',
  'P3.firewall.rule.description.min-1', 'P3.firewall.rule.description.max-100',
  'P3.firewall.rule.label.min-3', 'P3.firewall.rule.label.max-32',
];

const TWINNED = new Set(CALLER_SIDE_RULES);

/** The response-side twin of a caller-side rule, or undefined for a rule that has none. */
export function returnedTwin(id: string): string | undefined {
  return TWINNED.has(id) ? `${id}.returned` : undefined;
}

/** The rules with each caller-side rule said to hold for requests, followed by its response-side twin (SHOULD). */
export function withResponseTwins(rules: readonly DeclaredRule[]): DeclaredRule[] {
  const missing = CALLER_SIDE_RULES.filter((id) => !rules.some((rule) => rule.id === id));
  if (missing.length) throw new Error(`caller-side rules name unknown rules: ${missing.join(', ')}`);
  return rules.flatMap((rule) => {
    const twin = returnedTwin(rule.id);
    if (!twin) return [rule];
    return [
      { ...rule, rule: `${rule.rule} (What a caller sends; on what the server returns the rule is inferred: ${twin}.)` },
      { ...rule, id: twin, level: 'SHOULD' as const, rule: `inferred: the rule holds for what the server returns too — ${rule.rule}`, check: 'code' },
    ];
  });
}
