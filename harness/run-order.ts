// Requests that must come after every other request of the run: the account's cancellation, which a server may answer
// by closing the account (what a cancelled account does is not shown), so it is sent once, by the run's last spec
// file. That file is started last (specs/setup/file-order.ts) and its checks wait until every other spec file of the
// run has ended (the run's reporter marks each end in the run's folder: reports/results-reporter.ts, and the matrix
// workers' own in test/mutation/worker.ts). Where that cannot be made sure (a shard, a file that never ends), they
// skip and say why: a cancellation in the middle of a run could close the account under every check still to come.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forgetAcceptedTransfers } from './accepted-transfers.js';
import { ledgerDir } from './cleanup.js';
import type { SuiteConfig } from './config.js';
import { allSpecFiles, filesHoldingChosenChecks, specFilters } from './plan.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The spec files started after the others: the one sending the account's one cancellation. */
export const LAST_FILES = ['specs/part1/account-cancel.spec.ts'];

/** How long a last file waits for the other files to end: a real target's slowest file (a cluster's provisioning). */
const WAIT_MS = 45 * 60_000;
export const LAST_FILE_TIMEOUT_MS = WAIT_MS + 60_000;

type RunFolder = Pick<SuiteConfig, 'out' | 'runId'>;

/** The spec file of a test path (absolute, perhaps `?target=<key>` in the mutation matrix), from the project root. */
const specFileOf = (testPath: string) => relative(ROOT, testPath.split('?')[0]!).split('\\').join('/');

const endsDir = (config: RunFolder) => join(ledgerDir(config.out, config.runId), 'ended');
const endMarkOf = (config: RunFolder, file: string) => join(endsDir(config), file.replace(/[^a-z0-9]+/gi, '_'));

/** Called before a run's first spec file: an earlier run of the same id (`--run-id`, the matrices' runs) left its marks. */
export function forgetFileEnds(config: RunFolder): void {
  rmSync(endsDir(config), { recursive: true, force: true });
  // (and the transfers it accepted, which a pick leaves out: harness/accepted-transfers.ts)
  forgetAcceptedTransfers(config);
}

/** Called when a spec file has ended, whatever its verdicts (`testPath`: its module id). */
export function markFileEnded(config: RunFolder, testPath: string): void {
  const mark = endMarkOf(config, specFileOf(testPath));
  mkdirSync(join(mark, '..'), { recursive: true });
  writeFileSync(mark, '');
}

/** The spec files a run holds: those the --rules / --areas filter chooses (a narrowed run loads no other), of the asked ones. */
function filesOfRun(config: SuiteConfig): string[] {
  const filters = specFilters();
  const files = config.rules?.length || config.areas?.length ? filesHoldingChosenChecks(config, filters) : allSpecFiles(filters);
  // (a cost table gone stale, naming a file since moved, would have the last file wait for it to the end)
  return files.filter((file) => existsSync(join(ROOT, file)));
}

/**
 * Waits until every other spec file of the run has ended. Returns why a request that must come last cannot be sent
 * now (null: it can).
 */
export async function untilOtherFilesEnded(config: SuiteConfig, deadline: number | null, testPath: string): Promise<string | null> {
  if (config.shard) return 'a shard of a run cannot know when the other shards have sent their last request';
  const own = specFileOf(testPath);
  const until = Math.min(Date.now() + WAIT_MS, deadline ?? Infinity);
  let running = filesOfRun(config).filter((file) => file !== own && !LAST_FILES.includes(file));
  for (;;) {
    running = running.filter((file) => !existsSync(endMarkOf(config, file)));
    if (!running.length) return null;
    if (Date.now() >= until) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return `${running.join(', ')} had not ended when the wait ran out: what must come after every other request was not sent`;
}

/**
 * Items (endpoints, request bodies) in the order their checks are declared in a spec file: those whose request keeps
 * the file's instance busy (a clone from it, `Recipe.keepsBusy`) last, the others in their order.
 */
export function busyLast<T>(items: readonly T[], keepsBusy: (item: T) => boolean | undefined): T[] {
  return [...items.filter((item) => !keepsBusy(item)), ...items.filter((item) => keepsBusy(item))];
}
