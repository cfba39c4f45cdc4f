// Starting the longest files first, so that the workers end together rather than with one long file running alone at
// the end: a run's spec files (specs/setup/file-order.ts) and the test command's files (test/longest-first.ts).

/**
 * `files` with those whose path holds one of `paths` (a file, or a folder ending in `/`) first, in the order of
 * `paths`; the others after them, in their order.
 */
export function rankedFirst<T extends { moduleId: string }>(files: readonly T[], paths: readonly string[]): T[] {
  const rank = (file: T) => {
    const at = paths.findIndex((path) => file.moduleId.includes(`/${path}`));
    return at < 0 ? paths.length : at;
  };
  return [...files].sort((a, b) => rank(a) - rank(b));
}
