// A target that echoes the token everywhere (error reasons, headers, bodies, encoded copies, resource ids) and a base
// URL carrying `user:password@`: no artefact of the run — results.json, junit.xml, compliance.html, the Allure
// results and single-file report (base64 inside), the cleanup ledger, standard output and error — nor `sweep`'s
// output holds the token or the password in any form, whole or in part. And a response nested thousands of levels
// deep is judged, with evidence, rather than ending its check in a stack overflow.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformance } from '../safety/support.js';
import { hostile, startFakeServer, type FakeServer } from './fake-servers.js';
import { WALL_LIMIT_MS, expectVerdictNotCrash, ruleOf, runConformance, type RunOutcome } from './conformance-run.js';

const TOKEN = 'EchoTok-7Qz9XvK2pL4mWd8';
const PASSWORD = 'Cr3dPassw0rd-x9Hq';
/** The account (401 with the token in the reason), a domain whose id is the token (created, viewed, deleted). */
const RULES = ['P1.account.serves.get-account', 'P1.account.auth.get-account', 'P3.domains.serves.get-domains-id', 'P3.domains.serves.get-domains'];
const FILES = ['specs/generic/part1', 'specs/generic/part3'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** `text` and what its base64 runs (at every alignment, twice over), hex runs and percent-escapes decode to. */
function decodedViews(text: string, levels = 2): string[] {
  const views = [text, text.replace(/%[0-9a-f]{2}/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)))];
  const hex = (text.match(/[0-9a-f]{16,}/gi) ?? []).flatMap((run) => [0, 1].map((shift) => Buffer.from(run.slice(shift), 'hex').toString('latin1')));
  views.push(hex.join('\n'));
  const runs = text.match(/[A-Za-z0-9+/_-]{16,}/g) ?? [];
  const decoded = runs
    .flatMap((run) => [0, 1, 2, 3].map((shift) => Buffer.from(run.slice(shift).replaceAll('-', '+').replaceAll('_', '/'), 'base64').toString('latin1')))
    .join('\n');
  views.push(...(levels > 1 ? decodedViews(decoded, levels - 1) : [decoded]));
  return views;
}

/** Where a piece of `secret` (its start, its end: a half cut at a limit counts) shows in any view of `text`. */
function leaksOf(where: string, text: string): string[] {
  const pieces = [TOKEN, PASSWORD].flatMap((secret) => [secret.slice(0, 10), secret.slice(-10)]);
  return decodedViews(text)
    .flatMap((view) => pieces.filter((piece) => view.includes(piece)))
    .map((piece) => `${where}: "${piece}"`);
}

let server: FakeServer;
let run: RunOutcome;
let url: string;

beforeAll(async () => {
  server = await startFakeServer(hostile.echoToken());
  url = server.url.replace('http://', `http://deployer:${PASSWORD}@`);
  run = await runConformance([
    '--base-url',
    url,
    '--token',
    TOKEN,
    '--rules',
    RULES.join(','),
    '--timeout',
    '3000',
    '--consistency-window',
    '0',
    '--progress',
    'plain',
    ...FILES,
  ]);
}, WALL_LIMIT_MS + 30_000);

afterAll(async () => {
  await server.close();
});

describe('a target echoing the token, behind a base URL with credentials', () => {
  it('is judged: the echoed 401 fails the account rule, the domain made with the token as its id is deleted', () => {
    const results = expectVerdictNotCrash(run);
    expect(ruleOf(results, 'P1.account.serves.get-account').status).toBe('fail');
    expect(results.checkList.find((check) => check.rules.includes('P1.account.serves.get-account'))?.message).toContain('invalid token: Bearer [REDACTED]');
    expect(server.seen.some((request) => request.method === 'DELETE' && request.path.includes(encodeURIComponent(TOKEN)))).toBe(true);
  });

  it('leaves no form of the token or the password in any file it wrote, nor on standard output or error', () => {
    const files = filesUnder(run.out);
    const names = files.map((file) => file.slice(run.out.length));
    expect(names).toEqual(expect.arrayContaining(['/results.json', '/compliance.html', '/junit.xml', '/allure-report/index.html']));
    expect(names.some((name) => name.startsWith('/allure-results/'))).toBe(true);
    expect(names.some((name) => name.endsWith('.jsonl'))).toBe(true);
    const texts: Array<[string, string]> = [
      ['standard output', run.stdout],
      ['standard error', run.stderr],
      ...files.map((file): [string, string] => [file.slice(run.out.length), readFileSync(file, 'latin1')]),
    ];
    expect(texts.flatMap(([where, text]) => leaksOf(where, text))).toEqual([]);
    // The ledger says an entry was kept from disk for carrying the token (and that it was deleted).
    const ledger = files
      .filter((file) => file.endsWith('.jsonl'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('');
    expect(ledger).toContain('its id carries a token');
  });

  it('sweep: its lines (the echoed refusal that stops it included) show no form of either', async () => {
    const runId = /run (\w+) against/.exec(run.stderr)![1]!;
    const swept = await conformance(['sweep', '--run-id', runId, '--base-url', url, '--token', TOKEN, '--out', run.out, '--timeout', '3000']);
    expect(swept.code, swept.stderr).toBe(2);
    expect(swept.stderr).toContain('invalid token: Bearer [REDACTED]');
    expect([...leaksOf('sweep standard output', swept.stdout), ...leaksOf('sweep standard error', swept.stderr)]).toEqual([]);
  }, 30_000);
});

describe('a response nested 5,000 levels deep (10 KB of valid JSON)', () => {
  it(
    'is judged against its schema with evidence, never a stack overflow',
    async () => {
      const deep = await startFakeServer(hostile.deepJson(5000));
      try {
        const outcome = await runConformance([
          '--base-url',
          deep.url,
          '--token',
          TOKEN,
          '--rules',
          'P1.account.serves.get-account,P1.account.types',
          '--timeout',
          '3000',
          '--consistency-window',
          '0',
          '--no-allure',
          '--progress',
          'quiet',
          'specs/generic/part1',
        ]);
        const results = expectVerdictNotCrash(outcome);
        expect(JSON.stringify(results)).not.toMatch(/call stack/i);
        expect(results.checks.error).toBe(0);
        const types = ruleOf(results, 'P1.account.types');
        expect(types.status).toBe('fail');
        expect(JSON.stringify(types.checks.flatMap((check) => check.evidence ?? []))).toContain('nested deeper than 64 levels');
      } finally {
        await deep.close();
      }
    },
    WALL_LIMIT_MS + 30_000,
  );
});
