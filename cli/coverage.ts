// `conformance coverage`: how much of the documents the ledger judges. Every unit of the three documents (a sentence,
// a table row) is judged by rules or excused with a reason (rules/coverage/part<n>.json); with --documents, the
// documents in a folder are split again and compared with the map (a new version of them shows what is unmapped).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { coverageMap, documentCoverage, EXCUSES, readDocument, type DocumentCoverage, type Part } from '../rules/coverage.js';
import { DOCUMENTS } from '../rules/documents.js';
import { UsageError } from './usage-error.js';

const PARTS = [1, 2, 3] as const;

/** Units excused, by kind of reason. */
function excusesOf(part: Part): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(EXCUSES.map((kind) => [kind, 0]));
  for (const unit of coverageMap().get(part)!) if ('none' in unit) counts[unit.none.split(':')[0]!]! += 1;
  return counts;
}

function readDocuments(folder: string): Record<Part, string> {
  const url = pathToFileURL(`${resolve(folder)}/`);
  const missing = PARTS.map((part) => DOCUMENTS[part]).filter((name) => !existsSync(new URL(name, url)));
  if (missing.length) throw new UsageError(`--documents ${folder}: no ${missing.join(', ')} there`);
  return Object.fromEntries(PARTS.map((part) => [part, readDocument(part, url)])) as Record<Part, string>;
}

const line = (entry: DocumentCoverage) => {
  const excused = Object.entries(excusesOf(entry.part))
    .filter(([, count]) => count)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  return `document ${entry.part} (${entry.document}): ${entry.units} units, ${entry.mapped} judged by rules, ${entry.excused} excused (${excused}), ${entry.unmapped.length} unmapped`;
};

export function registerCoverage(program: Command, out: (text: string) => void): void {
  program
    .command('coverage')
    .description('how much of the documents the rules judge: every sentence and table row, judged by rules or excused with a reason')
    .option('--json', 'print the map: every unit with its rules or reason, and the counts')
    .option('--documents <dir>', 'compare the map with the documents in this folder (exit 1 on a unit it does not hold)')
    .action((options: { json?: boolean; documents?: string }) => {
      const coverage = documentCoverage(options.documents ? readDocuments(options.documents) : undefined);
      const gaps = coverage.some((entry) => entry.unmapped.length || entry.stale.length);
      if (options.json) {
        out(
          JSON.stringify(
            coverage.map((entry) => ({ ...entry, excusedBy: excusesOf(entry.part), map: coverageMap().get(entry.part) })),
            null,
            2,
          ),
        );
      } else {
        for (const entry of coverage) {
          out(line(entry));
          for (const unit of entry.unmapped) out(`  unmapped: [${unit.section}] ${unit.text}`);
          for (const unit of entry.stale) out(`  no longer in the document: [${unit.section}] ${unit.text}`);
        }
        const total = (key: 'units' | 'mapped' | 'excused') => coverage.reduce((sum, entry) => sum + entry[key], 0);
        const unmapped = coverage.reduce((sum, entry) => sum + entry.unmapped.length, 0);
        out(`coverage: ${total('units')} units, ${total('mapped')} judged by rules, ${total('excused')} excused, ${unmapped} unmapped`);
      }
      if (gaps) process.exitCode = 1;
    });
}
