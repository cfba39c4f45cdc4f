// How the suite's TypeScript runs: from a copy esbuild compiles once under node_modules/.cache (one JavaScript file per
// source, rebuilt when any source changes: bin/build-cache.mjs), which Node imports as it is: no loader thread answers
// each module a thread imports (a loader serving the copy cost about a fifth of a narrowed run's CPU; tsx's, which
// transformed every module, about 1 s of each run). Modules keep the sources' names where it shows: each copy's
// `import.meta.url` is its source's, and vitest names and reports the spec files by their sources while its workers
// import their copies (specs/setup/compiled-runner.ts). The packages of many modules the suite imports (undici, ajv)
// are bundled beside the copy, one file each, which the copy imports in their place: each thread loaded their ~200
// CommonJS modules one by one (about 0.3 s of a narrowed run's CPU). The schemas' validators are compiled with the copy
// too (`validators.cjs`). Should the copy not be built (no esbuild, no writable cache), tsx runs the sources, and ajv
// compiles the validators a run meets.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BASE_INPUTS, CACHE, CHECKOUT, REQUIRE_BANNER, baseInputs, freshOutput, hashOf, recordBuild } from './build-cache.mjs';

/** The suite's source folders: everything `conformance` imports (never the emulator, which runs from its own bundle). */
const SOURCE_FOLDERS = ['arbitraries', 'cli', 'harness', 'lib', 'reports', 'rules', 'specs'];
/** Folders inside them that hold no source: a run's reports (reports/out). */
const NOT_SOURCES = new Set(['out', 'node_modules']);
const MANIFEST = 'suite-build.json';
/** The manifest's shape: a manifest of another shape (or of a copy built otherwise) is rebuilt. */
const MANIFEST_VERSION = 4;
/**
 * Packages imported from a bundle of their own (`vendor/<name>.js` in the copy), by the specifier the sources import
 * them with. Each bundle exports what Node makes of the package's CommonJS exports: the whole as default, and each
 * member by name.
 */
const VENDORED = { undici: 'undici', 'ajv/dist/2020.js': 'ajv-2020', 'ajv-formats': 'ajv-formats', 'ajv/dist/standalone/index.js': 'ajv-standalone' };
/** Packages bundled from a module of ours requiring only what the suite uses of them, in place of the package's own entry. */
const VENDORED_FROM = { undici: 'bin/undici-used.cjs' };
/** The compiled copy's folder, for the worker threads and processes of the process that found or built it. */
export const COMPILED_ENV = 'CONFORMANCE_COMPILED_SUITE';
/**
 * The response and request validators compiled ahead with the copy (harness/contract.ts reads the file this names:
 * each worker thread compiled the schemas it met, about 0.8 s of CPU in a full run).
 */
const PRECOMPILED_ENV = 'CONFORMANCE_PRECOMPILED_VALIDATORS';
const PRECOMPILED_FILE = 'validators.cjs';
/** How the copy is built and what imports it: a change rebuilds it. */
const RECIPE = ['bin/typescript.mjs', 'bin/build-cache.mjs', ...Object.values(VENDORED_FROM)];
/** The schemas the validators are compiled from: inputs of the copy like its sources. */
const SCHEMAS = 'schemas';

/** Every TypeScript source of the suite, relative to the checkout. */
function sourceFiles(folder = '') {
  const paths = folder ? [folder] : SOURCE_FOLDERS;
  return paths.flatMap((path) =>
    readdirSync(join(CHECKOUT, path), { withFileTypes: true }).flatMap((entry) => {
      const name = `${path}/${entry.name}`;
      if (entry.isDirectory()) return NOT_SOURCES.has(entry.name) || entry.name.startsWith('.') ? [] : sourceFiles(name);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [name] : [];
    }),
  );
}

/** Every schema document, relative to the checkout. */
function schemaFiles(folder = SCHEMAS) {
  return readdirSync(join(CHECKOUT, folder), { withFileTypes: true }).flatMap((entry) => {
    const name = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return schemaFiles(name);
    return entry.name.endsWith('.json') ? [name] : [];
  });
}

/** Compiles every source into a folder named by the hash of all inputs (the schemas too), and records it. */
async function build(files, cache) {
  const esbuild = await import('esbuild');
  const inputs = baseInputs();
  const contents = new Map(files.map((file) => [join(CHECKOUT, file), readFileSync(join(CHECKOUT, file))]));
  for (const file of files) inputs[file] = hashOf(contents.get(join(CHECKOUT, file)));
  for (const file of [...schemaFiles(), ...RECIPE]) inputs[file] = hashOf(readFileSync(join(CHECKOUT, file)));
  // Named by what it is built from, how and where: each module's `import.meta.url` is its source's in this checkout,
  // so a copy of the same sources built in another checkout sharing the cache (a worktree linking this node_modules,
  // as `npm run bench -- --against` makes) is a folder of its own.
  const output = `suite-${hashOf(JSON.stringify({ version: MANIFEST_VERSION, vendored: VENDORED, checkout: CHECKOUT, inputs }))}`;
  const compiled = join(cache, output);
  if (!existsSync(compiled)) {
    mkdirSync(cache, { recursive: true });
    const temporary = `${compiled}.${process.pid}.${Date.now()}.tmp`;
    await esbuild.build({
      absWorkingDir: CHECKOUT,
      entryPoints: files,
      outdir: temporary,
      outbase: CHECKOUT,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
      // The contents hashed above, not a later read: an edit made meanwhile makes the next start rebuild.
      plugins: [
        {
          name: 'hashed-sources',
          setup: (plugin) =>
            plugin.onLoad({ filter: /\.ts$/ }, (source) => ({ contents: importableAlone(source.path, contents.get(source.path), contents), loader: 'ts' })),
        },
      ],
    });
    await bundleVendored(esbuild, join(temporary, 'vendor'));
    // The copy's own contract module compiles them (its imports reach the packages themselves: no loader is registered yet).
    const contract = await import(pathToFileURL(join(temporary, 'harness', 'contract.js')).href);
    writeFileSync(join(temporary, PRECOMPILED_FILE), await contract.precompiledValidatorsSource(join(CHECKOUT, SCHEMAS)));
    try {
      renameSync(temporary, compiled);
    } catch {
      // another process put the same build in place first
      rmSync(temporary, { recursive: true, force: true });
    }
  }
  // A run against a slow target imports each spec file as it starts it, hours later: earlier copies stay a day.
  recordBuild(cache, MANIFEST, { version: MANIFEST_VERSION, output, inputs, checkout: CHECKOUT }, /^suite-/, 24 * 60 * 60 * 1000);
  return compiled;
}

/**
 * A source as its copy is compiled from, for Node to import without a loader: `import.meta.url` is the source's own URL
 * (what a module finds beside it is the checkout's), and each vendored package is its bundle in the copy. The rewrite
 * is of the text: a string holding `from '…'` or `import.meta.url` would be rewritten too (the sources hold none).
 */
function importableAlone(path, contents, sources) {
  const vendorFolder = relative(dirname(relative(CHECKOUT, path)), 'vendor')
    .split(sep)
    .join('/');
  return contents
    .toString()
    .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href))
    .replace(IMPORTED, (whole, before, quote, specifier) => {
      if (specifier in VENDORED) return `${before}${quote}${vendorFolder}/${VENDORED[specifier]}.js${quote}`;
      if (!/^\.\.?\//.test(specifier)) return whole;
      // (a file of the checkout the copy does not hold, e.g. bin/build-cache.mjs: imported where it is)
      const target = join(dirname(path), specifier);
      return sources.has(target.replace(/\.js$/, '.ts')) ? whole : `${before}${quote}${pathToFileURL(target).href}${quote}`;
    });
}

/** What a module imports: `from 'undici'`, `import('./plan.js')`. */
const IMPORTED = /(from\s*|import\(\s*)(['"])([^'"]+)\2/g;

/** Bundles each vendored package into `outdir` (what two of them share, ajv's core, in a chunk of its own). */
async function bundleVendored(esbuild, outdir) {
  const require = createRequire(join(CHECKOUT, 'package.json'));
  const entry = (specifier) => {
    const module = specifier in VENDORED_FROM ? join(CHECKOUT, VENDORED_FROM[specifier]) : specifier;
    const names = Object.keys(require(module)).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
    return `const pkg = require(${JSON.stringify(module)});\nexport default pkg;\nexport const { ${names.join(', ')} } = pkg;\n`;
  };
  await esbuild.build({
    absWorkingDir: CHECKOUT,
    entryPoints: Object.entries(VENDORED).map(([specifier, name]) => ({ in: `vendored:${specifier}`, out: name })),
    bundle: true,
    splitting: true,
    outdir,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    banner: { js: REQUIRE_BANNER },
    plugins: [
      {
        name: 'vendored',
        setup: (plugin) => {
          plugin.onResolve({ filter: /^vendored:/ }, (entryPoint) => ({ path: entryPoint.path.slice('vendored:'.length), namespace: 'vendored' }));
          plugin.onLoad({ filter: /.*/, namespace: 'vendored' }, (entryPoint) => ({ contents: entry(entryPoint.path), resolveDir: CHECKOUT, loader: 'js' }));
        },
      },
    ],
  });
}

/**
 * The folder of the compiled copy of the current sources, built if it is missing or stale; null when it cannot be built.
 * `cache`: the folder of the copies (tests give their own).
 */
export async function compiledSuite(cache = CACHE) {
  const files = sourceFiles();
  return (
    freshOutput(cache, MANIFEST, MANIFEST_VERSION, [...BASE_INPUTS, ...files, ...schemaFiles(), ...RECIPE], { checkout: CHECKOUT }) ??
    (await build(files, cache).catch(() => null))
  );
}

/**
 * The environment that lets the vitest worker threads of another process (the matrices' workers, which run through
 * tsx themselves) import the suite from the compiled copy; nothing when it cannot be built.
 */
export async function compiledSuiteEnv() {
  const compiled = await compiledSuite();
  return compiled ? envOf(compiled) : {};
}

/** The variables naming the compiled copy and its validators, for this process's threads and the processes it starts. */
const envOf = (compiled) => ({ [COMPILED_ENV]: compiled, [PRECOMPILED_ENV]: join(compiled, PRECOMPILED_FILE) });

/**
 * Imports the suite's module at `path` (relative to the checkout, a `.ts` source) with what it imports: from the
 * compiled copy, a tree of plain JavaScript Node imports without a loader, when there is one (this process's threads and
 * the processes it starts then find the copy through the environment: `compiledCopyOf`); else the sources through tsx,
 * `beforeTsx` called first.
 */
export async function importSuite(path, beforeTsx) {
  const compiled = await compiledSuite();
  if (!compiled) {
    await beforeTsx?.();
    await (await import('tsx/esm/api')).register();
    return import(pathToFileURL(join(CHECKOUT, path)).href);
  }
  Object.assign(process.env, envOf(compiled));
  return import(pathToFileURL(join(compiled, path.replace(/\.ts$/, '.js'))).href);
}
