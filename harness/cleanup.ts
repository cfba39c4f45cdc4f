// The cleanup ledger: every resource the run creates is written to disk before it is used, and deleted at the
// end of its spec file even when checks fail. `conformance sweep` reads the same files after a killed run.
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { carriesSecret, redactText } from './redact.js';

export interface LedgerEntry {
  /** What it is, e.g. `domain`, `instance`. */
  kind: string;
  /** The path that deletes it, e.g. `/v4/domains/12`. */
  deletePath: string;
  label?: string;
  created: string;
  /**
   * The id the target gave carries a token: the ledger on disk holds the path redacted (with a `#n` to tell such
   * entries apart), the spec file's own cleanup deletes it from memory, and `sweep` reports it rather than guessing.
   */
  untracked?: string;
}

const UNTRACKED = 'its id carries a token, so the ledger keeps no copy of it: delete it by hand if it remains';

interface DeletedLine {
  deleted: string;
}

export function ledgerDir(out: string, runId: string): string {
  return join(out, 'runs', runId);
}

export class CleanupLedger {
  private readonly file: string;
  private readonly entries: LedgerEntry[] = [];
  /** Where each delete path's entries are in `entries`: a check's cleanup after each run must not scan them all. */
  private readonly indexesByPath = new Map<string, number[]>();

  constructor(out: string, runId: string, name: string) {
    const dir = ledgerDir(out, runId);
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${name.replace(/[^a-z0-9-]+/gi, '_')}.jsonl`);
  }

  /** Entries whose id carries a token, by the redacted path the file shows: only this process knows the real one. */
  private readonly held = new Map<string, LedgerEntry>();

  /**
   * The file, open for appending from the first line on: each line is written at once (a crash right after still
   * leaves it on disk), without opening and closing the file for each of the thousands of lines a run writes.
   */
  private fd: number | undefined;

  private append(line: LedgerEntry | DeletedLine): void {
    this.fd ??= openSync(this.file, 'a');
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
  }

  /** Closes the file (a later line opens it again). */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Records a created resource (written before the resource is used, so a crash right after still leaves the line on disk). */
  record(entry: Omit<LedgerEntry, 'created'>): void {
    const line: LedgerEntry = { ...entry, created: new Date().toISOString() };
    // A path recorded again while pending: the same resource, or the target gave the id again and what it held before
    // is gone. One entry stays pending: one DELETE per entry would delete what the path holds after the first.
    if (this.isPending(line.deletePath)) this.markDeleted(line.deletePath);
    if (carriesSecret(JSON.stringify(line))) {
      const shown: LedgerEntry = {
        kind: line.kind,
        deletePath: `${redactText(line.deletePath)}#${this.held.size + 1}`,
        ...(line.label ? { label: redactText(line.label) } : {}),
        created: line.created,
        untracked: UNTRACKED,
      };
      this.held.set(shown.deletePath, line);
      this.append(shown);
    } else this.append(line);
    const indexes = this.indexesByPath.get(line.deletePath) ?? [];
    if (!indexes.length) this.indexesByPath.set(line.deletePath, indexes);
    indexes.push(this.entries.push(line) - 1);
  }

  markDeleted(deletePath: string): void {
    const shown = [...this.held].find(([, entry]) => entry.deletePath === deletePath)?.[0];
    this.append({ deleted: shown ?? deletePath } satisfies DeletedLine);
    for (const index of this.indexesByPath.get(deletePath) ?? []) this.deleted.add(this.entries[index]!);
  }

  /** Entries marked deleted: with `entries`, what the file says, without reading it again (only this ledger writes it). */
  private readonly deleted = new Set<LedgerEntry>();

  /**
   * Resources recorded and not yet deleted, newest first (dependants before what they depend on). A path deleted and
   * then recorded again (a label or an id the target gave a second time) is pending again, once.
   */
  pending(): LedgerEntry[] {
    return this.entries.filter((entry) => !this.deleted.has(entry)).reverse();
  }

  /** Whether a resource recorded at `deletePath` is not deleted yet. */
  isPending(deletePath: string): boolean {
    return (this.indexesByPath.get(deletePath) ?? []).some((index) => !this.deleted.has(this.entries[index]!));
  }

  /** A mark: `pending(mark)` then lists only what was recorded after it. */
  mark(): number {
    return this.entries.length;
  }

  pendingSince(mark: number): LedgerEntry[] {
    const recent = new Set(this.entries.slice(mark).map((entry) => entry.deletePath));
    return [...recent]
      .flatMap((path) => this.indexesByPath.get(path)!)
      .sort((a, b) => b - a)
      .map((index) => this.entries[index]!)
      .filter((entry) => !this.deleted.has(entry));
  }
}

function readPending(file: string): LedgerEntry[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  // In the order written: a deleted line ends what was recorded before it under that path, not what is recorded after.
  let pending: LedgerEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = JSON.parse(line) as LedgerEntry | DeletedLine;
      if ('deleted' in parsed) pending = pending.filter((entry) => entry.deletePath !== parsed.deleted);
      else pending.push(parsed);
    } catch {
      // a line cut by a crash: ignore it
    }
  }
  return pending.reverse();
}

/** Every pending entry of a run (all its spec files). */
export function pendingOfRun(out: string, runId: string): LedgerEntry[] {
  return pendingOfRunWithFiles(out, runId);
}

/** What a run left beside its ledger: the target it ran against, so `sweep` never applies a ledger to another target. */
export interface RunRecord {
  runId: string;
  /** The base URL, or null for the embedded emulator (discarded with everything on it). */
  target: string | null;
  started: string;
}

export function writeRunRecord(out: string, record: RunRecord): void {
  const dir = ledgerDir(out, record.runId);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'run.json'), `${JSON.stringify(record)}\n`);
}

export function readRunRecord(out: string, runId: string): RunRecord | null {
  try {
    return JSON.parse(readFileSync(join(ledgerDir(out, runId), 'run.json'), 'utf8')) as RunRecord;
  } catch {
    return null;
  }
}

/** The run ids that have a folder under `<out>/runs/`. */
export function runIdsIn(out: string): string[] {
  try {
    return readdirSync(join(out, 'runs'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** A pending entry with the ledger file it came from (so it can be marked deleted there). */
export interface FiledEntry extends LedgerEntry {
  file: string;
}

export function pendingOfRunWithFiles(out: string, runId: string): FiledEntry[] {
  const dir = ledgerDir(out, runId);
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return [];
  }
  return files.flatMap((name) => readPending(join(dir, name)).map((entry) => ({ ...entry, file: join(dir, name) })));
}

export function markDeletedIn(file: string, deletePath: string): void {
  appendFileSync(file, `${JSON.stringify({ deleted: deletePath } satisfies DeletedLine)}\n`);
}

/**
 * A moment every worker thread of a run notes and reads (in a file of the run's folder, replaced whole), with a
 * running total of what the notes counted (each thread keeps its own in a file of its own, so no two threads write
 * the same file; the total sums them).
 */
export class RunStamp {
  private readonly file: string;

  constructor(out: string, runId: string, name: string) {
    this.file = join(ledgerDir(out, runId), 'budget', name);
  }

  note(amount = 0): void {
    mkdirSync(join(this.file, '..'), { recursive: true });
    const own = `${this.file}.${process.pid}.${threadId}`;
    if (amount !== 0) replaceWhole(`${own}.total`, String(readNumber(`${own}.total`) + amount));
    replaceWhole(this.file, String(Date.now()));
  }

  /** When (Date.now()) it was last noted; 0 when never. */
  last(): number {
    return readNumber(this.file);
  }

  /** The sum of the amounts every thread of the run has noted. */
  total(): number {
    const dir = join(this.file, '..');
    const prefix = `${this.file.slice(dir.length + 1)}.`;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return 0;
    }
    return names.filter((name) => name.startsWith(prefix) && name.endsWith('.total')).reduce((sum, name) => sum + readNumber(join(dir, name)), 0);
  }
}

function readNumber(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/** Written aside (by this thread alone) and renamed over the file, so that a reader never sees it half written. */
function replaceWhole(file: string, text: string): void {
  const aside = `${file}.${process.pid}.${threadId}.writing`;
  writeFileSync(aside, text);
  renameSync(aside, file);
}

/**
 * A budget of billable creations (or, with one slot, a lock) shared by every worker thread of a run: one file per slot
 * under the run's folder, taken with an exclusive create, so two threads can never take the same slot.
 */
/** Numbers this thread's waiting markers apart. */
let waiters = 0;

export class CreationBudget {
  private readonly dir: string;

  constructor(
    out: string,
    runId: string,
    private readonly kind: string,
    readonly max: number,
  ) {
    this.dir = join(ledgerDir(out, runId), 'budget');
  }

  /** Tells budgets apart: the same for every instance made for the same run and kind. */
  get id(): string {
    return join(this.dir, this.kind);
  }

  /** Takes a slot numbered within `slots` (all by default): its release, or null when all are still taken after
   *  `waitMs` (slots held for a create that may be refused come back at once). A taker that finds others waiting for
   *  the same slots waits with them: a worker releasing a slot and taking it again at once (a property sending refused
   *  creates one after another, each a request long on a distant target) would otherwise always beat one polling. */
  async take(waitMs = 0, slots: { from: number; to: number } = { from: 1, to: this.max }): Promise<(() => void) | null> {
    const queue = `${this.kind}-${slots.from}-${slots.to}.waiting.`;
    if (waitMs <= 0 || !this.anyWaiting(queue)) {
      const release = this.takeNow(slots.from, slots.to);
      if (release || waitMs <= 0) return release;
    }
    const marker = join(this.dir, `${queue}${process.pid}.${threadId}.${++waiters}`);
    writeFileSync(marker, '');
    try {
      for (const until = Date.now() + waitMs; ;) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        const release = this.takeNow(slots.from, slots.to);
        if (release || Date.now() >= until) return release;
      }
    } finally {
      rmSync(marker, { force: true });
    }
  }

  private anyWaiting(queue: string): boolean {
    mkdirSync(this.dir, { recursive: true });
    return readdirSync(this.dir).some((name) => name.startsWith(queue));
  }

  private takeNow(from: number, to: number): (() => void) | null {
    mkdirSync(this.dir, { recursive: true });
    for (let slot = from; slot <= to; slot++) {
      const file = join(this.dir, `${this.kind}-${slot}`);
      try {
        writeFileSync(file, '', { flag: 'wx' });
        return () => rmSync(file, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    return null;
  }
}
