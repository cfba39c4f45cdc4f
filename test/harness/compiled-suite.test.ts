// The command line runs the suite from a compiled copy of its sources (bin/typescript.mjs): one JavaScript file per
// TypeScript source and the schemas' validators, built once, rebuilt when a source or a schema changes, imported by Node
// without a loader under the sources' own names; where it cannot be built, tsx runs the sources.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledSuite } from '../../bin/typescript.mjs';
import { precompiledValidators } from '../../harness/contract.js';
import { conformance } from '../safety/support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
const dir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'compiled-suite-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Manifest = { output: string; inputs: Record<string, string> };
const MANIFEST = 'suite-build.json';
const manifestOf = (cache: string) => JSON.parse(readFileSync(join(cache, MANIFEST), 'utf8')) as Manifest;
const writeManifest = (cache: string, manifest: Manifest) => writeFileSync(join(cache, MANIFEST), JSON.stringify(manifest));

describe('the compiled copy of the suite', () => {
  it('holds one JavaScript file per source of the suite (not the emulator, not the self-tests), reused while nothing changed', async () => {
    const cache = join(dir, 'fresh');
    const compiled = (await compiledSuite(cache))!;
    expect(compiled).toBe(join(cache, manifestOf(cache).output));
    const sources = Object.keys(manifestOf(cache).inputs).filter((file) => file.endsWith('.ts'));
    expect(sources).toEqual(expect.arrayContaining(['cli/main.ts', 'harness/check.ts', 'specs/part3/firewalls.spec.ts', 'specs/vitest.config.ts']));
    expect(sources.filter((file) => /^(emulator|test|scripts)\//.test(file))).toEqual([]);
    expect(sources.filter((file) => !existsSync(join(compiled, file.replace(/\.ts$/, '.js'))))).toEqual([]);
    // The schemas' validators, compiled with the copy from the schemas it lists as inputs.
    expect(Object.keys(manifestOf(cache).inputs)).toContain('schemas/common/list-envelope.json');
    expect(Object.keys(precompiledValidators(join(compiled, 'validators.cjs')) ?? {})).toEqual(
      expect.arrayContaining(['resources/domain', 'lists/resources/domain']),
    );
    const built = statSync(compiled).mtimeMs;
    expect(await compiledSuite(cache)).toBe(compiled);
    expect(statSync(compiled).mtimeMs).toBe(built);
  }, 60_000);

  it('is checked again when a source is not what it was built from, or a source is new (the manifest made anew)', async () => {
    const cache = join(dir, 'stale');
    const compiled = (await compiledSuite(cache))!;
    const manifest = manifestOf(cache);
    const [file, hash] = Object.entries(manifest.inputs).find(([name]) => name.endsWith('.ts'))!;
    writeManifest(cache, { ...manifest, inputs: { ...manifest.inputs, [file]: `${hash}0` } });
    expect(await compiledSuite(cache)).toBe(compiled);
    expect(manifestOf(cache).inputs[file]).toBe(hash);
    const { [file]: _new, ...withoutFile } = manifest.inputs;
    writeManifest(cache, { ...manifest, inputs: withoutFile });
    expect(await compiledSuite(cache)).toBe(compiled);
    expect(manifestOf(cache).inputs[file]).toBe(hash);
  }, 60_000);

  it("is each checkout's own, even of the same sources in a cache they share: its modules' import.meta.url name that checkout", async () => {
    // (`npm run bench -- --against` makes such a checkout: a worktree linking this node_modules, removed afterwards.)
    const cache = join(dir, 'shared');
    const ours = (await compiledSuite(cache))!;
    const other = mkdtempSync(join(tmpdir(), 'conformance-other-checkout-'));
    try {
      for (const file of Object.keys(manifestOf(cache).inputs)) cpSync(join(ROOT, file), join(other, file));
      symlinkSync(join(ROOT, 'node_modules'), join(other, 'node_modules'));
      const build = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { compiledSuite } = await import(${JSON.stringify(pathToFileURL(join(other, 'bin', 'typescript.mjs')).href)});
console.log(await compiledSuite(${JSON.stringify(cache)}));`,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
      const theirs = build.stdout.trim();
      expect(theirs, build.stderr).not.toBe(ours);
      expect(readFileSync(join(theirs, 'cli', 'version.js'), 'utf8')).toContain(pathToFileURL(join(other, 'cli', 'version.ts')).href);
      expect(await compiledSuite(cache)).toBe(ours);
      expect(readFileSync(join(ours, 'cli', 'version.js'), 'utf8')).toContain(pathToFileURL(join(ROOT, 'cli', 'version.ts')).href);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 120_000);

  it('is not built where the cache cannot be written (tsx runs the sources then)', async () => {
    writeFileSync(join(dir, 'a-file'), '');
    expect(await compiledSuite(join(dir, 'a-file', 'cache'))).toBeNull();
  });

  /** What `script` prints, run by Node as an ES module in the checkout (failing on anything it writes to standard error). */
  const runScript = (script: string, env: NodeJS.ProcessEnv = {}) => {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, ...env },
    });
    expect(child.stderr).toBe('');
    return JSON.parse(child.stdout) as unknown;
  };

  it("is imported by Node as it is, under the sources' names: a module's import.meta.url is its .ts file in the checkout", () => {
    // cli/version.ts reads ../package.json beside its import.meta.url: the checkout's, since the copy has none.
    const { version, compiled, loaders } = runScript(`const nodeModule = (await import('node:module')).default;
const loaders = [];
nodeModule.register = (specifier) => loaders.push(String(specifier));
const { importSuite } = await import('./bin/typescript.mjs');
const { versionLine } = await importSuite('cli/version.ts');
console.log(JSON.stringify({ version: versionLine(), compiled: process.env.CONFORMANCE_COMPILED_SUITE, loaders }));`) as {
      version: string;
      compiled: string;
      loaders: string[];
    };
    const { version: packageVersion } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version.startsWith(`${packageVersion} (documents `)).toBe(true);
    expect(existsSync(join(compiled, 'cli', 'version.js'))).toBe(true);
    expect(existsSync(join(compiled, 'package.json'))).toBe(false);
    expect(loaders).toEqual([]);
  }, 30_000);

  it('imports undici and ajv from bundles beside the copy, which do what the packages do', () => {
    const outcome = runScript(`const { importSuite } = await import('./bin/typescript.mjs');
const { createRequire } = await import('node:module');
const { HttpClient } = await importSuite('harness/http.ts');
const { validateValue } = await importSuite('harness/contract.ts');
new HttpClient('http://127.0.0.1:9', 1000);
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => /node_modules\\/(undici|ajv|ajv-formats)\\//.test(file));
console.log(JSON.stringify({ loaded, valid: validateValue('requests/tag-create', { label: 'tag-one' }), missing: validateValue('requests/tag-create', {}).map((v) => v.rule) }));`);
    // Not one of the packages' own CommonJS modules was loaded, and the contract judges as it does from them.
    expect(outcome).toEqual({ loaded: [], valid: [], missing: ['P2.tag-create.label.required'] });
  }, 30_000);

  it("holds a spec file's copy for one target of a batch (`<file>.ts?target=<key>`) as a module of its own", () => {
    const outcome = runScript(`const { importSuite } = await import('./bin/typescript.mjs');
const { compiledCopyOf } = await importSuite('harness/compiled-copy.ts');
const { pathToFileURL } = await import('node:url');
const copyFor = (key) => { const [path, query] = compiledCopyOf('rules/endpoints.ts?target=' + key).split('?'); return import(pathToFileURL(path).href + '?' + query); };
const [one, two, oneAgain] = await Promise.all(['1', '2', '1'].map(copyFor));
console.log(JSON.stringify({ count: one.endpoints.length, apart: one.endpoints !== two.endpoints, same: one.endpoints === oneAgain.endpoints }));`);
    expect(outcome).toEqual({ count: 127, apart: true, same: true });
  }, 30_000);

  it('runs a narrowed run with no module loader registered in any thread (neither vite for the configuration nor vitest in its workers)', async () => {
    const hook = join(dir, 'loaders.cjs');
    const log = join(dir, 'loaders.log');
    writeFileSync(
      hook,
      `const nodeModule = require('node:module'); const register = nodeModule.register;
nodeModule.register = function (specifier, ...rest) { require('node:fs').appendFileSync(${JSON.stringify(log)}, String(specifier).slice(0, 80) + '\\n'); return register.call(this, specifier, ...rest); };`,
    );
    const run = await conformance(['run', '--rules', 'P2.tag-create.label.required', '--no-allure', '--progress', 'quiet', '--out', join(dir, 'narrowed')], {
      env: { NODE_OPTIONS: `--require ${hook}` },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []).toEqual([]);
  }, 60_000);

  it("keeps the checks' harness out of a run's main thread: it starts the workers sooner (a narrowed run 8 % less CPU)", async () => {
    // (Building the copy compiles the validators with its contract module: built first, the run finds it.)
    await compiledSuite();
    // A loader of this test's own, in the command's main thread only (not the emulator's process), logs each module.
    const hooks = join(dir, 'module-log.mjs');
    const log = join(dir, 'modules.log');
    writeFileSync(
      hooks,
      `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`,
    );
    const preload = join(dir, 'module-log-register.mjs');
    writeFileSync(
      preload,
      `import { register } from 'node:module';
if (process.argv[1]?.endsWith('conformance.js')) register(${JSON.stringify(pathToFileURL(hooks).href)});`,
    );
    const run = await conformance(['run', '--rules', 'P2.tag-create.label.required', '--no-allure', '--progress', 'quiet', '--out', join(dir, 'main-thread')], {
      env: { NODE_OPTIONS: `--import ${pathToFileURL(preload).href}` },
    });
    expect(run.code, run.stderr).toBe(0);
    const loaded = readFileSync(log, 'utf8').trim().split('\n');
    expect(loaded).toContainEqual(expect.stringMatching(/\/harness\/http\.js$/));
    const checksOnly = /\/harness\/(check|contract)\.js$|\/node_modules\/(fast-check|chai|allure-vitest|allure-js-commons|@vitest\/expect)\//;
    expect(loaded.filter((url) => checksOnly.test(url))).toEqual([]);
  }, 60_000);
});
