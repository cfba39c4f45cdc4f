// The fault catalogue: every deliberate deviation the emulator can be started with (`--fault ID`, repeatable, or
// CHS_EMULATOR_FAULTS=ID,ID).
import { ruleOfFault, type FaultInfo } from './define.js';
import { part1Faults } from './part1.js';
import { part2Faults } from './part2.js';
import { part3Faults } from './part3.js';

export type FaultId = keyof typeof part1Faults | keyof typeof part2Faults | keyof typeof part3Faults;

export interface Fault extends FaultInfo {
  id: string;
  /** The ledger rule the fault breaks. */
  rule: string;
}

export const FAULTS: readonly Fault[] = Object.entries({ ...part1Faults, ...part2Faults, ...part3Faults } as Record<string, FaultInfo>).map(([id, info]) => ({
  id,
  rule: ruleOfFault(id),
  ...info,
}));

const KNOWN = new Set(FAULTS.map((fault) => fault.id));

/** The ids not in the catalogue (for a clear start-up error). */
export function unknownFaults(ids: readonly string[]): string[] {
  return ids.filter((id) => !KNOWN.has(id));
}

/** Whether the emulator runs with this fault switched on. */
export function faulty(store: { faults: ReadonlySet<string> }, id: FaultId): boolean {
  return store.faults.has(id);
}
