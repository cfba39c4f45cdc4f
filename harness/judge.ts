// Named checks run on every response the suite receives (schemathesis-style): JSON where JSON is promised,
// success bodies against the endpoint's documented shape, rejections against the error body, no server errors.
import type { Exchange } from './http.js';
import { findEndpoint, judgeResponse, responseSchemaFor } from './responses.js';
import { rulesOfSchema, validateValue } from './contract.js';
import { ruleById } from '../rules/index.js';
import { endpointKey } from '../rules/endpoints.js';
import { endpointRuleId } from '../rules/endpoint-rules.js';
import { returnedTwin } from '../rules/response-bounds.js';

export interface Finding {
  rule: string;
  level: 'MUST' | 'SHOULD';
  /** JSON pointer into the response body, or `/` for the response as a whole. */
  path: string;
  message: string;
  /** `METHOD /path` of the exchange it was found in. */
  request: string;
}

const levelOf = (rule: string): 'MUST' | 'SHOULD' => ruleById.get(rule)?.level ?? 'MUST';

/** Findings on one exchange, and the rules its response was judged against (checked, whether or not they held). */
export function judgeExchange(exchange: Exchange): { findings: Finding[]; exercised: string[] } {
  const findings = findingsOf(exchange);
  const schema = exchange.status && !exchange.error && !exchange.truncated ? schemaOf(exchange) : null;
  // A response exercises a caller-side rule's response-side twin, not the rule itself (judged on requests).
  const exercised = schema ? rulesOfSchema(schema).map((rule) => returnedTwin(rule) ?? rule) : [];
  return { findings, exercised: exchange.body !== undefined ? [...exercised, 'P1.conventions.json-bodies'] : exercised };
}

/**
 * The first finding that breaks one of `rules` at MUST level: a check tagged with the rules a response is judged
 * against fails on it, so the report names the check that saw the broken response.
 */
export function brokenRule(findings: readonly Finding[], rules: readonly string[]): Finding | undefined {
  return findings.find((finding) => finding.level === 'MUST' && rules.includes(finding.rule));
}

function schemaOf(exchange: Exchange): string | null {
  if (exchange.body === undefined || exchange.notJson) return null;
  const endpoint = findEndpoint(`${exchange.method} ${exchange.path}`);
  if (endpoint) return responseSchemaFor(endpoint, exchange.status)?.ref ?? null;
  return exchange.status >= 400 ? 'common/error-body' : null;
}

/** A path of the API (under a version segment): what answers anywhere else is not described by the documents. */
const API_PATH = /^\/(v4|v4beta)(\/|\?|$)/;

function findingsOf(exchange: Exchange): Finding[] {
  if (exchange.error || exchange.status === 0 || !API_PATH.test(exchange.path)) return [];
  const request = `${exchange.method} ${exchange.path}`;
  const findings: Finding[] = [];
  const at = (rule: string, message: string, path = '/'): Finding => ({ rule, level: levelOf(rule), path, message, request });
  if (exchange.status >= 500) findings.push(at('P1.errors.no-server-error', `the server answered ${exchange.status}`));
  const hasBody = exchange.body !== undefined;
  if (hasBody && (exchange.notJson || !/^application\/(.+\+)?json$/.test(exchange.contentType))) {
    findings.push(
      at(
        'P1.conventions.json-bodies',
        exchange.notJson
          ? `the body is not JSON (Content-Type "${exchange.contentType}")`
          : `the JSON body is labelled "${exchange.contentType || 'no Content-Type'}"`,
      ),
    );
    return findings;
  }
  if (exchange.truncated) return findings;
  const endpoint = findEndpoint(`${exchange.method} ${exchange.path}`);
  if (endpoint) {
    const verdict = judgeResponse(endpoint, exchange.status, exchange.body);
    for (const violation of verdict.violations)
      findings.push({
        rule: violation.rule,
        level: violation.level,
        path: violation.path,
        message: `${violation.message} (${endpointKey(endpoint)} → ${verdict.judgedAgainst})`,
        request,
      });
  } else if (exchange.status >= 400) {
    for (const violation of validateValue('common/error-body', exchange.body)) findings.push(at(violation.rule, violation.message, violation.path));
  }
  return findings;
}

/**
 * The `serves` rule of the documented endpoint an exchange went to, when the answer says the endpoint is not served
 * (404 or 405 to a request the documents describe as valid). Such an answer is evidence about that rule only: a check
 * that would judge another rule on the answer (a list envelope, paging, a state read back) has nothing to judge.
 */
export function unservedRule(exchange: Exchange): string | undefined {
  if (exchange.status !== 404 && exchange.status !== 405) return undefined;
  const endpoint = findEndpoint(`${exchange.method} ${exchange.path}`);
  return endpoint ? endpointRuleId(endpoint, 'serves') : undefined;
}
