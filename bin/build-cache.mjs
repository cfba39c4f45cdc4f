// Builds kept under node_modules/.cache/chs-conformance, each described by a manifest naming its output and every
// file it was built from with the hash of its contents: a build whose inputs all hash as recorded is reused, any change
// rebuilds it. Two builds use it: the reference emulator's bundle (harness/emulator-command.ts) and the suite's
// compiled copy (bin/typescript.mjs). Plain JavaScript: the command line reads it before any TypeScript can load.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository checkout (with a trailing separator). */
export const CHECKOUT = fileURLToPath(new URL('..', import.meta.url));
export const CACHE = join(CHECKOUT, 'node_modules', '.cache', 'chs-conformance');
/** Outputs of earlier sources are removed once this old (a run started a moment ago may still be loading one). */
const STALE_MS = 60 * 60 * 1000;

/**
 * The first line of an ES module bundle holding CommonJS packages: they ask for Node's own modules with `require`, which
 * an ES module must make.
 */
export const REQUIRE_BANNER = "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);";

/** @param {string | Uint8Array} contents */
export const hashOf = (contents) => createHash('sha256').update(contents).digest('hex').slice(0, 16);

/**
 * What shapes every build besides its sources: the compiler options (class fields, for one) and the lockfile
 * (esbuild's version, and the packages the output imports).
 */
export const BASE_INPUTS = ['tsconfig.json', 'package-lock.json'];

/** @returns {Record<string, string>} the base inputs' hashes */
export function baseInputs() {
  return Object.fromEntries(BASE_INPUTS.map((file) => [file, hashOf(readFileSync(join(CHECKOUT, file)))]));
}

/**
 * The output the manifest names when it has this version and every input it lists still hashes as recorded, else
 * null; with `inputNames`, the manifest must list exactly those (a file added since the build makes it stale); with
 * `recorded`, its members must be those values (the checkout it was built for).
 * @param {string} cache
 * @param {string} manifestName
 * @param {number} version
 * @param {string[]} [inputNames]
 * @param {Record<string, unknown>} [recorded]
 * @returns {string | null}
 */
export function freshOutput(cache, manifestName, version, inputNames, recorded = {}) {
  try {
    const manifest = JSON.parse(readFileSync(join(cache, manifestName), 'utf8'));
    if (manifest.version !== version || Object.entries(recorded).some(([member, value]) => manifest[member] !== value)) return null;
    const listed = Object.keys(manifest.inputs);
    if (inputNames && (listed.length !== inputNames.length || inputNames.some((name) => !(name in manifest.inputs)))) return null;
    for (const [file, hash] of Object.entries(manifest.inputs)) if (hashOf(readFileSync(join(CHECKOUT, file))) !== hash) return null;
    const output = join(cache, manifest.output);
    statSync(output);
    return output;
  } catch {
    return null;
  }
}

/**
 * Writes a file whole, then renames it into place: processes building at once never read half a file.
 * @param {string} file
 * @param {string | Uint8Array} contents
 */
export function writeWhole(file, contents) {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/**
 * Records a build (after its output is in place) and removes the outputs of earlier builds matching `earlier` once
 * they are `staleMs` old.
 * @param {string} cache
 * @param {string} manifestName
 * @param {{ version: number, output: string, inputs: Record<string, string>, [member: string]: unknown }} manifest
 * @param {RegExp} earlier
 * @param {number} [staleMs]
 */
export function recordBuild(cache, manifestName, manifest, earlier, staleMs = STALE_MS) {
  writeWhole(join(cache, manifestName), JSON.stringify(manifest, null, 1));
  for (const name of readdirSync(cache)) {
    if (name === manifest.output || !earlier.test(name)) continue;
    const path = join(cache, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > staleMs) rmSync(path, { recursive: true, force: true });
    } catch {
      // renamed or removed meanwhile by another process building at the same time
    }
  }
}
