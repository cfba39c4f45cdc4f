// Run-wide locks handed from one check to the next of its block: checks declared one after another in a block, each
// holding the same lock throughout (`check`'s `exclusive`), keep it between them, so that no other spec file's check
// takes it in between. A check that waits for the clock to settle after another file's advance (`untilClockSettled`)
// would otherwise wait anew at each check of its block, the other file's advances coming between them. Checks declared
// `acrossBlocks` hand it on to the next so declared in the next block too (the generic file's checks of its IPv6 range,
// kept between them: no other file's check meets the range).
import { TestRunner } from 'vitest';
import type { CreationBudget } from './cleanup.js';

interface HeldLock {
  release: () => void;
  takenAt: number;
  timer?: NodeJS.Timeout;
}

/** Locks kept for the next check, by lock. Released when it does not come within HANDOVER_WAIT_MS (it was skipped). */
const handedOver = new Map<string, HeldLock>();
const HANDOVER_WAIT_MS = 1000;
/** Not handed over once held this long: other files' checks wait meanwhile. */
const HANDOVER_MOST_MS = 10_000;

/** The check declared last, with the lock it holds throughout and, once the next is declared, whether it hands it over. */
let lastDeclared: { block: object; exclusive?: string; acrossBlocks: boolean; handsOver?: string } | undefined;

/**
 * Chains checks of one block declared one after another with the same `exclusive` lock (`Check.handsOver`), and, when
 * both are declared `acrossBlocks`, a check with the next declared in another block.
 */
export function declareHandover(exclusive: string | undefined, { acrossBlocks = false } = {}): { handsOver?: string } {
  const block = TestRunner.getCurrentSuite();
  const chained = lastDeclared?.block === block || (acrossBlocks && lastDeclared?.acrossBlocks);
  if (exclusive && chained && lastDeclared?.exclusive === exclusive) lastDeclared.handsOver = exclusive;
  lastDeclared = { block, exclusive, acrossBlocks };
  return lastDeclared;
}

/**
 * Takes `lock` (the one the check before handed over, else waiting for it up to `deadline`, then throwing `passed()`,
 * and telling `waited` how long it waited); its release, which hands the lock over when `handsOver()` says so then.
 */
export async function takeLock(
  lock: CreationBudget,
  deadline: number,
  { handsOver, passed, waited }: { handsOver: () => boolean; passed: () => Error; waited: (ms: number) => void },
): Promise<() => void> {
  const kept = handedOver.get(lock.id);
  let held: HeldLock;
  if (kept) {
    clearTimeout(kept.timer);
    handedOver.delete(lock.id);
    held = kept;
  } else {
    const asked = Date.now();
    const release = await lock.take(Math.max(0, deadline - Date.now()));
    if (!release) throw passed();
    waited(Date.now() - asked);
    held = { release, takenAt: Date.now() };
  }
  return () => {
    if (!handsOver() || Date.now() - held.takenAt > HANDOVER_MOST_MS) return held.release();
    const timer = setTimeout(() => {
      handedOver.delete(lock.id);
      held.release();
    }, HANDOVER_WAIT_MS);
    handedOver.set(lock.id, { ...held, timer });
  };
}
