// The three documents the ledger follows, and the anchors GitHub gives their headings.

/** The version of the documents the ledger follows. */
export const DOCUMENTS_VERSION = '4.123.1';

/** The document of each part, by file name. */
export const DOCUMENTS = {
  1: 'part1-common-databases-account.md',
  2: 'part2-compute-images-tags.md',
  3: 'part3-domains-monitoring-networking.md',
} as const;

/** GitHub's slug of a heading: lower case, punctuation other than `-` dropped, each space a dash. */
export function headingSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}
