// A run stopped midway against a separately started emulator: SIGTERM stops it, deletes what its ledger holds and
// writes the results so far; a SIGKILLed run cleans nothing, and `sweep --run-id` removes everything it left.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { pendingOfRun } from '../../harness/cleanup.js';
import { api, conformance, newSince, snapshot, startEmulator, tempDir } from './support.js';

const TOKEN = 'interrupt-test-token-5b21';
/** Spec files that keep creating resources (instances, firewalls, domains, tags) for several seconds. */
const FILES = ['part3/firewalls', 'part3/domains', 'part2/tags'];
const emulators: Array<{ stop: () => void }> = [];
afterAll(() => Promise.all(emulators.map((emulator) => emulator.stop())));

/** An emulator of its own for each test (they run at the same time), seen from outside the suite. */
async function target() {
  const emulator = await startEmulator(TOKEN);
  emulators.push(emulator);
  const client = api(emulator.url, TOKEN);
  return { url: emulator.url, client, before: await snapshot(client) };
}

/** Starts a run and sends `signal` once its ledger holds `pending` resources not yet deleted (then `again`, if given). */
async function runUntilPending(url: string, runId: string, out: string, pending: number, signal: NodeJS.Signals, again?: NodeJS.Signals) {
  let child: ChildProcess | undefined;
  const finished = conformance(
    ['run', '--base-url', url, '--token', TOKEN, '--out', out, '--run-id', runId, '--seed', '11', '--no-allure', '--progress', 'quiet', ...FILES],
    { started: (started) => (child = started) },
  );
  let exited = false;
  void finished.then(() => (exited = true));
  while (pendingOfRun(out, runId).length < pending) {
    if (exited) throw new Error(`the run ended before its ledger held ${pending} resources: ${(await finished).stderr.slice(-1500)}`);
    await sleep(50);
  }
  let said = '';
  child!.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  child!.kill(signal);
  if (again) {
    // At once after the run said it stops: a fixed pause let a quick run finish its cleanup (and exit) first.
    while (!said.includes(`${signal}: stopping the run`) && !exited) await sleep(10);
    child!.kill(again);
  }
  const signalled = Date.now();
  const result = await finished;
  return { ...result, stopMs: Date.now() - signalled };
}

const sweepArgs = (url: string, runId: string, out: string) => ['sweep', '--run-id', runId, '--base-url', url, '--token', TOKEN, '--out', out];

describe.concurrent('a run stopped midway', () => {
  it('on SIGTERM stops within bounded time, deletes what its ledger holds, writes partial results and exits 143; sweep finds nothing more', async () => {
    const out = tempDir('sigterm');
    const { url, client, before } = await target();
    const result = await runUntilPending(url, 'sigterm1', out, 3, 'SIGTERM');
    expect(result.code, result.stderr.slice(-2000)).toBe(143);
    expect(result.stopMs).toBeLessThan(45_000);
    expect(result.stderr).toMatch(/conformance: interrupted by SIGTERM: the results gathered so far are written; cleanup deleted \d+/);
    expect(existsSync(join(out, 'results.json'))).toBe(true);
    expect(pendingOfRun(out, 'sigterm1')).toEqual([]);
    const leftAfterSignal = await newSince(client, before);
    const swept = await conformance(sweepArgs(url, 'sigterm1', out));
    expect(swept.code, swept.stdout + swept.stderr).toBe(0);
    // Only what a stopped worker was creating at the very moment of the signal may have escaped the run's cleanup.
    expect(leftAfterSignal.length).toBeLessThanOrEqual(3);
    expect(await newSince(client, before)).toEqual([]);
  }, 120_000);

  it('after SIGKILL leaves its resources, and sweep --run-id deletes every one of them (twice: the second finds nothing)', async () => {
    const out = tempDir('sigkill');
    const { url, client, before } = await target();
    const result = await runUntilPending(url, 'sigkill1', out, 6, 'SIGKILL');
    expect(result.signal).toBe('SIGKILL');
    const left = await newSince(client, before);
    expect(left.length).toBeGreaterThanOrEqual(3);
    const swept = await conformance(sweepArgs(url, 'sigkill1', out));
    expect(swept.code, swept.stdout + swept.stderr).toBe(0);
    expect(swept.stdout).toMatch(/^deleted (instance|firewall|domain|tag) /m);
    expect(await newSince(client, before)).toEqual([]);
    const again = await conformance(sweepArgs(url, 'sigkill1', out));
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/sweep: 0 deleted, \d+ already gone, 0 could not be deleted/);
  }, 120_000);

  it('on a second SIGINT exits at once (130), naming the sweep that deletes what is left', async () => {
    const out = tempDir('sigint-twice');
    const { url, client, before } = await target();
    const result = await runUntilPending(url, 'siginttwo', out, 1, 'SIGINT', 'SIGINT');
    expect(result.code, result.stderr.slice(-2000)).toBe(130);
    expect(result.stopMs).toBeLessThan(3000);
    expect(result.stderr).toMatch(
      /conformance: second SIGINT: exiting at once; what the run created may remain: conformance sweep --run-id siginttwo --base-url/,
    );
    expect((await conformance(sweepArgs(url, 'siginttwo', out))).code).toBe(0);
    expect(await newSince(client, before)).toEqual([]);
  }, 120_000);
});
