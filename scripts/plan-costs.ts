// `npm run plan:costs`: writes the request schemas' type violations (specs/plan/type-violations.json: the checks of
// specs/properties/ are named after them), then records (twice) the cost table of the run's plan (specs/plan/costs.json) — what every check created
// and needed on the reference emulator, on a budget (one fast-check run per property, clusters made one at a time)
// with every capability given. Run it after adding or changing checks; the base-URL gate (test/suite/) fails when
// the table no longer predicts what a run does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COSTS_FILE, type CheckCost, type CostTable } from '../harness/plan.js';
import type { Results } from '../reports/results.js';
import { TYPE_VIOLATIONS_FILE, workOutTypeViolationTable } from '../specs/properties/type-violations.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** One recording run (a budget run, one fast-check run per property, every capability given): its results. */
function record(out: string): Results {
  const args = [
    '--import',
    'tsx',
    'cli/main.ts',
    'run',
    '--max-instances',
    '999999',
    '--max-databases',
    '999999',
    '--runs',
    '1',
    '--violation-runs',
    '1',
    '--seed',
    '1',
    '--no-allure',
    '--progress',
    'quiet',
    '--out',
    out,
  ];
  let failed = false;
  try {
    execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, CONFORMANCE_RECORD_COSTS: '1' } });
  } catch {
    failed = true;
  }
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
  // A table recorded from a run that did not pass would predict the wrong thing: say which checks, keep the old one.
  if (failed) {
    const broken = results.checkList.filter((check) => check.verdict === 'fail' || check.verdict === 'error');
    process.stderr.write(
      `plan:costs: the recording run did not pass (its results: ${out}), ${COSTS_FILE} is left as it was:\n${broken.map((check) => `  ${check.verdict} ${check.file} ${check.name}: ${check.message ?? ''}`.slice(0, 400)).join('\n')}\n`,
    );
    process.exit(1);
  }
  return results;
}

writeFileSync(TYPE_VIOLATIONS_FILE, `${JSON.stringify(await workOutTypeViolationTable(), null, 1)}\n`);

const out = mkdtempSync(join(tmpdir(), 'plan-costs-'));
try {
  // A recorded skip makes a budget run skip the check when it creates something (a check creating nothing runs and
  // finds out on the target, harness/plan.ts): it is kept only when a second recording skips it too, so that a skip
  // of the moment (a list another spec file changed while it was walked) never hides a check for good.
  const results = record(join(out, 'first'));
  const skippedAgain = new Set(
    record(join(out, 'second'))
      .checkList.filter((check) => check.verdict === 'skip')
      .map((check) => check.cost?.key),
  );
  const table: CostTable = { checks: [], fixtures: {} };
  const fixtureBorrows: Record<string, string[]> = {};
  const fixtureUses: Record<string, string[]> = {};
  for (const check of results.checkList) {
    const cost = check.cost;
    if (!cost) continue;
    for (const [key, fixture] of Object.entries(cost.fixtures)) {
      const into = (table.fixtures[key] ??= { own: {}, made: {} });
      for (const [kind, count] of Object.entries(fixture.own)) into.own[kind as keyof typeof into.own] = (into.own[kind as keyof typeof into.own] ?? 0) + count;
      for (const [kind, count] of Object.entries(fixture.made)) into.made[kind] = (into.made[kind] ?? 0) + count;
      fixtureBorrows[key] = [...new Set([...(fixtureBorrows[key] ?? []), ...fixture.borrows.filter((borrowed) => borrowed !== key)])];
      fixtureUses[key] = [...new Set([...(fixtureUses[key] ?? []), ...fixture.uses])];
    }
    table.checks.push({
      key: cost.key,
      rules: check.rules,
      exercised: cost.exercised.filter((rule) => !check.rules.includes(rule)),
      own: cost.own,
      ...(cost.perRun ? { perRun: true } : {}),
      borrows: cost.borrows,
      uses: cost.uses,
      made: cost.made,
      ...(check.verdict === 'skip' && skippedAgain.has(cost.key) ? { skipped: check.message ?? 'skipped on the reference emulator' } : {}),
    });
  }
  // A check needs what the fixtures it borrows are made from, and what making them needs.
  const closure = (keys: string[]): string[] => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      for (const next of fixtureBorrows[key] ?? []) visit(next);
    };
    keys.forEach(visit);
    return [...seen].sort();
  };
  table.checks = table.checks.map((check: CheckCost) => {
    const borrows = closure(check.borrows);
    const uses = [...new Set([...check.uses, ...borrows.flatMap((key) => fixtureUses[key] ?? [])])].sort();
    return { ...check, borrows, uses };
  });
  table.checks.sort((a, b) => a.key.localeCompare(b.key));
  // One check or fixture a line: a change to the suite shows as a readable diff.
  const lines = (entries: string[]) => entries.map((entry) => `  ${entry}`).join(',\n');
  const fixtures = Object.keys(table.fixtures)
    .sort()
    .map((key) => `${JSON.stringify(key)}: ${JSON.stringify(table.fixtures[key])}`);
  writeFileSync(COSTS_FILE, `{\n "checks": [\n${lines(table.checks.map((check) => JSON.stringify(check)))}\n ],\n "fixtures": {\n${lines(fixtures)}\n }\n}\n`);
  process.stdout.write(`plan:costs: ${table.checks.length} checks, ${Object.keys(table.fixtures).length} shared fixtures → ${COSTS_FILE}\n`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
