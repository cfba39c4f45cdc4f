// The emulator's areas are rooms with doors: what several areas share lives in emulator/core/, effects that cross
// areas go through the store's signals, and no area imports its way back to itself. The scan reads the import
// statements of emulator/areas/ (relative specifiers, type-only imports included).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const AREAS = join(ROOT, 'emulator', 'areas');
const MAX_LINES = 600;
const SOURCE_FOLDERS = ['emulator', 'specs', 'harness', 'arbitraries', 'reports', 'cli', 'lib', 'scripts', 'rules', 'test'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? tsFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** Files a source file imports, as absolute `.ts` paths (relative specifiers only). */
function importedFiles(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts'));
}

/** The area a file of emulator/areas/ belongs to (`compute` for areas/compute/clone.ts); undefined elsewhere. */
function areaOf(file: string): string | undefined {
  const rel = relative(AREAS, file);
  if (rel.startsWith('..') || rel === 'index.ts') return undefined; // areas/index.ts lists the areas, it is no room
  return rel.split(sep)[0]!.replace(/\.ts$/, '');
}

/** Every cycle of a directed graph, each once, as the list of its nodes from its smallest one. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const found = new Map<string, string[]>();
  const visit = (node: string, path: string[]): void => {
    const at = path.indexOf(node);
    if (at >= 0) {
      const cycle = path.slice(at);
      const start = cycle.indexOf([...cycle].sort()[0]!);
      const canonical = [...cycle.slice(start), ...cycle.slice(0, start)];
      found.set(canonical.join(' → '), canonical);
      return;
    }
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
  };
  for (const node of graph.keys()) visit(node, []);
  return [...found.values()];
}

function graphOf(
  files: string[],
  nodeOf: (file: string) => string | undefined,
  read: (file: string) => string[] = (f) => importedFiles(f),
): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = nodeOf(file);
    if (from === undefined) continue;
    const edges = graph.get(from) ?? new Set<string>();
    for (const target of read(file)) {
      const to = nodeOf(target);
      if (to !== undefined && to !== from) edges.add(to);
    }
    graph.set(from, edges);
  }
  return graph;
}

describe('emulator architecture', () => {
  const areaFiles = tsFiles(AREAS);

  it('no import cycle between areas', () => {
    expect(cycles(graphOf(areaFiles, areaOf))).toEqual([]);
  });

  it('no import cycle between the files of emulator/areas/', () => {
    const fileOf = (file: string) => (file.startsWith(AREAS + sep) ? relative(AREAS, file) : undefined);
    expect(cycles(graphOf(areaFiles, fileOf))).toEqual([]);
  });

  it('areas reach core, faults and variations, never the server', () => {
    const serverSide = areaFiles.filter((file) => importedFiles(file).some((target) => /emulator[/\\](server|index|main)\.ts$/.test(target)));
    expect(serverSide.map((file) => relative(ROOT, file))).toEqual([]);
  });

  // The suite's folders too: README ("The house") promises it of every source file.
  it(`every source file (the emulator's, the suite's, the tests') has under ${MAX_LINES} lines`, () => {
    const long = SOURCE_FOLDERS.flatMap((folder) => tsFiles(join(ROOT, folder)))
      .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, 'utf8').match(/\n/g)?.length ?? 0 }))
      .filter(({ lines }) => lines >= MAX_LINES);
    expect(long).toEqual([]);
  });

  it('sees a cycle when there is one (the scan is not blind)', () => {
    const probe = (name: string) => join(AREAS, name);
    const sources: Record<string, string> = {
      [probe('alpha.ts')]: "import { b } from './beta/model.js';",
      [probe('beta/model.ts')]: "import type { G } from '../gamma.js';",
      [probe('gamma.ts')]: "const a = await import('./alpha.js');\nimport { x } from '../core/validate.js';",
    };
    const graph = graphOf(Object.keys(sources), areaOf, (file) => importedFiles(file, sources[file]));
    expect(cycles(graph)).toEqual([['alpha', 'beta', 'gamma']]);
    expect(areaOf(join(ROOT, 'emulator', 'core', 'store.ts'))).toBeUndefined();
  });
});
