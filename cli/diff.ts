// `conformance diff A.json B.json [--json] [--html FILE]`: the rules whose status changed between two runs (two
// targets, or one target over two releases), with both runs' evidence. Exit 0 nothing changed, 1 something did, 2
// bad input (as diff(1)).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { diffResults, diffText, renderDiffHtml } from '../reports/diff.js';
import { ResultsFileError, readResultsFile } from '../reports/write.js';
import { UsageError } from './usage-error.js';

/** Adds the command to `program` (inheriting its error handling and output). */
export function registerDiff(program: Command, out: (line: string) => void): void {
  program
    .command('diff')
    .description(
      'the rules whose status changed between two runs (two targets, or one target over two releases), with the evidence of both; exit 0 none changed, 1 some did, 2 bad input',
    )
    .argument('<before.json>', 'the results of the first run')
    .argument('<after.json>', 'the results of the second run')
    .option('--json', 'print the changes as JSON')
    .option('--html <file>', 'also write them as a self-contained HTML page, both evidences side by side')
    .action((beforeFile: string, afterFile: string, options: { json?: boolean; html?: string }) => {
      let diff;
      try {
        diff = diffResults(beforeFile, readResultsFile(beforeFile), afterFile, readResultsFile(afterFile));
      } catch (error) {
        if (error instanceof ResultsFileError) throw new UsageError(error.message);
        throw error;
      }
      if (options.html) {
        try {
          mkdirSync(dirname(options.html), { recursive: true });
          writeFileSync(options.html, renderDiffHtml(diff));
        } catch (error) {
          throw new UsageError(`cannot write ${options.html}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        }
      }
      if (options.json) out(JSON.stringify(diff, null, 1));
      else for (const line of diffText(diff)) out(line);
      process.exitCode = diff.changed.length ? 1 : 0;
    });
}
