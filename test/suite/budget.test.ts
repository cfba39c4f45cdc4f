// The gate of a run on a budget: the suite against a separately started emulator given as a plain base URL, with the
// defaults a new user gets (--max-instances 20 --max-databases 4, destructive off, no extra regions). No fail, no
// error; nearly every rule the embedded run judges is judged; `conformance plan` predicted what the run did; and, read
// through a recording proxy, no request refused for its token went to what the run had deleted (on a budget refusals
// share a fixture: one gone, a server answering 404 before looking at the token would pass them whatever it does).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedEmulator } from '../../harness/embedded.js';
import type { PlanReport } from '../../cli/plan.js';
import { loadCosts } from '../../harness/plan.js';
import type { Results } from '../../reports/results.js';
import { conformance, startRecordingProxy, type RecordedRequest } from '../safety/support.js';

const TOKEN = 'budget-gate-token-01';
/**
 * Share of the embedded run's judged rules a default-budget run must judge (rules needing what the user did not give
 * left out): issue 11's 95 %. Measured: 95.0 % (1,071 of 1,127; 95.2 %, 1,046 of 1,099, before rules were added), with
 * instances lent to one check at a time (firewall devices, entity transfers), tags on one instance, and valid creates
 * and deletes judging their endpoint's `serves` rule. The rules left are judged only by checks that must own an
 * instance or cluster (clone, resize, delete).
 */
const MIN_SHARE = 0.95;

let emulator: EmbeddedEmulator | undefined;
let embeddedPlan: PlanReport;
let plan: PlanReport;
let results: Results;
let exitCode: number | null;
let requests: RecordedRequest[] = [];

beforeAll(async () => {
  emulator = await startEmbedded(TOKEN, []);
  const proxy = await startRecordingProxy(emulator.url);
  const target = ['--base-url', proxy.url, '--token', TOKEN];
  embeddedPlan = JSON.parse((await conformance(['plan', '--json'])).stdout) as PlanReport;
  plan = JSON.parse((await conformance(['plan', '--json', ...target])).stdout) as PlanReport;
  const out = mkdtempSync(join(tmpdir(), 'conformance-budget-'));
  const run = await conformance(['run', ...target, '--out', out, '--seed', '7', '--no-allure', '--progress', 'quiet']);
  proxy.close();
  requests = proxy.requests;
  exitCode = run.code;
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
}, 500_000);

afterAll(() => emulator?.stop());

const judged = (status: string) => status === 'pass' || status === 'fail' || status === 'warning';

describe('a run against a plain base URL with the default budgets', () => {
  it('runs exactly the checks the cost table lists (else the table is stale: run `npm run plan:costs`)', () => {
    const listed = new Set(loadCosts().checks.map((check) => check.key));
    const ran = new Set(results.checkList.map((check) => check.cost?.key).filter((key): key is string => key !== undefined));
    const stale = {
      'checks missing from the table': [...ran].filter((key) => !listed.has(key)),
      'table entries no check has': [...listed].filter((key) => !ran.has(key)),
    };
    expect(stale, 'specs/plan/costs.json is stale: run `npm run plan:costs`').toEqual({
      'checks missing from the table': [],
      'table entries no check has': [],
    });
  });

  it('reports no fail and no error', () => {
    const broken = results.rules
      .filter((rule) => rule.status === 'fail' || rule.status === 'error')
      .map((rule) => `${rule.id}: ${rule.checks.find((check) => check.verdict !== 'pass')?.message ?? ''}`.slice(0, 300));
    expect(broken).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it(`judges at least ${MIN_SHARE * 100} % of the rules the embedded run judges, leaving out those needing what the user did not give`, () => {
    // Left out: rules the plan disables (--allow-destructive) or skips for a capability (a region, a token, the clock).
    const excused = new Set(
      plan.rules.filter((rule) => rule.status === 'disabled' || (rule.status === 'skip' && !rule.reason?.startsWith('the budget'))).map((rule) => rule.id),
    );
    const reference = embeddedPlan.rules.filter((rule) => rule.status === 'judged' && !excused.has(rule.id)).map((rule) => rule.id);
    const got = new Set(results.rules.filter((rule) => judged(rule.status)).map((rule) => rule.id));
    const share = reference.filter((id) => got.has(id)).length / reference.length;
    const missed = reference.filter((id) => !got.has(id));
    expect(share, `${reference.length - missed.length} of ${reference.length} rules judged; not judged: ${missed.join(', ')}`).toBeGreaterThanOrEqual(
      MIN_SHARE,
    );
  });

  it('sends no request refused for its token to a path the run had deleted', () => {
    const deleted = new Set<string>();
    const stale: string[] = [];
    for (const request of requests) {
      const path = decodeURIComponent(request.path.split('?')[0]!);
      const gone = [...deleted].find((deletedPath) => path === deletedPath || path.startsWith(`${deletedPath}/`));
      if ((request.status === 401 || request.status === 403) && gone) stale.push(`${request.method} ${path} → ${request.status}`);
      if (request.method === 'DELETE' && request.status >= 200 && request.status < 300) deleted.add(path);
    }
    expect(requests.length).toBeGreaterThan(1000);
    expect(stale).toEqual([]);
  });

  it('judges the rules `conformance plan` said it would, and creates no more than it said', () => {
    const predicted = plan.rules
      .filter((rule) => rule.status === 'judged')
      .map((rule) => rule.id)
      .sort();
    const actual = results.rules
      .filter((rule) => judged(rule.status))
      .map((rule) => rule.id)
      .sort();
    expect(
      actual.filter((id) => !predicted.includes(id)),
      'judged though the plan said otherwise',
    ).toEqual([]);
    expect(
      predicted.filter((id) => !actual.includes(id)),
      'predicted judged but not judged',
    ).toEqual([]);
    const spent = { instance: 0, database: 0 };
    for (const check of results.checkList)
      for (const own of [check.cost?.own, ...Object.values(check.cost?.fixtures ?? {}).map((fixture) => fixture.own)]) {
        spent.instance += own?.instance ?? 0;
        spent.database += own?.database ?? 0;
      }
    expect(spent.instance).toBeLessThanOrEqual(plan.creates.instance ?? 0);
    expect(spent.database).toBeLessThanOrEqual(plan.creates.database ?? 0);
  });
});
