// The incoming entity transfers the run accepted, kept in the run's folder: spec files run in two worker threads (one
// file's memory is not another's), and an accepted transfer may go on showing pending (what an accepted transfer
// shows is not shown), so a pick of a pending transfer to accept leaves out every one any file of the run accepted.
// (Not a .jsonl file: those in the run's folder are cleanup ledgers, which `sweep` reads.)
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerDir } from './cleanup.js';
import type { SuiteConfig } from './config.js';

type RunFolder = Pick<SuiteConfig, 'out' | 'runId'>;

const fileOf = (config: RunFolder) => join(ledgerDir(config.out, config.runId), 'accepted-transfers.txt');

/** Notes a transfer the run accepted (written at once: the next check to pick one, in either thread, reads it). */
export function noteAcceptedTransfer(config: RunFolder, token: string): void {
  mkdirSync(ledgerDir(config.out, config.runId), { recursive: true });
  appendFileSync(fileOf(config), `${JSON.stringify(token)}\n`);
}

/** The tokens of the transfers the run accepted so far. */
export function acceptedTransfers(config: RunFolder): Set<string> {
  let text = '';
  try {
    text = readFileSync(fileOf(config), 'utf8');
  } catch {
    return new Set();
  }
  const tokens = new Set<string>();
  for (const line of text.split('\n')) {
    try {
      if (line.trim()) tokens.add(String(JSON.parse(line)));
    } catch {
      // a line cut short: ignore it
    }
  }
  return tokens;
}

/** Called before a run's first spec file: an earlier run of the same id (`--run-id`, the matrices' runs) left its notes. */
export function forgetAcceptedTransfers(config: RunFolder): void {
  rmSync(fileOf(config), { force: true });
}
