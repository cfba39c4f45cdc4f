// How a child process runs the reference emulator: from one JavaScript file esbuild bundles from emulator/ (packages
// stay in node_modules), not through tsx's loader. Through the loader a child spends ~0.2 s more CPU and wall time
// before it listens (each of ~60 modules resolved and transformed, one round trip to the loader's thread at a time);
// the run waits for it, and the test command starts emulators by the dozen. The bundle is cached under
// node_modules/.cache, keyed by the contents of every file it was built from: any change to them rebuilds it. Should
// the bundle not be built (no esbuild, no writable cache), the child runs the sources through tsx as before.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = 'emulator/main.ts';
const CACHE = join(ROOT, 'node_modules', '.cache', 'chs-conformance');
const MANIFEST = 'emulator-bundle.json';
/** The source run through tsx: what the bundle stands for, and what runs when it cannot be built. */
const FROM_SOURCES = ['--import', 'tsx', ENTRY];
/** Bundles of earlier sources are removed once this old (a run started a moment ago may still be loading one). */
const STALE_MS = 60 * 60 * 1000;

/** The manifest's shape: a manifest of another shape is rebuilt. */
const MANIFEST_VERSION = 2;

interface Manifest {
  version: number;
  /** The bundle's file name in the cache. */
  bundle: string;
  /**
   * Every source the bundle was built from (relative to the repository) and the hash of its contents as esbuild read
   * it; with them the compiler options and the lockfile (esbuild's version, and the packages the bundle imports).
   */
  inputs: Record<string, string>;
}

const hashOf = (text: string | Buffer) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The manifest's bundle when every file it was built from is unchanged, else null. */
function freshBundle(cache: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(join(cache, MANIFEST), 'utf8')) as Manifest;
    if (manifest.version !== MANIFEST_VERSION) return null;
    for (const [file, hash] of Object.entries(manifest.inputs)) if (hashOf(readFileSync(join(ROOT, file))) !== hash) return null;
    const bundle = join(cache, manifest.bundle);
    statSync(bundle);
    return bundle;
  } catch {
    return null;
  }
}

/** Builds the bundle and its manifest (each written whole, then renamed: processes building at once never read half a file). */
async function build(cache: string): Promise<string> {
  const esbuild = await import('esbuild');
  // Each source is hashed as esbuild reads it: an edit made while the bundle builds makes the next start rebuild.
  // Beside the sources: the compiler options (they shape the output: class fields, for one) and the lockfile.
  const inputs: Record<string, string> = {};
  for (const file of ['tsconfig.json', 'package-lock.json']) inputs[file] = hashOf(readFileSync(join(ROOT, file)));
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'hash-sources',
        setup(plugin) {
          plugin.onLoad({ filter: /\.ts$/ }, (source) => {
            const contents = readFileSync(source.path);
            inputs[relative(ROOT, source.path).split(sep).join('/')] = hashOf(contents);
            return { contents, loader: 'ts' };
          });
        },
      },
    ],
  });
  const code = result.outputFiles[0]!.contents;
  const name = `emulator-${hashOf(Buffer.from(code))}.mjs`;
  mkdirSync(cache, { recursive: true });
  const writeWhole = (file: string, contents: string | Uint8Array) => {
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(temporary, contents);
    renameSync(temporary, file);
  };
  writeWhole(join(cache, name), code);
  writeWhole(join(cache, MANIFEST), JSON.stringify({ version: MANIFEST_VERSION, bundle: name, inputs } satisfies Manifest, null, 1));
  removeStaleBundles(cache, name);
  return join(cache, name);
}

function removeStaleBundles(cache: string, keep: string): void {
  for (const file of readdirSync(cache)) {
    if (file === keep || !/^emulator-.*\.(mjs|tmp)$/.test(file)) continue;
    const path = join(cache, file);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    } catch {
      // renamed or removed meanwhile by another process building at the same time
    }
  }
}

/** Builds in progress, by cache folder: starts at the same time in one process build once. */
const building = new Map<string, Promise<string | null>>();

/**
 * The arguments after `node` that run the emulator (its own flags follow them), from the repository's root; `cache`
 * is the folder of the bundle (tests give their own).
 */
export async function emulatorCommand(cache = CACHE): Promise<string[]> {
  let bundle = freshBundle(cache);
  if (!bundle) {
    if (!building.has(cache))
      building.set(
        cache,
        build(cache)
          .catch(() => null)
          .finally(() => building.delete(cache)),
      );
    bundle = await building.get(cache)!;
  }
  return bundle ? [bundle] : FROM_SOURCES;
}
