// How a child process runs the reference emulator: from one JavaScript file esbuild bundles from emulator/ and the
// packages it imports, not through tsx's loader. Through the loader a child spends ~0.2 s more CPU and wall time
// before it listens (each of ~60 modules resolved and transformed, one round trip to the loader's thread at a time),
// and loading fastify's and its dependencies' ~130 modules from node_modules ~0.13 s of wall and ~0.23 s of CPU more
// again; the run waits for it, and the test command starts emulators by the dozen. The bundle is cached under
// node_modules/.cache, keyed by the contents of every file it was built from (bin/build-cache.mjs): any change to them
// rebuilds it. Should the bundle not be built (no esbuild, no writable cache), the child runs the sources through tsx as before.
import { mkdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CACHE, CHECKOUT as ROOT, REQUIRE_BANNER, baseInputs, freshOutput, hashOf, recordBuild, writeWhole } from '../bin/build-cache.mjs';

const ENTRY = 'emulator/main.ts';
const MANIFEST = 'emulator-bundle.json';
/** The source run through tsx: what the bundle stands for, and what runs when it cannot be built. */
const FROM_SOURCES = ['--import', 'tsx', ENTRY];
/** The manifest's shape: a manifest of another shape (or of a bundle built otherwise) is rebuilt. */
const MANIFEST_VERSION = 4;

/**
 * Builds the bundle and records it: every source it was built from, with the compiler options and the lockfile (which
 * names the packages bundled with it).
 */
async function build(cache: string): Promise<string> {
  const esbuild = await import('esbuild');
  // Each source is hashed as esbuild reads it: an edit made while the bundle builds makes the next start rebuild.
  const inputs = baseInputs();
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: REQUIRE_BANNER },
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
  const name = `emulator-${hashOf(code)}.mjs`;
  mkdirSync(cache, { recursive: true });
  writeWhole(join(cache, name), code);
  recordBuild(cache, MANIFEST, { version: MANIFEST_VERSION, output: name, inputs }, /^emulator-.*\.(mjs|tmp)$/);
  return join(cache, name);
}

/** Builds in progress, by cache folder: starts at the same time in one process build once. */
const building = new Map<string, Promise<string | null>>();

/**
 * The arguments after `node` that run the emulator (its own flags follow them), from the repository's root; `cache`
 * is the folder of the bundle (tests give their own).
 */
export async function emulatorCommand(cache = CACHE): Promise<string[]> {
  let bundle = freshOutput(cache, MANIFEST, MANIFEST_VERSION);
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
