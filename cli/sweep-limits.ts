// The limits of `conformance sweep`, apart from its code: the command's help names them without loading it.

/** Pages read of each list at most (100 items a page): a list claiming more is read no further, and sweep says so. */
export const SWEEP_MAX_PAGES = 50;
/** How long `sweep` goes on when no --run-budget is given. */
export const SWEEP_DEFAULT_BUDGET_MS = 5 * 60_000;
