// Expectations (as web-platform-tests and test262 runners keep them): a JSON file naming the rules a team knows its
// server breaks, each with a reason and optionally an expiry date. A fail the file expects does not fail the run
// (status `expected`); a fail it does not expect does; an expected rule that now passes is listed as unexpectedly
// passing; an expectation past its date excuses nothing any more.
//   { "P3.firewall.rules.max-25": "accepts 26 rules, OPS-123",
//     "P1.account.country.iso-3166": { "reason": "legacy accounts", "expires": "2027-03-31" } }
import { readFileSync } from 'node:fs';
import { ruleById } from '../rules/index.js';
import { tallyRules, type Results, type RuleResult } from './results.js';

export interface Expectation {
  reason: string;
  /** `YYYY-MM-DD`, the last day it excuses a fail. */
  expires?: string;
}

export type Expectations = Record<string, Expectation>;

/** What a run made of its expectations file (results.json `expectations`). */
export interface ExpectationsReport {
  file: string;
  entries: Expectations;
  /** Rules that failed as expected (status `expected`). */
  expected: string[];
  /** Rules expected to fail that passed: the file can lose them. */
  unexpectedlyPassing: string[];
  /** Expectations past their date: their rule's fail counts again. */
  expired: string[];
}

/** The expectations file cannot be used: one line saying why. */
export class ExpectationsError extends Error {}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

function entryOf(id: string, value: unknown, file: string): Expectation {
  const where = `${file}: "${id}"`;
  if (typeof value === 'string') {
    if (!value.trim()) throw new ExpectationsError(`${where} needs a reason (a non-empty string)`);
    return { reason: value };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ExpectationsError(`${where} must be a reason or {"reason", "expires"}`);
  const { reason, expires, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length) throw new ExpectationsError(`${where} has unknown member(s) ${extra.join(', ')} (only "reason" and "expires")`);
  if (typeof reason !== 'string' || !reason.trim()) throw new ExpectationsError(`${where} needs a reason (a non-empty string)`);
  if (expires === undefined) return { reason };
  if (typeof expires !== 'string' || !isCalendarDate(expires))
    throw new ExpectationsError(`${where}: expires must be a date YYYY-MM-DD, got ${JSON.stringify(expires)}`);
  return { reason, expires };
}

/** Checks and returns the expectations in `text` (the content of `file`). */
export function parseExpectations(text: string, file: string): Expectations {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ExpectationsError(`${file} is not valid JSON`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ExpectationsError(`${file} must hold a JSON object: rule id → reason or {"reason", "expires"}`);
  const unknown = Object.keys(parsed).filter((id) => !ruleById.has(id));
  if (unknown.length)
    throw new ExpectationsError(
      `${file}: unknown rule id${unknown.length > 1 ? 's' : ''} ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? `, … (${unknown.length})` : ''} (\`conformance rules\` lists them)`,
    );
  return Object.fromEntries(Object.entries(parsed).map(([id, value]) => [id, entryOf(id, value, file)]));
}

export function readExpectations(file: string): Expectations {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ExpectationsError(`cannot read expectations file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseExpectations(text, file);
}

function isExpired(expectation: Expectation, day: string): boolean {
  return expectation.expires !== undefined && expectation.expires < day;
}

/** The rules whose fails `entries` excuses on `day` (`YYYY-MM-DD`): those of expectations not past their date. */
export function excusedOn(entries: Expectations, day: string): Set<string> {
  return new Set(Object.keys(entries).filter((id) => !isExpired(entries[id]!, day)));
}

/** What the rule's status was before an expectation excused it (a SHOULD rule's divergence is a warning). */
function unexcused(rule: RuleResult): RuleResult['status'] {
  return rule.status === 'expected' ? (rule.level === 'MUST' ? 'fail' : 'warning') : rule.status;
}

/** `results` without the effect of any expectations (before merging, or applying another file). */
export function withoutExpectations(results: Results): Results {
  const rules = results.rules.map(({ expected: _excused, ...rule }) => ({ ...rule, status: unexcused(rule as RuleResult) }));
  const { expectations: _report, ...rest } = results;
  return { ...rest, rules, failures: results.failures.map(({ expected: _flag, ...failure }) => failure), ...tallyRules(rules) };
}

/**
 * `results` judged against `entries`, on the day the run started: an expected fail (or SHOULD warning) gets status
 * `expected`, a pass with an expectation is unexpectedly passing, an expired expectation leaves its fail a fail.
 */
export function applyExpectations(results: Results, entries: Expectations, file: string): Results {
  const day = results.started.slice(0, 10);
  const base = withoutExpectations(results);
  const report: ExpectationsReport = { file, entries, expected: [], unexpectedlyPassing: [], expired: [] };
  const excused = excusedOn(entries, day);
  const rules = base.rules.map((rule) => {
    const expectation = entries[rule.id];
    if (!expectation) return rule;
    if (!excused.has(rule.id)) {
      report.expired.push(rule.id);
      return rule;
    }
    if (rule.status === 'fail' || rule.status === 'warning') {
      report.expected.push(rule.id);
      return { ...rule, status: 'expected' as const, expected: expectation };
    }
    if (rule.status === 'pass') report.unexpectedlyPassing.push(rule.id);
    return rule;
  });
  const expected = new Set(report.expected);
  const failures = base.failures.map((failure) => (expected.has(failure.rule) ? { ...failure, expected: true } : failure));
  return { ...base, rules, failures, ...tallyRules(rules), expectations: report };
}

/** The closing line's words on expectations, or '' without a file. */
export function expectationsLine(report: ExpectationsReport | undefined): string {
  if (!report) return '';
  const ids = (list: string[]) => (list.length ? ` (${list.slice(0, 3).join(', ')}${list.length > 3 ? ', …' : ''})` : '');
  return `; expectations: ${report.expected.length} expected, ${report.unexpectedlyPassing.length} unexpectedly passing${ids(report.unexpectedlyPassing)}, ${report.expired.length} expired${ids(report.expired)}`;
}

/**
 * An expectations file from a run: every MUST rule that failed (expected or not), with the reason the file already
 * gave or else the first message of its failing check; `expires` on each entry when given.
 */
export function expectationsFrom(results: Results, expires?: string): Expectations {
  if (expires !== undefined && !isCalendarDate(expires)) throw new ExpectationsError(`--expires must be a date YYYY-MM-DD, got "${expires}"`);
  const failed = results.rules.filter((rule) => rule.level === 'MUST' && (rule.status === 'fail' || rule.status === 'expected'));
  const reasonOf = (rule: RuleResult): string => {
    const known = results.expectations?.entries[rule.id]?.reason;
    if (known) return known;
    const message = rule.checks.find((check) => check.verdict === 'fail' || check.verdict === 'finding')?.message?.replace(`${rule.id}: `, '') ?? 'failed';
    const short = message.length > 200 ? `${message.slice(0, 200)}…` : message;
    return `${short} (run ${results.run.id}, ${results.started.slice(0, 10)})`;
  };
  return Object.fromEntries(failed.map((rule) => [rule.id, { reason: reasonOf(rule), ...(expires ? { expires } : {}) }]));
}
