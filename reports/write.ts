// Writing the reports of a run (results.json, compliance.html, junit.xml), and reading results.json back for
// `conformance report --from`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import type { Results } from './results.js';

function writeFile(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export function writeResultsJson(results: Results, file: string): void {
  writeFile(file, `${JSON.stringify(results, null, 1)}\n`);
}

/** Renders the HTML and JUnit reports of `results`. */
export function writeRenderedReports(results: Results, paths: { html: string; junit: string }): void {
  writeFile(paths.html, renderHtml(results));
  writeFile(paths.junit, renderJunit(results));
}

/** results.json could not be used: one line saying why. */
export class ResultsFileError extends Error {}

const REQUIRED: Array<keyof Results> = [
  'target',
  'started',
  'finished',
  'date',
  'documentsVersion',
  'run',
  'score',
  'summary',
  'checks',
  'documents',
  'rules',
  'endpoints',
  'checkList',
  'failures',
];

export function readResultsFile(file: string): Results {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ResultsFileError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ResultsFileError(`${file} is not valid JSON`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ResultsFileError(`${file} is not a results.json (not a JSON object)`);
  const missing = REQUIRED.filter((key) => !(key in parsed));
  if (missing.length) throw new ResultsFileError(`${file} is not a results.json of this version (missing ${missing.join(', ')}): run the suite again`);
  const results = parsed as Results;
  if (!Array.isArray(results.rules) || !Array.isArray(results.endpoints) || !Array.isArray(results.checkList))
    throw new ResultsFileError(`${file} is not a results.json (rules, endpoints and checkList must be arrays)`);
  return results;
}

/** `conformance report --from results.json [--out dir]`: the HTML and JUnit reports again, beside results.json by default. */
export function rerenderReports(from: string, outDir?: string): { html: string; junit: string } {
  const results = readResultsFile(from);
  const dir = outDir ?? dirname(from);
  const paths = { html: join(dir, 'compliance.html'), junit: join(dir, 'junit.xml') };
  try {
    writeRenderedReports(results, paths);
  } catch (error) {
    throw new ResultsFileError(`${from} is not a usable results.json: ${(error as Error).message}`);
  }
  return paths;
}
