// The command line runs the suite from a compiled copy of its sources (bin/typescript.mjs): one JavaScript file per
// TypeScript source and the schemas' validators, built once, rebuilt when a source or a schema changes, served under the
// sources' own names; where it cannot be built, tsx runs the sources.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledSuite } from '../../bin/typescript.mjs';
import { precompiledValidators } from '../../harness/contract.js';

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

  it('is not built where the cache cannot be written (tsx runs the sources then)', async () => {
    writeFileSync(join(dir, 'a-file'), '');
    expect(await compiledSuite(join(dir, 'a-file', 'cache'))).toBeNull();
  });

  it("runs under the sources' names: a module's import.meta.url is its .ts file in the checkout", () => {
    // cli/version.ts reads ../package.json beside its import.meta.url: the checkout's, since the copy has none.
    const script = `const { registerTypeScript } = await import('./bin/typescript.mjs');
await registerTypeScript();
const { versionLine } = await import('./cli/version.ts');
console.log(JSON.stringify({ version: versionLine(), compiled: process.env.CONFORMANCE_COMPILED_SUITE }));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(child.stderr).toBe('');
    const { version, compiled } = JSON.parse(child.stdout) as { version: string; compiled: string };
    const { version: packageVersion } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version.startsWith(`${packageVersion} (documents `)).toBe(true);
    expect(existsSync(join(compiled, 'cli', 'version.js'))).toBe(true);
    expect(existsSync(join(compiled, 'package.json'))).toBe(false);
  }, 30_000);

  it('serves undici and ajv to the suite from bundles beside the copy, which do what the packages do', () => {
    const script = `const { registerTypeScript } = await import('./bin/typescript.mjs');
await registerTypeScript();
const { createRequire } = await import('node:module');
const { HttpClient } = await import('./harness/http.ts');
const { validateValue } = await import('./harness/contract.ts');
new HttpClient('http://127.0.0.1:9', 1000);
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => /node_modules\\/(undici|ajv|ajv-formats)\\//.test(file));
console.log(JSON.stringify({ loaded, valid: validateValue('requests/tag-create', { label: 'tag-one' }), missing: validateValue('requests/tag-create', {}).map((v) => v.rule) }));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(child.stderr).toBe('');
    // Not one of the packages' own CommonJS modules was loaded, and the contract judges as it does from them.
    expect(JSON.parse(child.stdout)).toEqual({ loaded: [], valid: [], missing: ['P2.tag-create.label.required'] });
  }, 30_000);

  it("serves a spec file's copy for one target of a batch (`<file>.ts?target=<key>`, its `?` escaped as vitest's native runner asks) as a module of its own", () => {
    const script = `const { registerTypeScript } = await import('./bin/typescript.mjs');
await registerTypeScript();
const { pathToFileURL } = await import('node:url');
const source = pathToFileURL('rules/endpoints.ts').href;
const [one, two, oneAgain] = await Promise.all(['1', '2', '1'].map((key) => import(source + '%3Ftarget=' + key)));
console.log(JSON.stringify({ count: one.endpoints.length, apart: one.endpoints !== two.endpoints, same: one.endpoints === oneAgain.endpoints }));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ count: 127, apart: true, same: true });
  }, 30_000);
});
