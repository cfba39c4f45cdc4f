// `conformance report --from results.json [--out DIR]`: compliance.html and junit.xml rendered again; with several
// --from (the shards of one run), the merged results.json, compliance.html and junit.xml in --out.
import { join } from 'node:path';
import type { Command } from 'commander';
import { mergeResults } from '../reports/merge.js';
import { expectationsLine } from '../reports/expectations.js';
import { ResultsFileError, readResultsFile, rerenderReports, writeRenderedReports, writeResultsJson } from '../reports/write.js';
import { UsageError } from './usage-error.js';

/** Merges the shard results into `outDir`; returns the files written and the closing line's counts. */
function mergeShardReports(from: string[], outDir: string): { files: string[]; line: string } {
  const merged = mergeResults(from.map((file) => ({ file, results: readResultsFile(file) })));
  const paths = { json: join(outDir, 'results.json'), html: join(outDir, 'compliance.html'), junit: join(outDir, 'junit.xml') };
  writeResultsJson(merged, paths.json);
  writeRenderedReports(merged, paths);
  const s = merged.summary;
  const score = merged.score.percent === null ? 'no MUST rule judged' : `score ${merged.score.percent.toFixed(1)} %`;
  const coverage = merged.run.shard ? ` — shards ${merged.run.shard} only: a partial run` : '';
  const line = `merged ${from.length} results: rules ${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.warning} warning, ${s.skip} skip, ${s.disabled} disabled (${score})${expectationsLine(merged.expectations)}${coverage}`;
  return { files: [paths.json, paths.html, paths.junit], line };
}

/** Adds the command to `program` (inheriting its error handling and output). */
export function registerReport(program: Command, out: (line: string) => void): void {
  program
    .command('report')
    .description(
      'render compliance.html and junit.xml again from a results.json; with several --from (the shards of one run, `run --shard i/n`), merge them into one results.json, compliance.html and junit.xml in --out (a rule judged in several shards takes its worst status)',
    )
    .requiredOption('--from <results.json>', 'the results of a run (repeatable: shards to merge)', (value: string, previous: string[] = []) => [
      ...previous,
      value,
    ])
    .option('--out <dir>', 'where to write them (default: beside results.json; required when merging)')
    .action((options: { from: string[]; out?: string }) => {
      try {
        if (options.from.length === 1) {
          const written = rerenderReports(options.from[0]!, options.out);
          out(`conformance: ${written.html}, ${written.junit}`);
          return;
        }
        if (!options.out) throw new UsageError('merging several --from needs --out DIR (where the merged reports go)');
        const merged = mergeShardReports(options.from, options.out);
        out(`conformance: ${merged.line} → ${merged.files.join(', ')}`);
      } catch (error) {
        if (error instanceof ResultsFileError) throw new UsageError(error.message);
        throw error;
      }
    });
}
