// The suite and the emulator meet only over HTTP: neither side may import the other.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SUITE = ['specs', 'harness', 'arbitraries', 'schemas', 'rules', 'reports', 'cli', 'lib'];
const SUITE_ONLY = ['schemas', 'rules', 'arbitraries', 'specs', 'harness'];

function sourceFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'out') return [];
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.(ts|js|mjs|json)$/.test(name) ? [full] : [];
  });
}

/** Top-level project folders a file imports (relative imports only). */
function importedFolders(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => relative(ROOT, resolve(dirname(file), specifier)).split('/')[0]!);
}

describe('suite / emulator boundary', () => {
  it('no suite file imports the emulator', () => {
    const crossings = SUITE.flatMap((folder) => sourceFiles(join(ROOT, folder)))
      .filter((file) => importedFolders(file).includes('emulator'))
      .map((file) => relative(ROOT, file));
    expect(crossings).toEqual([]);
  });

  it('no emulator file imports the suite', () => {
    const crossings = sourceFiles(join(ROOT, 'emulator'))
      .filter((file) => importedFolders(file).some((folder) => SUITE_ONLY.includes(folder)))
      .map((file) => relative(ROOT, file));
    expect(crossings).toEqual([]);
  });

  it('sees a crossing when there is one (the scan is not blind)', () => {
    const emulatorFile = join(ROOT, 'emulator', 'areas', 'probe.ts');
    expect(importedFolders(emulatorFile, "import { x } from '../../rules/index.js';\nconst s = await import('../../schemas/a.json');")).toEqual([
      'rules',
      'schemas',
    ]);
    expect(importedFolders(join(ROOT, 'harness', 'probe.ts'), "import { startEmulator } from '../emulator/index.js';")).toEqual(['emulator']);
  });
});
