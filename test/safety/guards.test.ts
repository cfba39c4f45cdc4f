// The run's safety settings, seen from the target's side through a recording proxy: --read-only sends nothing but
// GET, destructive operations reach the target only with --allow-destructive, and --max-instances bounds the
// instances a run creates. Each held-back check reports its verdict with the reason.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';
import { conformance, startEmulator, startRecordingProxy, tempDir, type RecordedRequest } from './support.js';

const TOKEN = 'guards-test-token-0c44';
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  proxy = await startRecordingProxy(emulator.url);
});
afterAll(async () => {
  proxy?.close();
  await emulator?.stop();
});

/** A narrowed run through the proxy: its exit code, results, and the requests that reached the target. */
async function run(args: string[]) {
  const out = tempDir('guards');
  const first = proxy.requests.length;
  const result = await conformance([
    'run',
    '--base-url',
    proxy.url,
    '--token',
    TOKEN,
    '--out',
    out,
    '--seed',
    '3',
    '--runs',
    '5',
    '--no-allure',
    '--progress',
    'quiet',
    ...args,
  ]);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
  return { code: result.code, stderr: result.stderr, results, sent: proxy.requests.slice(first), out };
}

/** The messages of the checks that ended in `verdict`. */
function messages(results: Results, verdict: string): string[] {
  return results.rules.flatMap((rule) => rule.checks.filter((check) => check.verdict === verdict).map((check) => check.message ?? ''));
}

const line = (request: RecordedRequest) => `${request.method} ${request.path.split('?')[0]}`;
const DESTRUCTIVE =
  /^(POST \/v4\/account\/cancel|POST \/v4\/account\/credit-card|POST \/v4\/account\/entity-transfers\/[^/]+\/accept|PUT \/v4\/account|PUT \/v4\/monitor\/plan|POST \/v4\/account\/events\/\d+\/seen)$/;

/** One run without --allow-destructive and with a budget of 2 instances, shared by the checks below it. */
const DESTRUCTIVE_FILES = ['part1/account', 'part3/monitoring'];
let guarded: ReturnType<typeof run> | undefined;
const guardedRun = () => (guarded ??= run(['--max-instances', '2', 'part2/compute', ...DESTRUCTIVE_FILES]));

describe('safety settings of a run', () => {
  it('--read-only sends only GET requests; every check needing a write reports disabled with the reason', async () => {
    const { code, results, sent } = await run(['--read-only', 'part3/firewalls', 'part3/domains']);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((request) => request.method !== 'GET').map(line)).toEqual([]);
    const disabled = messages(results, 'disabled');
    expect(disabled.filter((message) => /^read-only run \(--read-only\): the check needs (POST|PUT|DELETE) \/v4\//.test(message)).length).toBeGreaterThan(20);
    expect(results.summary.fail).toBe(0);
    expect(code).toBe(0);
  }, 90_000);

  it('--read-only records nothing it did not create: no ledger entry, no budget slot, no leftovers reported', async () => {
    // part2/compute records a tag before the request that would make it, and asks the instance budget for creates.
    const { code, stderr, results, out } = await run(['--read-only', '--max-instances', '2', 'part2/compute']);
    const files = readdirSync(join(out, 'runs', results.run.id), { recursive: true, encoding: 'utf8' });
    expect(files.filter((file) => file.endsWith('.jsonl') || file.startsWith('budget/'))).toEqual([]);
    expect(stderr).not.toMatch(/could not be deleted/);
    expect(messages(results, 'skip').filter((message) => /budget/.test(message))).toEqual([]);
    expect(code).toBe(0);
  }, 90_000);

  it('--max-instances 2: no more than 2 instances are created; checks needing more report skip with the budget', async () => {
    const { code, results, sent } = await guardedRun();
    const created = sent.filter(
      (request) => request.status >= 200 && request.status < 300 && /^POST \/v4\/compute\/instances(\/\d+\/clone)?$/.test(line(request)),
    );
    expect(created.length).toBeGreaterThan(0);
    expect(created.length).toBeLessThanOrEqual(2);
    // Checks the budget cannot pay for skip with the budget named: held back by the run's plan, or refused when it runs out.
    expect(
      messages(results, 'skip').filter((message) =>
        /budget of 2 new instances.*\(--max-instances\)|the run's budget of 2 new instances is used up/.test(message),
      ).length,
    ).toBeGreaterThan(0);
    expect(code).toBe(0);
  }, 90_000);

  it('without --allow-destructive, account cancel, credit card, account and plan updates never reach the target; their checks say why', async () => {
    const { results, sent } = await guardedRun();
    expect(sent.map(line).filter((request) => DESTRUCTIVE.test(request))).toEqual([]);
    const reasons = [...messages(results, 'disabled'), ...messages(results, 'skip')].filter((message) => message.includes('--allow-destructive'));
    expect(reasons.length).toBeGreaterThan(3);
  }, 90_000);

  // Last: the emulator's account is cancelled afterwards.
  it('with --allow-destructive the same checks do send them', async () => {
    const { sent } = await run(['--allow-destructive', ...DESTRUCTIVE_FILES]);
    expect(new Set(sent.map(line).filter((request) => DESTRUCTIVE.test(request)))).toEqual(
      new Set(['POST /v4/account/cancel', 'POST /v4/account/credit-card', 'PUT /v4/account', 'PUT /v4/monitor/plan']),
    );
  }, 90_000);
});
