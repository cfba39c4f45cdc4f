// How reports group rules and checks: by document, and by area (the sections of the documents' endpoint tables,
// plus the rules shared by the whole API).
import { ruleById, type Rule } from '../rules/index.js';
import { endpointByKey, endpoints } from '../rules/endpoints.js';

export type DocumentId = 'part1' | 'part2' | 'part3';

export const DOCUMENTS: Record<DocumentId, { file: string; title: string }> = {
  part1: { file: 'part1-common-databases-account.md', title: 'Part 1 of 3: Common Rules, Managed Databases, Account' },
  part2: { file: 'part2-compute-images-tags.md', title: 'Part 2 of 3: Compute Instances, Images, Tags' },
  part3: { file: 'part3-domains-monitoring-networking.md', title: 'Part 3 of 3: Domains, Monitoring, Networking' },
};

const COMMON_AREA = 'Common rules';
/** Areas in the documents' order. */
export const AREAS: readonly string[] = [COMMON_AREA, ...new Set(endpoints.map((endpoint) => endpoint.section))];

/** Rule id families stated once for the whole API (authentication, list envelope, errors, versioning, paging). */
const COMMON_FAMILIES = new Set(['conventions', 'auth', 'errors', 'versioning', 'pagination']);
/** Where a rule naming no endpoint belongs when its family does not say. */
const DOCUMENT_AREA: Record<Rule['part'], string> = { 1: COMMON_AREA, 2: 'Compute instances', 3: 'Domains' };

export function documentOf(rule: Pick<Rule, 'part'>): DocumentId {
  return `part${rule.part}`;
}

const areaByRule = new Map<string, string>();

/** The area of a rule: the endpoint-table section most of its endpoints are listed in. */
export function areaOfRule(rule: Rule): string {
  let area = areaByRule.get(rule.id);
  if (area === undefined) areaByRule.set(rule.id, (area = votedArea(rule)));
  return area;
}

function votedArea(rule: Rule): string {
  if (COMMON_FAMILIES.has(rule.id.split('.')[1] ?? '')) return COMMON_AREA;
  const votes = new Map<string, number>();
  for (const key of rule.endpoints) {
    const section = endpointByKey.get(key)?.section;
    if (section) votes.set(section, (votes.get(section) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [section, count] of votes) if (best === undefined || count > votes.get(best)!) best = section;
  return best ?? DOCUMENT_AREA[rule.part];
}

/** The area of a check: that of the first rule it names. */
export function areaOfRuleIds(ids: readonly string[]): string {
  const rule = ids.length ? ruleById.get(ids[0]!) : undefined;
  return rule ? areaOfRule(rule) : COMMON_AREA;
}

/** Rule ids a check names in its title: `[P3.firewall.rules.max-25 P1.errors.body.field] a 26th rule is refused`. */
export function ruleIdsOfName(name: string): string[] {
  const match = /^\[([^\]]+)\]/.exec(name);
  return match ? match[1]!.split(' ').filter(Boolean) : [];
}
