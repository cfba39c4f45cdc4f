// `conformance plan`: what a run with the same flags would do, before it does anything — the resources it would
// create and, per rule, judged / skip / disabled with the reason. It sends only the run's pre-flight reads
// (cli/preflight.ts) and the `GET /__control` probe (the control hooks decide what can be judged). Read it before a run
// against a paid staging account.
import { embeddedDefaults, type SuiteConfig } from '../harness/config.js';
import { HttpClient } from '../harness/http.js';
import { forecastRules, loadCosts, makePlan, type Plan, type RuleForecast } from '../harness/plan.js';
import { ControlHooks } from '../harness/control-hooks.js';
import { ledger } from '../rules/index.js';

export interface PlanReport {
  target: string;
  control: boolean;
  budgets: Plan['budgets'];
  probeReserve: Plan['probeReserve'];
  /** Resources the run would create, by kind (instance, database, domain, image, …). */
  creates: Record<string, number>;
  checks: Record<'run' | 'skip' | 'disabled', number>;
  summary: Record<RuleForecast['status'], number>;
  rules: Array<{ id: string; level: string } & RuleForecast>;
  notes: string[];
}

async function probeControl(config: SuiteConfig): Promise<boolean> {
  if (config.readOnly) return false;
  const http = new HttpClient(config.controlUrl ?? config.baseUrl!, { timeoutMs: Math.min(config.timeoutMs, 5000) });
  try {
    return await ControlHooks.probe(http).catch(() => false);
  } finally {
    await http.close();
  }
}

export async function planReport(given: SuiteConfig): Promise<PlanReport> {
  const embedded = !given.baseUrl;
  const config = embedded ? embeddedDefaults(given) : given;
  const control = embedded ? true : await probeControl(config);
  const table = loadCosts();
  const plan = makePlan(config, control, table);
  const forecast = forecastRules(
    plan,
    ledger.map((rule) => rule.id),
    table,
  );
  const checks = { run: 0, skip: 0, disabled: 0 };
  for (const planned of plan.checks.values()) checks[planned.verdict]++;
  const rules = ledger.map((rule) => ({ id: rule.id, level: rule.level, ...forecast.get(rule.id)! }));
  const summary = { judged: 0, skip: 0, disabled: 0, untested: 0 };
  for (const rule of rules) summary[rule.status]++;
  const notes: string[] = [];
  if (control && !config.readOnly)
    notes.push(
      'the target offers control hooks: the run moves its clock forward (about 94 simulated hours on a full run) and the clock is account-wide, so colleagues sharing the target see it move',
    );
  return {
    target: config.baseUrl ?? 'embedded reference emulator',
    control,
    budgets: plan.budgets,
    probeReserve: plan.probeReserve,
    creates: plan.creates,
    checks,
    summary,
    rules,
    notes,
  };
}

const NAMES: Record<string, string> = { instance: 'instances', database: 'database clusters' };

export function printPlan(report: PlanReport, out: (line: string) => void): void {
  const budget = (kind: 'instance' | 'database') =>
    report.budgets[kind] === null ? 'unlimited' : `${report.budgets[kind]} (${report.probeReserve[kind]} kept for creates the documents say are refused)`;
  out(
    `conformance plan: against ${report.target}; control hooks: ${report.control ? 'yes' : 'no'}; budgets: instances ${budget('instance')}, database clusters ${budget('database')}`,
  );
  const creates = Object.entries(report.creates)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, count]) => `${count} ${NAMES[kind] ?? kind}`);
  out(`creates (each deleted after its spec file): ${creates.join(', ') || 'nothing'}`);
  out(`checks: ${report.checks.run} run, ${report.checks.skip} skip, ${report.checks.disabled} disabled`);
  out(
    `rules: ${report.summary.judged} judged, ${report.summary.skip} skip, ${report.summary.disabled} disabled, ${report.summary.untested} not tested by any check`,
  );
  for (const status of ['skip', 'disabled'] as const) {
    const listed = report.rules.filter((rule) => rule.status === status);
    if (!listed.length) continue;
    out(`${status}:`);
    const byReason = new Map<string, string[]>();
    for (const rule of listed) byReason.set(rule.reason ?? '', [...(byReason.get(rule.reason ?? '') ?? []), rule.id]);
    for (const [reason, ids] of byReason) out(`  ${reason} (${ids.length}): ${ids.join(' ')}`);
  }
  for (const note of report.notes) out(`note: ${note}`);
}
