// `conformance expectations --from results.json [--out FILE] [--expires DATE]`: an expectations file from a run, so a
// team adopts the suite on an imperfect server and gates on "no new divergence" from day one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { ExpectationsError, expectationsFrom } from '../reports/expectations.js';
import { ResultsFileError, readResultsFile } from '../reports/write.js';
import { UsageError } from './usage-error.js';

/** Adds the command to `program` (inheriting its error handling and output). */
export function registerExpectations(program: Command, out: (line: string) => void): void {
  program
    .command('expectations')
    .description(
      'write an expectations file from a run: every MUST rule that failed, with the reason the message gives (edit the reasons, then pass the file to `run --expectations`)',
    )
    .requiredOption('--from <results.json>', 'the results of a run')
    .option('--out <file>', 'where to write it (default: standard output)')
    .option('--expires <YYYY-MM-DD>', 'the last day each expectation excuses its fail')
    .action((options: { from: string; out?: string; expires?: string }) => {
      let text: string;
      let count: number;
      try {
        const entries = expectationsFrom(readResultsFile(options.from), options.expires);
        count = Object.keys(entries).length;
        text = `${JSON.stringify(entries, null, 2)}\n`;
      } catch (error) {
        if (error instanceof ResultsFileError || error instanceof ExpectationsError) throw new UsageError(error.message);
        throw error;
      }
      if (!options.out) {
        process.stdout.write(text);
        return;
      }
      try {
        mkdirSync(dirname(options.out), { recursive: true });
        writeFileSync(options.out, text);
      } catch (error) {
        throw new UsageError(`cannot write ${options.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      out(`conformance: ${count} expectation${count === 1 ? '' : 's'} → ${options.out}`);
    });
}
