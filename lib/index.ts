// The contract as a library (`import { validate, ledger } from 'chs-conformance'`): the rule ledger, the endpoint
// catalogue, the JSON Schemas and the judgement `conformance validate` makes, built to JavaScript with types.
import { JudgeInputError, judgeExchange, type JudgedViolation, type ResponseVerdict } from '../harness/responses.js';
import { loadContract, validateValue, type Violation } from '../harness/contract.js';

export { DOCUMENTS_VERSION, ledger, ruleById, type Rule, type Need } from '../rules/index.js';
export {
  endpoints,
  endpointByKey,
  endpointKey,
  type Endpoint,
  type ResponseSpec,
  type Method,
  type AuthKind,
  type ParamKind,
  type Flag,
} from '../rules/endpoints.js';
export { findEndpoint, JudgeInputError } from '../harness/responses.js';
export { SCHEMA_BASE, SCHEMAS_DIR } from '../harness/contract.js';
export type { JudgedViolation, ResponseVerdict, Violation };

export interface Verdict extends ResponseVerdict {
  /** False when a MUST rule is broken; SHOULD violations (inferred rules or shapes) are warnings and keep it true. */
  valid: boolean;
}

/**
 * Judges a response of `endpoint` (`"GET /v4/domains/{domainId}"` or a concrete `"GET /v4/domains/12"`) with
 * `status` and the parsed JSON `body` against the documents. Throws JudgeInputError for an endpoint the catalogue
 * lacks or a status that is no HTTP status code.
 */
export function validate(endpoint: string, status: number, body: unknown): Verdict {
  const verdict = judgeExchange(endpoint, status, body);
  return { ...verdict, valid: !verdict.violations.some((violation) => violation.level === 'MUST') };
}

/** Validates a value against one schema by name (`requests/domain-create`, `resources/domain`): the rules it breaks. */
export function validateSchema(name: string, value: unknown): Violation[] {
  if (!loadContract().names.includes(name)) throw new JudgeInputError(`unknown schema "${name}" (one of schemaNames(), e.g. "requests/domain-create")`);
  return validateValue(name, value);
}

/** The names of every schema (`common/…`, `requests/…`, `resources/…`); each is also exported as `chs-conformance/schemas/<name>.json`. */
export function schemaNames(): string[] {
  return [...loadContract().names];
}
