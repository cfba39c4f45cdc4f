// `conformance sweep`: deletes what a killed run left on a target — the resources in its cleanup ledger and any
// resource whose label carries its run prefix — dependants first. A resource is deleted only when the run made it:
// a ledger entry is applied only on the target the run recorded, and a labelled resource must still carry the
// run's prefix when it is deleted.
import { setTimeout as sleep } from 'node:timers/promises';
import { describeExchange } from '../harness/error-bodies.js';
import { markDeletedIn, pendingOfRunWithFiles, readRunRecord, runIdsIn, type FiledEntry } from '../harness/cleanup.js';
import { resolveConfig, type SuiteConfig } from '../harness/config.js';
import { HttpClient } from '../harness/http.js';
import {
  answersGone,
  deleteConfirmed,
  deletionRunsMs,
  discoverAbsentStatus,
  LABEL_MEMBER,
  discoverImageIdForm,
  resourcePath,
  type ImageIdForm,
} from '../harness/resources.js';
import { registerConfigSecrets, withoutCredentials } from '../harness/redact.js';
import { integer } from '../harness/setting-values.js';
import { UsageError } from './usage-error.js';
import { SWEEP_DEFAULT_BUDGET_MS, SWEEP_MAX_PAGES } from './sweep-limits.js';

type Json = Record<string, unknown>;

/**
 * Collections whose items carry a label the suite gives them, each with the member holding it (`LABEL_MEMBER`).
 * Tags have no list: they are found in the `tags` of these items (and in the ledger).
 */
const LABELLED = (
  [
    ['instance', '/v4/compute/instances'],
    ['database', '/v4/databases/mysql/instances'],
    ['domain', '/v4/domains'],
    ['firewall', '/v4/networking/firewalls'],
    ['monitor-client', '/v4/monitor/clients'],
    ['image', '/v4/images'],
    ['oauth-client', '/v4/account/oauth-clients'],
  ] as const
).map(([kind, list]) => ({ kind, list, member: LABEL_MEMBER[kind]! }));

/**
 * Deletion order, dependants first: a pending transfer holds its instances, a range is routed to an instance,
 * children go before their parents. Kinds not listed (children recorded by specs) go before the parents.
 */
const FIRST = ['entity-transfer', 'ipv6-range', 'firewall-device', 'record', 'config'];
const LAST = ['image', 'instance', 'database', 'domain', 'firewall', 'monitor-client', 'oauth-client', 'tag'];

function rank(kind: string): number {
  if (FIRST.includes(kind)) return FIRST.indexOf(kind);
  if (LAST.includes(kind)) return FIRST.length + 1 + LAST.indexOf(kind);
  return FIRST.length;
}

interface Candidate {
  kind: string;
  deletePath: string;
  label?: string;
  /** The ledger file that recorded it (marked deleted there), if it came from a ledger. */
  file?: string;
  /** Ledger order (newest first) within a kind. */
  order: number;
  /** Why the ledger holds no usable path (an id carrying a token): reported, never attempted. */
  untracked?: string;
}

export interface SweepOptions {
  http: HttpClient;
  token: string;
  baseUrl: string;
  out: string;
  runIds: string[];
  /** Wall-clock time (ms since the epoch) after which no request is started (null: none). */
  deadline?: number | null;
  /** Pages read of each list at most (default SWEEP_MAX_PAGES). */
  maxPages?: number;
  /** How long a deleted resource may still be readable (the consistency window, ms). */
  windowMs?: number;
  /** How the target takes an image id in a path (found by `discoverImageIdForm`; encoded when absent). */
  imageIdForm?: ImageIdForm;
  /** What the target answers for an id never made (found by `discoverAbsentStatus`): a view answering it is gone. */
  absentStatus?: number;
  /**
   * Until when (ms since the epoch) what could not be deleted yet (a DELETE refused or not yet confirmed: a cluster
   * still provisioning) is tried again, at growing pauses; absent or null: tried once.
   */
  waitUntil?: number | null;
  print: (line: string) => void;
}

/** The first pause before trying again what could not be deleted yet, doubled each time up to the last. */
const RETRY_PAUSES_MS = { first: 1000, most: 60_000 };

export interface SweepOutcome {
  deleted: number;
  alreadyGone: number;
  /** What could not be deleted (or was not attempted before the deadline), one line each. */
  remaining: string[];
  /** Lists not read to their end (page cap, deadline): run resources listed there were not looked for. */
  unread: string[];
}

/** A target error that stops the sweep (unreachable, a token refused): usage-level, exit 2. */
export class SweepError extends Error {}

const success = (status: number) => status >= 200 && status < 300;

export async function sweep(options: SweepOptions): Promise<SweepOutcome> {
  const prefixes = options.runIds.map((runId) => `${runId}-`);
  const carriesPrefix = (label: unknown) => typeof label === 'string' && prefixes.some((prefix) => label.startsWith(prefix));
  const outOfTime = () => options.deadline != null && Date.now() >= options.deadline;
  const outcome: SweepOutcome = { deleted: 0, alreadyGone: 0, remaining: [], unread: [] };
  const candidates = new Map<string, Candidate>();
  for (const runId of options.runIds) for (const entry of ledgerCandidates(options, runId)) candidates.set(entry.deletePath, entry);
  for (const candidate of await labelledCandidates(options, carriesPrefix, outOfTime, outcome))
    if (!candidates.has(candidate.deletePath)) candidates.set(candidate.deletePath, candidate);

  let pending = [...candidates.values()].sort((a, b) => rank(a.kind) - rank(b.kind) || a.order - b.order);
  for (let pause = RETRY_PAUSES_MS.first; ; pause = Math.min(2 * pause, RETRY_PAUSES_MS.most)) {
    const notYet = await deleteEach(options, pending, carriesPrefix, outOfTime, outcome);
    // (the last pause cut to the time left)
    const wait = options.waitUntil == null ? 0 : Math.min(pause, options.waitUntil - Date.now());
    if (!notYet.length || wait <= 0 || outOfTime()) {
      for (const { what, why } of notYet) {
        outcome.remaining.push(`${what}: ${why}`);
        options.print(`not deleted ${what}: ${why}`);
      }
      return outcome;
    }
    options.print(
      `not deleted yet: ${notYet.length} (${notYet[0]!.what}: ${notYet[0]!.why}${notYet.length > 1 ? ', …' : ''}); trying again in ${(wait / 1000).toFixed(wait < 1000 ? 1 : 0)} s, until ${new Date(options.waitUntil!).toISOString()}`,
    );
    await sleep(wait);
    pending = notYet.map(({ candidate }) => candidate);
  }
}

/** A candidate not deleted yet, which a later try may delete, with why. */
type NotYet = { candidate: Candidate; what: string; why: string };

/**
 * Deletes each candidate in order, counting and printing what it deleted and what can never be deleted (not the run's
 * any more, untracked); returns what could not be deleted yet, which a later try may delete.
 */
async function deleteEach(
  options: SweepOptions,
  candidates: Candidate[],
  carriesPrefix: (label: unknown) => boolean,
  outOfTime: () => boolean,
  outcome: SweepOutcome,
): Promise<NotYet[]> {
  const notYet: NotYet[] = [];
  for (const candidate of candidates) {
    const what = `${candidate.kind} ${candidate.deletePath}${candidate.label ? ` (${candidate.label})` : ''}`;
    if (candidate.untracked) {
      outcome.remaining.push(`${what}: ${candidate.untracked}`);
      options.print(`not deleted ${what}: ${candidate.untracked}`);
      continue;
    }
    if (outOfTime()) {
      outcome.remaining.push(`${what}: not attempted (out of time)`);
      continue;
    }
    const windowMs = Math.min(options.windowMs ?? 0, options.deadline != null ? options.deadline - Date.now() : Infinity);
    const result = await deleteOne(options, candidate, carriesPrefix, Math.max(0, windowMs));
    if (result === 'deleted' || result === 'gone') {
      if (candidate.file) markDeletedIn(candidate.file, candidate.deletePath);
      if (result === 'deleted') {
        outcome.deleted++;
        options.print(`deleted ${what}`);
      } else outcome.alreadyGone++;
    } else if (typeof result === 'string') notYet.push({ candidate, what, why: result });
    else {
      outcome.remaining.push(`${what}: ${result.never}`);
      options.print(`not deleted ${what}: ${result.never}`);
    }
  }
  return notYet;
}

/** The pending ledger entries of a run, when the run recorded this target. */
function ledgerCandidates(options: SweepOptions, runId: string): Candidate[] {
  const entries = pendingOfRunWithFiles(options.out, runId);
  if (!entries.length) return [];
  const record = readRunRecord(options.out, runId);
  // run.json holds the base URL without credentials.
  if (!record?.target || withoutCredentials(record.target) !== withoutCredentials(options.baseUrl)) {
    const where = record ? (record.target ? withoutCredentials(record.target) : 'the embedded emulator') : 'an unrecorded target';
    options.print(
      `run ${runId} ran against ${where}: its ledger (${entries.length} entries) is not applied to ${withoutCredentials(options.baseUrl)}; its labelled resources are still looked for`,
    );
    return [];
  }
  return entries.map((entry: FiledEntry, order) => ({
    kind: entry.kind,
    deletePath: entry.deletePath,
    ...(entry.label ? { label: entry.label } : {}),
    file: entry.file,
    order,
    ...(entry.untracked ? { untracked: entry.untracked } : {}),
  }));
}

/**
 * Every item of the labelled collections whose label carries a run prefix, and every such tag on any item; each list
 * read up to the page cap and the deadline (what was not read goes to `outcome.unread`).
 */
async function labelledCandidates(
  options: SweepOptions,
  carriesPrefix: (label: unknown) => boolean,
  outOfTime: () => boolean,
  outcome: SweepOutcome,
): Promise<Candidate[]> {
  const found: Candidate[] = [];
  const tags = new Set<string>();
  const maxPages = options.maxPages ?? SWEEP_MAX_PAGES;
  for (const collection of LABELLED)
    for (let page = 1; ; page++) {
      const unreadForTime = `${collection.list}: not read from page ${page} on (out of time): resources of the run listed there were not looked for`;
      if (outOfTime()) {
        outcome.unread.push(unreadForTime);
        break;
      }
      if (page > maxPages) {
        outcome.unread.push(`${collection.list}: not read past page ${maxPages} (it claims more): resources of the run listed further were not looked for`);
        break;
      }
      const exchange = await options.http.send({ method: 'GET', path: collection.list, query: { page, page_size: 100 }, token: options.token });
      // The deadline may pass while the request waits for its slot under the rate cap: it is then not sent.
      if (exchange.status === 0 && outOfTime()) {
        outcome.unread.push(unreadForTime);
        break;
      }
      if (!success(exchange.status)) throw new SweepError(`GET ${collection.list} answered ${describeExchange(exchange)}`);
      const body = (exchange.body ?? {}) as { data?: Json[]; pages?: number };
      for (const item of body.data ?? []) {
        if (carriesPrefix(item[collection.member]) && (typeof item.id === 'string' || typeof item.id === 'number'))
          found.push({
            kind: collection.kind,
            deletePath: resourcePath(collection.kind, item.id, undefined, options.imageIdForm),
            label: String(item[collection.member]),
            order: 0,
          });
        if (Array.isArray(item.tags)) for (const tag of item.tags) if (carriesPrefix(tag)) tags.add(tag as string);
      }
      if (!Array.isArray(body.data) || !body.data.length || page >= (body.pages ?? 1)) break;
    }
  for (const tag of tags) found.push({ kind: 'tag', deletePath: resourcePath('tag', tag), label: tag, order: 0 });
  return found;
}

/**
 * Deletes one resource after confirming it is still the run's: 'deleted', 'gone', why it was not deleted yet (a later
 * try may), or why it never will be (`never`: not the run's).
 */
async function deleteOne(
  options: SweepOptions,
  candidate: Candidate,
  carriesPrefix: (label: unknown) => boolean,
  windowMs: number,
): Promise<string | { never: string }> {
  const collection = LABELLED.find((labelled) => labelled.kind === candidate.kind);
  if (candidate.kind === 'tag') {
    const label = decodeURIComponent(candidate.deletePath.split('/').pop()!);
    if (!carriesPrefix(label)) return { never: `the tag "${label}" does not carry the run prefix` };
  }
  if (collection) {
    const view = await options.http.send({ method: 'GET', path: candidate.deletePath, token: options.token });
    if (answersGone(view, options.absentStatus)) return 'gone';
    const label = (view.body as Json | undefined)?.[collection.member];
    // The id may since have been given to something else: only a resource still carrying the prefix is deleted.
    if (success(view.status) && !carriesPrefix(label)) return { never: `it now carries the label "${String(label)}", not one the run gave it` };
  }
  const { kind, deletePath: path } = candidate;
  return deleteConfirmed({
    http: options.http,
    token: options.token,
    kind,
    path,
    windowMs,
    runsMs: deletionRunsMs(kind),
    ...(options.absentStatus !== undefined ? { absentStatus: options.absentStatus } : {}),
    label: candidate.label,
  });
}

export interface SweepCommandOptions {
  runId?: string;
  allRuns?: boolean;
  baseUrl?: string;
  token?: string;
  out?: string;
  config?: string;
  timeout?: string;
  maxRps?: string;
  runBudget?: string;
  wait?: string;
}

/** The longest `--wait`: a day. */
const MOST_WAIT_MS = 86_400_000;

/** The command: resolves the target like `run` does (flags, CONFORMANCE_*, config file), sweeps, returns the exit code. */
export async function sweepCommand(options: SweepCommandOptions, print: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (Boolean(options.runId) === Boolean(options.allRuns)) throw new UsageError('sweep needs either --run-id ID or --all-runs');
  const config = resolveConfig({
    file: options.config,
    env,
    flags: {
      baseUrl: options.baseUrl,
      token: options.token,
      out: options.out,
      timeoutMs: options.timeout,
      runId: options.runId,
      maxRps: options.maxRps,
      runBudgetMs: options.runBudget,
    },
  });
  if (!config.baseUrl || !config.token)
    throw new UsageError('sweep needs the target: --base-url and --token (the embedded emulator is discarded at the end of each run)');
  registerConfigSecrets(config);
  const runIds = options.allRuns ? runIdsIn(config.out) : [config.runId];
  if (!runIds.length) {
    print(`sweep: no runs under ${config.out}/runs: nothing to do`);
    return 0;
  }
  const waitMs = options.wait === undefined ? 0 : integer('the wait (ms)', 0, MOST_WAIT_MS)(options.wait, '--wait');
  try {
    return (await sweepTarget({ ...config, baseUrl: config.baseUrl, token: config.token }, runIds, waitMs, print)) ? 1 : 0;
  } catch (error) {
    if (error instanceof SweepError) throw new UsageError(`sweep stopped: ${error.message}`);
    throw error;
  }
}

/**
 * Sweeps `runIds` on the configured target (the command's work, and the end of a run given `--wait-for-leftovers`),
 * waiting up to `waitMs` for what cannot be deleted yet; prints each step and the closing count. Returns how many
 * resources could not be deleted and lists were not read to their end; throws a `SweepError` when the target stops it.
 */
export async function sweepTarget(
  config: { baseUrl: string; token: string } & Pick<SuiteConfig, 'out' | 'timeoutMs' | 'maxRps' | 'runBudgetMs' | 'headers' | 'consistencyWindowMs'>,
  runIds: string[],
  waitMs: number,
  print: (line: string) => void,
): Promise<number> {
  // The budget bounds the sweep's own work; a wait adds the time it waits for what could not be deleted yet.
  const deadline = Date.now() + (config.runBudgetMs ?? SWEEP_DEFAULT_BUDGET_MS) + waitMs;
  const waitUntil = waitMs ? Date.now() + waitMs : null;
  const http = new HttpClient(config.baseUrl, { timeoutMs: config.timeoutMs, maxRps: config.maxRps, deadline, headers: config.headers });
  try {
    const absentStatus = await discoverAbsentStatus(http, config.token);
    const outcome = await sweep({
      http,
      token: config.token,
      baseUrl: config.baseUrl,
      out: config.out,
      runIds,
      deadline,
      waitUntil,
      windowMs: config.consistencyWindowMs,
      imageIdForm: await discoverImageIdForm(http, config.token),
      ...(absentStatus !== undefined ? { absentStatus } : {}),
      print,
    });
    for (const line of outcome.unread) print(`not read: ${line}`);
    const unread = outcome.unread.length ? `, ${outcome.unread.length} lists not read to the end` : '';
    print(
      `sweep: ${outcome.deleted} deleted, ${outcome.alreadyGone} already gone, ${outcome.remaining.length} could not be deleted${unread} (run${runIds.length > 1 ? 's' : ''} ${runIds.length > 3 ? `${runIds.slice(0, 3).join(', ')} and ${runIds.length - 3} more` : runIds.join(', ')})`,
    );
    return outcome.remaining.length + outcome.unread.length;
  } finally {
    await http.close();
  }
}
