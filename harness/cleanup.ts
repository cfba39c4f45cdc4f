// The cleanup ledger: every resource the run creates is written to disk before it is used, and deleted at the
// end of its spec file even when checks fail. `conformance sweep` reads the same files after a killed run.
import { appendFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface LedgerEntry {
  /** What it is, e.g. `domain`, `instance`. */
  kind: string;
  /** The path that deletes it, e.g. `/v4/domains/12`. */
  deletePath: string;
  label?: string;
  created: string;
}

interface DeletedLine {
  deleted: string;
}

export function ledgerDir(out: string, runId: string): string {
  return join(out, 'runs', runId);
}

export class CleanupLedger {
  private readonly file: string;
  private readonly entries: LedgerEntry[] = [];

  constructor(out: string, runId: string, name: string) {
    const dir = ledgerDir(out, runId);
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${name.replace(/[^a-z0-9-]+/gi, '_')}.jsonl`);
  }

  /** Records a created resource (synchronously, so a crash right after still leaves the line on disk). */
  record(entry: Omit<LedgerEntry, 'created'>): void {
    const line: LedgerEntry = { ...entry, created: new Date().toISOString() };
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
    this.entries.push(line);
  }

  markDeleted(deletePath: string): void {
    appendFileSync(this.file, `${JSON.stringify({ deleted: deletePath } satisfies DeletedLine)}\n`);
  }

  /** Resources recorded and not yet deleted, newest first (dependants before what they depend on). */
  pending(): LedgerEntry[] {
    return readPending(this.file);
  }

  /** A mark: `pending(mark)` then lists only what was recorded after it. */
  mark(): number {
    return this.entries.length;
  }

  pendingSince(mark: number): LedgerEntry[] {
    const recent = new Set(this.entries.slice(mark).map((entry) => entry.deletePath));
    return this.pending().filter((entry) => recent.has(entry.deletePath));
  }
}

function readPending(file: string): LedgerEntry[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const created: LedgerEntry[] = [];
  const deleted = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = JSON.parse(line) as LedgerEntry | DeletedLine;
      if ('deleted' in parsed) deleted.add(parsed.deleted);
      else created.push(parsed);
    } catch {
      // a line cut by a crash: ignore it
    }
  }
  return created.filter((entry) => !deleted.has(entry.deletePath)).reverse();
}

/** Every pending entry of a run (all its spec files). */
export function pendingOfRun(out: string, runId: string): LedgerEntry[] {
  const dir = ledgerDir(out, runId);
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return [];
  }
  return files.flatMap((name) => readPending(join(dir, name)));
}
