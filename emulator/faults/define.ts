// A fault is a named, deliberate deviation of the reference emulator from one ledger rule. The mutation self-test
// switches each on alone and expects the suite to report `fail` for that rule.
//
// Ids: the rule id the fault breaks, optionally followed by `~variant` when several faults break one rule
// (`P3.domain.name.length~accepts-254`). The emulator never imports the suite's ledger: rule ids are plain strings
// here, and a self-test checks each against the ledger.

export interface FaultInfo {
  /** What the emulator does wrong, in one line. */
  does: string;
}

/** Declares one document's faults; keeps the ids as literal types so `faulty()` calls are checked. */
export function defineFaults<const T extends Record<string, FaultInfo>>(faults: T): T {
  return faults;
}

export function ruleOfFault(id: string): string {
  return id.split('~')[0]!;
}
