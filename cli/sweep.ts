// `conformance sweep`: deletes what a killed run left on a target — the resources in its cleanup ledger and any
// resource whose label carries its run prefix — dependants first. A resource is deleted only when the run made it:
// a ledger entry is applied only on the target the run recorded, and a labelled resource must still carry the
// run's prefix when it is deleted.
import { describe as describeExchange } from '../harness/check.js';
import { markDeletedIn, pendingOfRunWithFiles, readRunRecord, runIdsIn, type FiledEntry } from '../harness/cleanup.js';
import { resolveConfig } from '../harness/config.js';
import { HttpClient } from '../harness/http.js';
import { registerConfigSecrets, withoutCredentials } from '../harness/redact.js';
import { UsageError } from './validate.js';

type Json = Record<string, unknown>;

/**
 * Collections whose items carry a label the suite gives them, each with the member holding it and its delete path.
 * Tags have no list: they are found in the `tags` of these items (and in the ledger).
 */
const LABELLED: ReadonlyArray<{ kind: string; list: string; member: string; deletePath: (item: Json) => string }> = [
  { kind: 'instance', list: '/v4/compute/instances', member: 'label', deletePath: (item) => `/v4/compute/instances/${String(item.id)}` },
  { kind: 'database', list: '/v4/databases/mysql/instances', member: 'label', deletePath: (item) => `/v4/databases/mysql/instances/${String(item.id)}` },
  { kind: 'domain', list: '/v4/domains', member: 'domain', deletePath: (item) => `/v4/domains/${String(item.id)}` },
  { kind: 'firewall', list: '/v4/networking/firewalls', member: 'label', deletePath: (item) => `/v4/networking/firewalls/${String(item.id)}` },
  { kind: 'monitor-client', list: '/v4/monitor/clients', member: 'label', deletePath: (item) => `/v4/monitor/clients/${String(item.id)}` },
  { kind: 'image', list: '/v4/images', member: 'label', deletePath: (item) => `/v4/images/${encodeURIComponent(String(item.id))}` },
  { kind: 'oauth-client', list: '/v4/account/oauth-clients', member: 'label', deletePath: (item) => `/v4/account/oauth-clients/${encodeURIComponent(String(item.id))}` },
];

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
  /** Wall-clock time (ms since the epoch) after which nothing more is attempted (null: none). */
  deadline?: number | null;
  print: (line: string) => void;
}

export interface SweepOutcome {
  deleted: number;
  alreadyGone: number;
  /** What could not be deleted (or was not attempted before the deadline), one line each. */
  remaining: string[];
}

/** A target error that stops the sweep (unreachable, a token refused): usage-level, exit 2. */
export class SweepError extends Error {}

const success = (status: number) => status >= 200 && status < 300;

export async function sweep(options: SweepOptions): Promise<SweepOutcome> {
  const prefixes = options.runIds.map((runId) => `${runId}-`);
  const carriesPrefix = (label: unknown) => typeof label === 'string' && prefixes.some((prefix) => label.startsWith(prefix));
  const candidates = new Map<string, Candidate>();
  for (const runId of options.runIds) for (const entry of ledgerCandidates(options, runId)) candidates.set(entry.deletePath, entry);
  for (const candidate of await labelledCandidates(options, carriesPrefix)) if (!candidates.has(candidate.deletePath)) candidates.set(candidate.deletePath, candidate);

  const ordered = [...candidates.values()].sort((a, b) => rank(a.kind) - rank(b.kind) || a.order - b.order);
  const outcome: SweepOutcome = { deleted: 0, alreadyGone: 0, remaining: [] };
  for (const candidate of ordered) {
    const what = `${candidate.kind} ${candidate.deletePath}${candidate.label ? ` (${candidate.label})` : ''}`;
    if (candidate.untracked) {
      outcome.remaining.push(`${what}: ${candidate.untracked}`);
      options.print(`not deleted ${what}: ${candidate.untracked}`);
      continue;
    }
    if (options.deadline && Date.now() >= options.deadline) {
      outcome.remaining.push(`${what}: not attempted (out of time)`);
      continue;
    }
    const result = await deleteOne(options, candidate, carriesPrefix);
    if (result === 'deleted' || result === 'gone') {
      if (candidate.file) markDeletedIn(candidate.file, candidate.deletePath);
      if (result === 'deleted') {
        outcome.deleted++;
        options.print(`deleted ${what}`);
      } else outcome.alreadyGone++;
    } else {
      outcome.remaining.push(`${what}: ${result}`);
      options.print(`not deleted ${what}: ${result}`);
    }
  }
  return outcome;
}

/** The pending ledger entries of a run, when the run recorded this target. */
function ledgerCandidates(options: SweepOptions, runId: string): Candidate[] {
  const entries = pendingOfRunWithFiles(options.out, runId);
  if (!entries.length) return [];
  const record = readRunRecord(options.out, runId);
  // run.json holds the base URL without credentials.
  if (!record?.target || withoutCredentials(record.target) !== withoutCredentials(options.baseUrl)) {
    const where = record ? (record.target ? withoutCredentials(record.target) : 'the embedded emulator') : 'an unrecorded target';
    options.print(`run ${runId} ran against ${where}: its ledger (${entries.length} entries) is not applied to ${withoutCredentials(options.baseUrl)}; its labelled resources are still looked for`);
    return [];
  }
  return entries.map((entry: FiledEntry, order) => ({ kind: entry.kind, deletePath: entry.deletePath, ...(entry.label ? { label: entry.label } : {}), file: entry.file, order, ...(entry.untracked ? { untracked: entry.untracked } : {}) }));
}

/** Every item of the labelled collections whose label carries a run prefix, and every such tag on any item. */
async function labelledCandidates(options: SweepOptions, carriesPrefix: (label: unknown) => boolean): Promise<Candidate[]> {
  const found: Candidate[] = [];
  const tags = new Set<string>();
  for (const collection of LABELLED)
    for (let page = 1; ; page++) {
      const exchange = await options.http.send({ method: 'GET', path: collection.list, query: { page, page_size: 100 }, token: options.token });
      if (!success(exchange.status)) throw new SweepError(`GET ${collection.list} answered ${describeExchange(exchange)}`);
      const body = (exchange.body ?? {}) as { data?: Json[]; pages?: number };
      for (const item of body.data ?? []) {
        if (carriesPrefix(item[collection.member])) found.push({ kind: collection.kind, deletePath: collection.deletePath(item), label: String(item[collection.member]), order: 0 });
        if (Array.isArray(item.tags)) for (const tag of item.tags) if (carriesPrefix(tag)) tags.add(tag as string);
      }
      if (!Array.isArray(body.data) || page >= (body.pages ?? 1)) break;
    }
  for (const tag of tags) found.push({ kind: 'tag', deletePath: `/v4/tags/${encodeURIComponent(tag)}`, label: tag, order: 0 });
  return found;
}

/** Deletes one resource after confirming it is still the run's: 'deleted', 'gone', or why it was not deleted. */
async function deleteOne(options: SweepOptions, candidate: Candidate, carriesPrefix: (label: unknown) => boolean): Promise<string> {
  const send = (method: 'GET' | 'DELETE') => options.http.send({ method, path: candidate.deletePath, token: options.token });
  const collection = LABELLED.find((labelled) => labelled.kind === candidate.kind);
  if (candidate.kind === 'tag') {
    const label = decodeURIComponent(candidate.deletePath.split('/').pop()!);
    if (!carriesPrefix(label)) return `the tag "${label}" does not carry the run prefix`;
  }
  if (collection) {
    const view = await send('GET');
    if (view.status === 404) return 'gone';
    const label = (view.body as Json | undefined)?.[collection.member];
    // The id may since have been given to something else: only a resource still carrying the prefix is deleted.
    if (success(view.status) && !carriesPrefix(label)) return `it now carries the label "${String(label)}", not one the run gave it`;
  }
  if (candidate.kind === 'entity-transfer') {
    const view = await send('GET');
    const status = (view.body as Json | undefined)?.status;
    if (view.status === 404 || (typeof status === 'string' && status !== 'pending')) return 'gone';
  }
  const exchange = await send('DELETE');
  if (success(exchange.status)) return 'deleted';
  if (exchange.status === 404) return 'gone';
  return describeExchange(exchange);
}

export interface SweepCommandOptions {
  runId?: string;
  allRuns?: boolean;
  baseUrl?: string;
  token?: string;
  out?: string;
  config?: string;
  timeout?: string;
}

/** The command: resolves the target like `run` does (flags, CONFORMANCE_*, config file), sweeps, returns the exit code. */
export async function sweepCommand(options: SweepCommandOptions, print: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (Boolean(options.runId) === Boolean(options.allRuns)) throw new UsageError('sweep needs either --run-id ID or --all-runs');
  const config = resolveConfig({ file: options.config, env, flags: { baseUrl: options.baseUrl, token: options.token, out: options.out, timeoutMs: options.timeout, runId: options.runId } });
  if (!config.baseUrl || !config.token) throw new UsageError('sweep needs the target: --base-url and --token (the embedded emulator is discarded at the end of each run)');
  registerConfigSecrets(config);
  const runIds = options.allRuns ? runIdsIn(config.out) : [config.runId];
  if (!runIds.length) {
    print(`sweep: no runs under ${config.out}/runs: nothing to do`);
    return 0;
  }
  const http = new HttpClient(config.baseUrl, config.timeoutMs);
  try {
    const outcome = await sweep({ http, token: config.token, baseUrl: config.baseUrl, out: config.out, runIds, print });
    print(`sweep: ${outcome.deleted} deleted, ${outcome.alreadyGone} already gone, ${outcome.remaining.length} could not be deleted (run${runIds.length > 1 ? 's' : ''} ${runIds.length > 3 ? `${runIds.slice(0, 3).join(', ')} and ${runIds.length - 3} more` : runIds.join(', ')})`);
    return outcome.remaining.length ? 1 : 0;
  } catch (error) {
    if (error instanceof SweepError) throw new UsageError(`sweep stopped: ${error.message}`);
    throw error;
  } finally {
    await http.close();
  }
}
