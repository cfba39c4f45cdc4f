// Readings the documents do not force, kept out of the verdicts (issue 12): response-side length bounds and character
// rules are SHOULD twins of the request-side MUST rules, the tagged objects list has no unknown-id rule, a rejection is
// any error response, and the rules re-read against their sentences say so in the ledger.
import { describe, expect, it } from 'vitest';
import { loadContract, rulesNamedBy, semanticChecks } from '../../harness/contract.js';
import { isErrorResponse } from '../../harness/error-bodies.js';
import type { Exchange } from '../../harness/http.js';
import { findEndpoint, judgeResponse } from '../../harness/responses.js';
import { samples } from '../../harness/samples.js';
import { ruleById } from '../../rules/index.js';
import { CALLER_SIDE_RULES, returnedTwin } from '../../rules/response-bounds.js';
import { walkSchema } from './audit.js';

type Json = Record<string, unknown>;

/** Rules mapped to a minLength or maxLength keyword of a response (resources/) schema. */
function lengthRulesOfResponses(): Set<string> {
  const contract = loadContract();
  const found = new Set<string>();
  for (const name of contract.names.filter((each) => each.startsWith('resources/'))) {
    walkSchema(contract.documents.get(name)!, name, (node) => {
      for (const keyword of ['minLength', 'maxLength']) {
        if (!(keyword in node)) continue;
        const mapped = (node['x-rules'] as Json | undefined)?.[keyword] ?? node['x-rule'];
        if (typeof mapped === 'string') found.add(mapped);
      }
    });
  }
  return found;
}

/** The rules a response schema node states of a value's characters: its pattern and format keywords and its x-checks. */
function characterRulesOf(name: string, pointer: string): Set<string> {
  let node = loadContract().documents.get(name) as Json;
  for (const key of pointer.split('/').filter(Boolean)) node = node[key] as Json;
  const found = new Set<string>();
  walkSchema(node, name, (each) => {
    for (const keyword of ['pattern', 'format']) {
      if (!(keyword in each)) continue;
      const mapped = (each['x-rules'] as Json | undefined)?.[keyword] ?? each['x-rule'];
      if (typeof mapped === 'string') found.add(mapped);
    }
    if (typeof each['x-check'] === 'string') for (const id of rulesNamedBy(semanticChecks[each['x-check']])) found.add(id);
  });
  return found;
}

const judged = (endpoint: string, status: number, body: unknown) => judgeResponse(findEndpoint(endpoint)!, status, body).violations;
const verdicts = (endpoint: string, body: unknown) => judged(endpoint, 200, body).map((violation) => `${violation.rule} ${violation.level} ${violation.path}`);
const sample = (schema: string) => samples[schema]![0] as Json;

describe('response-side twins of the caller-side rules', () => {
  it('every length bound a response schema carries is a MUST bound with a SHOULD twin, or a SHOULD rule itself', () => {
    // soa_email's minLength says "required for master", not a length bound of the table
    const unbounded = [...lengthRulesOfResponses()].filter((id) => id !== 'P3.domain.soa-email.required-for-master' && !CALLER_SIDE_RULES.includes(id));
    expect(unbounded.filter((id) => ruleById.get(id)?.level !== 'SHOULD')).toEqual([]);
    for (const id of CALLER_SIDE_RULES) {
      expect(ruleById.get(id)?.level, id).toBe('MUST');
      expect(ruleById.get(returnedTwin(id)!)?.level, `${id}.returned`).toBe('SHOULD');
      expect(ruleById.get(returnedTwin(id)!)?.rule, id).toMatch(/^inferred: /);
    }
  });

  it('a response breaking a length bound is a warning under the twin (recorded responses of the real service)', () => {
    const image = { id: 'private/1', label: 'capture', description: '', status: 'available' };
    expect(judged('GET /v4/images/private%2F1', 200, image)).toEqual([
      expect.objectContaining({ rule: 'P2.image.description.min-1.returned', level: 'SHOULD', path: '/description' }),
    ]);
    const domain = {
      id: 1,
      domain: 'example.org',
      type: 'master',
      status: 'active',
      soa_email: 'admin@example.org',
      description: '',
      group: '',
      tags: [],
      axfr_ips: [],
      master_ips: [],
      expire_sec: 0,
      refresh_sec: 0,
      retry_sec: 0,
      ttl_sec: 0,
    };
    const rules = judged('GET /v4/domains/1', 200, domain).map((violation) => `${violation.rule} ${violation.level}`);
    expect(rules).toEqual(expect.arrayContaining(['P3.domain.description.min-1.returned SHOULD', 'P3.domain.group.min-1.returned SHOULD']));
    expect(rules.filter((rule) => rule.endsWith('MUST'))).toEqual([]);
  });

  it('every character rule of an instance label, a firewall label and a domain name is a MUST rule with a SHOULD twin', () => {
    const nodes: Array<[string, string]> = [
      ['resources/compute-instance', '/properties/label'],
      ['resources/firewall', '/$defs/label'],
      ['resources/domain', '/properties/domain'],
    ];
    const rules = nodes.flatMap(([name, pointer]) => [...characterRulesOf(name, pointer)]);
    expect(rules).toHaveLength(8);
    expect(rules.filter((id) => !CALLER_SIDE_RULES.includes(id))).toEqual([]);
  });

  it('a response breaking a character rule is a warning under the twin (names made before the rules, or by a colleague)', () => {
    const instance = { ...sample('resources/compute-instance'), label: 'my--box' };
    expect(verdicts('GET /v4/compute/instances/1', instance)).toEqual(['P2.instance.label.no-doubled-separators.returned SHOULD /label']);
    expect(verdicts('GET /v4/tags/web', { data: [instance], page: 1, pages: 1, results: 1 })).toEqual([
      'P2.instance.label.no-doubled-separators.returned SHOULD /data/0/label',
    ]);
    expect(verdicts('GET /v4/networking/firewalls/1', { ...sample('resources/firewall'), label: 'my fw' })).toEqual([
      'P3.firewall.label.charset.returned SHOULD /label',
    ]);
    // an underscore is no break (RFC 2181 names hold one); a slash is
    const zones = ['0/25.2.0.192.in-addr.arpa', '_acme-challenge.example.org'].map((domain) => ({ ...sample('resources/domain'), domain }));
    expect(verdicts('GET /v4/domains', { data: zones, page: 1, pages: 1, results: 2 })).toEqual(['P3.domain.domain.rfc-1035.returned SHOULD /data/0/domain']);
    expect(verdicts('GET /v4/account', { ...sample('resources/account'), country: 'US', state: 'California' })).toEqual([
      'P1.account.state.us-ca-code.returned SHOULD /state',
    ]);
  });

  it('a date-time is any combined date and time: to the minute or finer, with or without a zone; never a date alone', () => {
    const account = sample('resources/account');
    const shown = (value: string) => verdicts('GET /v4/account', { ...account, active_since: value });
    for (const value of ['2030-01-31T00:05', '2030-01-31T00:05:09', '2030-01-31T00:05:09.5Z', '2030-01-31 00:05+02:00'])
      expect(shown(value), value).toEqual([]);
    for (const value of ['2030-01-31', '2030-01-31T00', '2030-13-31T00:05', '2030-01-31T24:61', 'soon'])
      expect(shown(value), value).toEqual(['P1.conventions.date-time MUST /active_since']);
  });

  it('other constraints of a response stay MUST', () => {
    const image = { id: 'private/1', label: 'capture', description: 'x', status: 'ready' };
    expect(judged('GET /v4/images/private%2F1', 200, image)).toEqual([expect.objectContaining({ rule: 'P2.image.status.enum', level: 'MUST' })]);
    // the form of a value the member holds (a country code, an address), not a rule on what a caller may choose
    expect(verdicts('GET /v4/account', { ...sample('resources/account'), country: 'usa' })).toEqual(['P1.account.country.iso-3166 MUST /country']);
  });
});

describe('rules re-read against their sentences', () => {
  it('a tag label has no unknown-id rule (an empty tagged objects list, a delete removing it from nothing, are as valid)', () => {
    expect(ruleById.has('P2.tags.unknown-id.get-tags-id')).toBe(false);
    expect(ruleById.has('P2.tags.unknown-id.delete-tags-id')).toBe(false);
    expect(ruleById.has('P3.domains.unknown-id.delete-domains-id')).toBe(true);
  });

  it('what the documents leave open is SHOULD (inferred) or untestable, never a MUST', () => {
    for (const id of ['P1.auth.bearer-only', 'P1.versioning.unversioned-not-served', 'P1.events.emission.instances'])
      expect(ruleById.get(id)?.level, id).toBe('SHOULD');
    expect(ruleById.get('P2.instance-clone.backups-enabled.new-instance-only')?.check).toMatch(/^untestable: /);
  });

  it('a rejection is an error response: any 4xx, or a 5xx with the error body', () => {
    const answer = (status: number, body?: unknown) => ({ status, body }) as Exchange;
    expect(isErrorResponse(answer(400, { errors: [] }))).toBe(true);
    expect(isErrorResponse(answer(409))).toBe(true);
    expect(isErrorResponse(answer(503, { errors: [{ reason: 'try later' }] }))).toBe(true);
    expect(isErrorResponse(answer(500, '<html>'))).toBe(false);
    expect(isErrorResponse(answer(200, { errors: [] }))).toBe(false);
    expect(isErrorResponse(answer(302))).toBe(false);
  });
});
