// The test runner of a run from the suite's compiled copy: vitest names and reports each spec file by its source, and
// Node imports the file's copy, whose own imports are the copy's files. No loader thread then answers each module a
// worker imports (bin/typescript.mjs; specs/setup/no-loader-thread.cjs keeps vitest's own away).
import { pathToFileURL } from 'node:url';
import { TestRunner } from 'vitest';
import { compiledCopyOf } from '../../harness/compiled-copy.js';

/** Imports so far: each file vitest imports is evaluated anew (a setup file before each spec file, a spec file in each run). */
let imports = 0;

export default class CompiledCopyRunner extends TestRunner {
  override importFile(filepath: string): Promise<unknown> {
    const [path, query] = (compiledCopyOf(filepath) ?? filepath).split(/(?=\?)/) as [string, string?];
    // (vitest's own marks the URL as new with a query its loader takes off again; without that loader Node reads it as
    // part of the file's name: it goes in the URL's own query here)
    return import(`${pathToFileURL(path).href}${query ? `${query}&` : '?'}vitest=${++imports}`);
  }
}
