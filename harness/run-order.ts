// Checks of one spec file that must come before requests of other files: the account's declined-charge check needs
// the remaining balance that any successful cancellation pays. Two workers run spec files side by side, so the files
// holding such checks are started first (specs/setup/first-files.ts) and the requests that would spoil them wait
// until the holding block has ended (a mark in the run's folder), or a while at most: losing the race costs the
// earlier check a `skip`, never a wrong verdict.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerDir } from './cleanup.js';
import type { SuiteConfig } from './config.js';
import { asked, chosenByRuleFilters, specFilters, type Plan } from './plan.js';

export interface EarlierCheck {
  /** The spec file (from the project root), its describe block and the check's rules and title: its plan key. */
  file: string;
  block: string;
  rules: string[];
  title: string;
}

/** Cancellation's declined charge: it needs a remaining balance, which a successful cancellation pays. */
export const DECLINED_CHARGE: EarlierCheck = {
  file: 'specs/part1/account.spec.ts',
  block: 'Account cancellation',
  rules: ['P1.account.cancel.charges-balance', 'P1.errors.reason.cancel-charge-failed'],
  title: 'a declined charge of the remaining balance makes cancellation fail with a reason and no field',
};

/** The spec files started before the others. */
export const FIRST_FILES = [DECLINED_CHARGE.file];

const WAIT_MS = 15_000;

const markOf = (config: Pick<SuiteConfig, 'out' | 'runId'>, earlier: EarlierCheck) =>
  join(ledgerDir(config.out, config.runId), `done-${earlier.file.replace(/[^a-z0-9]+/gi, '_')}-${earlier.block.replace(/[^a-z0-9]+/gi, '_')}`);

/** Called when the block holding `earlier` has ended, whatever its verdicts. */
export function markDone(config: Pick<SuiteConfig, 'out' | 'runId'>, earlier: EarlierCheck): void {
  const mark = markOf(config, earlier);
  mkdirSync(join(mark, '..'), { recursive: true });
  writeFileSync(mark, '');
}

/** Whether `earlier` runs in this run: its file asked for, its rules chosen, the plan (if any) running it. */
function runsHere(config: SuiteConfig, plan: Plan | null, earlier: EarlierCheck): boolean {
  if (config.shard || config.readOnly || !config.allowDestructive) return false;
  if (!asked(earlier.file, specFilters())) return false;
  if (!chosenByRuleFilters(earlier.rules, config)) return false;
  const planned = plan?.checks.get(`${earlier.file} > ${earlier.block} > [${earlier.rules.join(' ')}] ${earlier.title}`);
  return !planned || planned.verdict === 'run';
}

/** Waits until the block holding `earlier` has ended, when it runs in this run (`WAIT_MS` at most). */
export async function after(config: SuiteConfig, plan: Plan | null, earlier: EarlierCheck): Promise<void> {
  if (!runsHere(config, plan, earlier)) return;
  const mark = markOf(config, earlier);
  const until = Date.now() + WAIT_MS;
  while (!existsSync(mark) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
}
