// What a variation declares, and the document names its `leaves` quotes start with (index.ts holds the catalogue).

export interface VariationInfo {
  /** Where the documents leave the choice open: document, section, and the sentence quoted. */
  leaves: string;
  /** What the emulator does under this variation, in one line. */
  does: string;
  /**
   * The consistency window (ms) a run against this variation should use, for a variation that makes reads lag
   * writes: the suite is told about the lag the way a user would tell it about a real target's replicas.
   */
  consistencyWindowMs?: number;
  /**
   * The region (`--region`) a run against this variation uses, for a variation of what a region without VLANs answers
   * (the VLAN region stays the run's default).
   */
  region?: string;
  /**
   * Judged by hand (`npm run variations -- --only <id>`), not by the gate: a variation whose lag meets other files'
   * clock moves at wall-clock timing the gate cannot repeat.
   */
  byHand?: true;
  /**
   * SHOULD rules this choice breaks: a run carrying it may warn on them. The matrix takes a warning on any other rule
   * as a false one, as it takes a fail.
   */
  warns?: readonly string[];
  /**
   * Variations this one makes no one server with: each answers the same question otherwise, and together they would
   * be a server no reading of the documents allows (the suite may rightly fail it). Declared on either side, never
   * switched on together: the emulator refuses the pair, and the matrix deals them to different groups.
   */
  excludes?: readonly string[];
}

export const D1 = 'document 1';
export const D2 = 'document 2';
export const D3 = 'document 3';

export function defineVariations<const T extends Record<string, VariationInfo>>(variations: T): T {
  return variations;
}
