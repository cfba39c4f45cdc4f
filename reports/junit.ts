// junit.xml for CI systems: one test suite per spec file, one test case per check (rule ids in the name and as
// `rule` properties), a fail as <failure>, an error as <error>, skip and disabled as <skipped>.
import { createRequire } from 'node:module';
import type { Builder } from 'junit-report-builder';
import type { CheckResult, Results, RuleCheck } from './results.js';

// CommonJS whose module.exports is the builder, while its type declarations describe an ES default export.
const junit = createRequire(import.meta.url)('junit-report-builder') as Builder;

/** XML 1.0 cannot carry most control characters, and the library closes CDATA sections on the first `]]>` only. */
function xmlSafe(text: string): string {
  // eslint-disable-next-line no-control-regex -- the allowed XML characters are named by their code points
  return text.replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD').replaceAll(']]>', ']] >');
}

/** `specs/part3/firewalls.spec.ts` → `specs.part3.firewalls` (CI viewers read dots as package separators). */
function className(file: string): string {
  return file.replace(/\.spec\.ts$|\.ts$/, '').replaceAll('/', '.') || 'suite';
}

function failureDetails(entries: Array<{ rule: string; entry: RuleCheck }>): string {
  return entries
    .map(({ rule, entry }) => {
      // Check messages name the rule already (`<rule>: what went wrong`).
      const lines = [`${rule}: ${(entry.message ?? entry.verdict).replace(`${rule}: `, '')}`];
      if (entry.counterexample) lines.push(`counterexample (seed ${entry.seed}, path ${entry.path}): ${entry.counterexample}`);
      if (entry.replay) lines.push(`replay: ${entry.replay}`);
      if (entry.curl) lines.push(`curl: ${entry.curl}`);
      (entry.evidence ?? []).forEach((exchange, index) =>
        lines.push(
          `  ${exchange.method} ${exchange.path} → ${exchange.error ? `no response (${exchange.error})` : `HTTP ${exchange.status}`}${index === entry.failingExchange ? ' ← broke the rule' : ''}`,
        ),
      );
      return lines.join('\n');
    })
    .join('\n\n');
}

export function renderJunit(results: Results): string {
  // The failing entries (with replay and evidence) of each check, from the rule results.
  const failing = new Map<string, Array<{ rule: string; must: boolean; entry: RuleCheck }>>();
  for (const rule of results.rules)
    for (const entry of rule.checks)
      if (entry.replay) {
        const key = entry.verdict === 'finding' ? entry.name.replace(/ — response check on .*$/, '') : entry.name;
        failing.set(key, [...(failing.get(key) ?? []), { rule: rule.id, must: rule.level === 'MUST', entry }]);
      }

  const excused = new Map(results.rules.filter((rule) => rule.status === 'expected').map((rule) => [rule.id, rule.expected?.reason ?? '']));

  const byFile = new Map<string, CheckResult[]>();
  for (const check of results.checkList) byFile.set(check.file, [...(byFile.get(check.file) ?? []), check]);

  const builder = junit.newBuilder().name(xmlSafe(`Cloud Hosting Service API ${results.documentsVersion} conformance: ${results.target}`));
  for (const [file, checks] of byFile) {
    const suite = builder
      .testSuite()
      .name(xmlSafe(file || '(no spec file)'))
      .timestamp(new Date(results.started));
    suite.property('target', xmlSafe(results.target)).property('seed', String(results.run.seed));
    if (results.run.shuffle) suite.property('shuffle', String(results.run.shuffle));
    for (const check of checks) {
      const testCase = suite.testCase().className(className(file)).name(xmlSafe(check.name)).file(file);
      if (check.durationMs !== undefined) testCase.time(check.durationMs / 1000);
      testCase.property('area', check.area).property('verdict', check.verdict);
      for (const rule of check.rules) testCase.property('rule', rule);
      const message = xmlSafe(check.message ?? check.verdict);
      const entries = failing.get(check.name) ?? [];
      const details = xmlSafe(failureDetails(entries));
      // An expected fail (the run's expectations file) is reported as skipped: it does not fail the run.
      if (check.verdict === 'fail' && check.failedRule && excused.has(check.failedRule))
        testCase.skipped().standardOutput(xmlSafe(`expected fail (${excused.get(check.failedRule)}): ${check.message ?? ''}`));
      else if (check.verdict === 'fail') testCase.failure(message, 'fail').stacktrace(details || message);
      else if (check.verdict === 'error') testCase.error(message, 'error', details || message);
      else if (check.verdict === 'skip' || check.verdict === 'disabled') testCase.skipped().standardOutput(message);
      // A passing check may still carry findings of the named response checks (their rules fail).
      else if (entries.some((item) => item.must && !excused.has(item.rule)))
        testCase.failure('a response broke a documented rule', 'finding').stacktrace(details);
    }
  }
  return builder.build();
}
