// Against a target given by URL with tokens (a separately started emulator with one fault): the replay command names
// the tokens as environment variables, the curl command sends the failing request again with $TOKEN and gets the
// same answer, and no token reaches any output of run, report, expectations or diff.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedEmulator } from '../../harness/embedded.js';
import type { Results, RuleCheck } from '../../reports/results.js';
import { api } from '../safety/support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/conformance.js');
const RULE = 'P3.firewall.rules.max-25';
const TOKEN = 'gate-full-token-000001';
const work = mkdtempSync(join(tmpdir(), 'conformance-gate-tokens-'));
const out = join(work, 'out');
const printed: string[] = [];

function conformance(args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  printed.push(result.stdout, result.stderr);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

let emulator: EmbeddedEmulator | undefined;
let run: ReturnType<typeof conformance>;
/** A token of exactly domains:read_only, minted by the emulator (the pre-flight stops a run given one it refuses). */
let scoped: string;
/** The rule's failing entries with a body to send again: the 26 rules of its scenario, and a generated body. */
let failures: RuleCheck[];
let failing: RuleCheck;

beforeAll(async () => {
  emulator = await startEmbedded(TOKEN, [RULE]);
  scoped = await api(emulator.url, TOKEN).mintToken({ scopes: ['domains:read_only'] });
  run = conformance([
    'run',
    '--base-url',
    emulator.url,
    '--token',
    TOKEN,
    '--token-scoped',
    `domains:read_only=${scoped}`,
    '--rules',
    RULE,
    '--seed',
    '3',
    '--region',
    'us-east',
    '--consistency-window',
    '1000',
    '--out',
    out,
    '--progress',
    'plain',
    '--no-allure',
    // The tokens are under test, not shrinking: its ~1,500 steps cost this run about 10 s of CPU.
    '--no-shrink',
  ]);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
  failures = results.rules.find((rule) => rule.id === RULE)!.checks.filter((entry) => entry.verdict === 'fail' && entry.curl?.includes('--data-raw'));
  failing = failures[0]!;
}, 320_000);

afterAll(() => emulator?.stop());

describe('reproducing a failure on a target given by URL', () => {
  it('replays with the run settings and the tokens named as environment variables', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    expect(failing.replay).toMatch(
      new RegExp(
        `^npx conformance run --base-url ${emulator!.url} --token "\\$CONFORMANCE_TOKEN" --token-scoped "domains:read_only=\\$CONFORMANCE_TOKEN_DOMAINS_READ_ONLY" .*--consistency-window 1000 .*--rules ${RULE} --seed 3 `,
      ),
    );
  });

  // (a body past the 4,000 characters the evidence keeps of others among them: its curl once sent it cut, malformed)
  it('gives a curl command that, with $TOKEN set, gets the same answer from the target, however long its body', () => {
    expect(failures.some((entry) => entry.curl!.length > 5000)).toBe(true);
    for (const entry of failures) {
      expect(entry.curl).toContain(`${emulator!.url}/v4/networking/firewalls -H "Authorization: Bearer $TOKEN"`);
      const answer = execFileSync('bash', ['-c', entry.curl!], { encoding: 'utf8', env: { ...process.env, TOKEN }, timeout: 30_000 });
      expect(answer.split('\r\n')[0], answer.slice(-300)).toBe(`HTTP/1.1 ${entry.evidence![entry.failingExchange!]!.status} OK`);
    }
  });

  it('never shows a token, in what the commands print or in any file they write', () => {
    const expectations = join(work, 'gate.json');
    expect(conformance(['expectations', '--from', join(out, 'results.json'), '--out', expectations]).code).toBe(0);
    expect(conformance(['report', '--from', join(out, 'results.json'), '--out', join(work, 'again')]).code).toBe(0);
    expect(conformance(['diff', join(out, 'results.json'), join(out, 'results.json'), '--html', join(work, 'diff.html')]).code).toBe(0);
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
    const written = files(work).map((file) => readFileSync(file, 'utf8'));
    expect(written.length).toBeGreaterThan(5);
    for (const text of [...printed, ...written]) for (const secret of [TOKEN, scoped]) expect(text).not.toContain(secret);
  });
});
