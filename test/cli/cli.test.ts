import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = new URL('../../bin/conformance.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-'));

function conformance(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const ACCOUNT_OK = {
  active_promotions: [],
  active_since: '2018-01-01T00:01:01',
  address_1: '123 Main Street',
  address_2: 'Suite A',
  balance: 200,
  balance_uninvoiced: 145,
  capabilities: ['Linodes'],
  city: 'Philadelphia',
  company: 'Acme',
  country: 'US',
  credit_card: { expiry: '11/2022', last_four: 1111 },
  email: 'john.smith@example.com',
  euuid: '3d3a1a8f-7b3c-4b8e-9c57-2f0c1f9e8a11',
  first_name: 'John',
  last_name: 'Smith',
  phone: '215-555-1212',
  state: 'PA',
  tax_id: 'ATU99999999',
  zip: '19102-1234',
};

describe('conformance command line', () => {
  it('prints the ledger and the catalogue as JSON', () => {
    const rules = conformance(['rules', '--json']);
    expect(rules.code).toBe(0);
    const ledger = JSON.parse(rules.stdout) as Array<{ id: string }>;
    expect(ledger.length).toBeGreaterThan(300);
    const catalogue = conformance(['endpoints', '--json']);
    expect(catalogue.code).toBe(0);
    const rows = JSON.parse(catalogue.stdout) as Array<{ method: string; path: string; rules: string[] }>;
    expect(rows).toHaveLength(127);
    expect(rows.every((row) => row.rules.length > 0)).toBe(true);
  });

  it('maps the documents: every unit judged or excused, and a new version of them shows what is unmapped', () => {
    const coverage = conformance(['coverage', '--documents', new URL('../../../shared/spec/', import.meta.url).pathname]);
    expect(coverage.code, coverage.stdout).toBe(0);
    expect(coverage.stdout).toMatch(/^coverage: \d+ units, \d+ judged by rules, \d+ excused, 0 unmapped$/m);
    const changed = mkdtempSync(join(tmpdir(), 'conformance-documents-'));
    for (const name of readdirSync(new URL('../../../shared/spec/', import.meta.url)))
      writeFileSync(join(changed, name), readFileSync(new URL(`../../../shared/spec/${name}`, import.meta.url), 'utf8'));
    const part3 = join(changed, 'part3-domains-monitoring-networking.md');
    writeFileSync(
      part3,
      readFileSync(part3, 'utf8').replace(
        'Status cannot be set to `deleted` by update.',
        'Status cannot be set to `deleted` by update. A firewall has at most 9 devices.',
      ),
    );
    const after = conformance(['coverage', '--documents', changed]);
    expect(after.code).toBe(1);
    expect(after.stdout).toContain('unmapped: [Firewall status] A firewall has at most 9 devices.');
    const map = JSON.parse(conformance(['coverage', '--json']).stdout) as Array<{
      units: number;
      map: Array<{ text: string; rules?: string[]; none?: string }>;
    }>;
    expect(map.map((entry) => entry.map.length)).toEqual(map.map((entry) => entry.units));
    expect(map[2]!.map.find((unit) => unit.text === 'Status cannot be set to `deleted` by update.')?.rules).toContain('P3.firewall.status.update-not-deleted');
  });

  it('validates a body from a file and from standard input', () => {
    const file = join(dir, 'account.json');
    writeFileSync(file, JSON.stringify(ACCOUNT_OK));
    expect(conformance(['validate', '--endpoint', 'GET /v4/account', '--status', '200', '--file', file]).code).toBe(0);
    const bad = conformance(['validate', '--endpoint', 'GET /v4/account', '--status', '200'], JSON.stringify({ ...ACCOUNT_OK, country: 'USA' }));
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/FAIL P1\.account\.country\.iso-3166 at \/country/);
    // A length bound of the resource table is inferred on what a server returns: a warning, still exit 0.
    const long = conformance(['validate', '--endpoint', 'GET /v4/account', '--status', '200'], JSON.stringify({ ...ACCOUNT_OK, city: 'x'.repeat(25) }));
    expect(long.code).toBe(0);
    expect(long.stdout).toMatch(/WARN P1\.account\.city\.max-24\.returned at \/city/);
  });

  it('judges error bodies, {} and concrete paths', () => {
    expect(conformance(['validate', '--endpoint', 'GET /v4/domains/12', '--status', '404'], '{"errors":[{"reason":"Not found","field":null}]}').code).toBe(0);
    const noErrors = conformance(['validate', '--endpoint', 'GET /v4/domains/12', '--status', '404'], '{"message":"Not found"}');
    expect(noErrors.code).toBe(1);
    expect(noErrors.stdout).toMatch(/P1\.errors\.body\.errors/);
    expect(conformance(['validate', '--endpoint', 'POST /v4/account/events/7/seen', '--status', '200'], '{}').code).toBe(0);
    expect(conformance(['validate', '--endpoint', 'POST /v4/account/events/7/seen', '--status', '200'], '{"ok":true}').code).toBe(1);
  });

  it('exits 2 with one clear line on bad usage', () => {
    for (const args of [
      ['frobnicate'],
      ['rules', '--wat'],
      ['validate', '--endpoint', 'GET /v4/nowhere', '--status', '200'],
      ['validate', '--status', '200'],
      ['coverage', '--documents', '/nowhere'],
    ]) {
      const result = conformance(args, '{}');
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
    }
    const garbage = conformance(['validate', '--endpoint', 'GET /v4/account', '--status', '200'], '{not json');
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toMatch(/not valid JSON/);
  });

  it('validates thousands of bodies in a batch within seconds', () => {
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const country = i % 3 === 0 ? 'USA' : 'US';
      lines.push(JSON.stringify({ endpoint: 'GET /v4/account', status: 200, body: { ...ACCOUNT_OK, country } }));
    }
    lines.push('{broken');
    const file = join(dir, 'batch.jsonl');
    writeFileSync(file, lines.join('\n'));
    const started = Date.now();
    const result = conformance(['validate', '--batch', file]);
    const elapsed = Date.now() - started;
    const verdicts = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { line: number; valid?: boolean; error?: string });
    expect(verdicts).toHaveLength(3001);
    expect(verdicts.filter((verdict) => verdict.valid === false)).toHaveLength(1000);
    expect(verdicts.at(-1)!.error).toMatch(/not valid JSON/);
    expect(result.code).toBe(2);
    expect(elapsed).toBeLessThan(10_000);
  });
});
