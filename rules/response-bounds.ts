// Length bounds of the documents' resource tables ("label: 3..32 chars") constrain what a caller may send: MUST,
// judged on requests (the property checks send a violation of every bound). Applied to what a server returns they are
// inferred, not stated, and real services return values outside them (an image description "", a domain group "",
// a cluster label of 35 characters). So each bound that a response schema also carries has a response-side twin,
// `<rule>.returned`, level SHOULD: a response breaking the bound is a warning under it (harness/responses.ts).
// Bounds stated only of objects the caller never sends (volume and load balancer labels) are SHOULD rules themselves.
import type { DeclaredRule } from './types.js';

// One row per rule: the formatter leaves the table alone.
// prettier-ignore
export const RESPONSE_LENGTH_BOUNDS: readonly string[] = [
  ...['address-1.max-64', 'address-2.max-64', 'city.max-24', 'company.max-128', 'email.max-128', 'first-name.max-50', 'last-name.max-50', 'phone.max-32', 'state.max-24', 'tax-id.max-100'].map((bound) => `P1.account.${bound}`),
  'P1.database.label.min-3', 'P1.database.label.max-32',
  'P1.oauth-client.label.min-1', 'P1.oauth-client.label.max-512',
  'P2.image.description.min-1', 'P2.image.description.max-65000',
  'P2.instance.label.min-3', 'P2.instance.label.max-64',
  'P2.tag.label.min-3', 'P2.tag.label.max-50',
  'P3.domain.domain.min-1', 'P3.domain.domain.max-255',
  'P3.domain.description.min-1', 'P3.domain.description.max-255',
  'P3.domain.group.min-1', 'P3.domain.group.max-50',
  'P3.monitor-client.label.min-3', 'P3.monitor-client.label.max-32',
  'P3.firewall.label.min-3', 'P3.firewall.label.max-32',
  'P3.firewall.rule.description.min-1', 'P3.firewall.rule.description.max-100',
  'P3.firewall.rule.label.min-3', 'P3.firewall.rule.label.max-32',
];

const BOUNDED = new Set(RESPONSE_LENGTH_BOUNDS);

/** The response-side twin of a length bound, or undefined for a rule that has none. */
export function returnedTwin(id: string): string | undefined {
  return BOUNDED.has(id) ? `${id}.returned` : undefined;
}

/** The rules with each bounded rule said to hold for requests, followed by its response-side twin (SHOULD). */
export function withResponseBounds(rules: readonly DeclaredRule[]): DeclaredRule[] {
  const missing = RESPONSE_LENGTH_BOUNDS.filter((id) => !rules.some((rule) => rule.id === id));
  if (missing.length) throw new Error(`response length bounds name unknown rules: ${missing.join(', ')}`);
  return rules.flatMap((rule) => {
    const twin = returnedTwin(rule.id);
    if (!twin) return [rule];
    return [
      { ...rule, rule: `${rule.rule} (What a caller sends; on what the server returns the bound is inferred: ${twin}.)` },
      { ...rule, id: twin, level: 'SHOULD' as const, rule: `inferred: the bound holds for what the server returns too — ${rule.rule}`, check: 'code' },
    ];
  });
}
