// Readings the documents do not force, kept out of the verdicts (issue 12): response-side length bounds are SHOULD
// twins of the request-side MUST bounds, the tagged objects list has no unknown-id rule, a rejection is any error
// response, and the rules re-read against their sentences say so in the ledger.
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../harness/contract.js';
import { isErrorResponse } from '../../harness/check.js';
import type { Exchange } from '../../harness/http.js';
import { findEndpoint, judgeResponse } from '../../harness/responses.js';
import { ruleById } from '../../rules/index.js';
import { RESPONSE_LENGTH_BOUNDS, returnedTwin } from '../../rules/response-bounds.js';
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

const judged = (endpoint: string, status: number, body: unknown) => judgeResponse(findEndpoint(endpoint)!, status, body).violations;

describe('response-side length bounds', () => {
  it('every length bound a response schema carries is a MUST bound with a SHOULD twin, or a SHOULD rule itself', () => {
    // soa_email's minLength says "required for master", not a length bound of the table
    const unbounded = [...lengthRulesOfResponses()].filter((id) => id !== 'P3.domain.soa-email.required-for-master' && !RESPONSE_LENGTH_BOUNDS.includes(id));
    expect(unbounded.filter((id) => ruleById.get(id)?.level !== 'SHOULD')).toEqual([]);
    for (const id of RESPONSE_LENGTH_BOUNDS) {
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

  it('other constraints of a response stay MUST', () => {
    const image = { id: 'private/1', label: 'capture', description: 'x', status: 'ready' };
    expect(judged('GET /v4/images/private%2F1', 200, image)).toEqual([expect.objectContaining({ rule: 'P2.image.status.enum', level: 'MUST' })]);
  });
});

describe('rules re-read against their sentences', () => {
  it('the tagged objects list has no unknown-id rule (an empty list is as valid); the tag delete keeps its own', () => {
    expect(ruleById.has('P2.tags.unknown-id.get-tags-id')).toBe(false);
    expect(ruleById.has('P2.tags.unknown-id.delete-tags-id')).toBe(true);
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
