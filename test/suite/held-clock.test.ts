// A request that, accepted by an active cluster, puts it in the very state being judged (a patch while the cluster is
// updating) shows nothing by the state read before and after it: the earlier update may have ended in between. On a
// target whose clock the run drives, the check holds the run's clock from the read before to the read after, so that
// no other spec file's advance ends the update unseen (a correct cluster was failed so, under load); where the update
// ended anyway (a lagging read showed it after its end, or time ran on its own), the acceptance is sent again after a
// fresh read, and only a second one fails. The six clones of one source judging the limit of five are sent holding
// the clock too.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';
import { ruleOf } from '../hostile/conformance-run.js';
import { send, startFakeServer } from '../hostile/fake-servers.js';
import { quietRun, startEmulator, startRecordingProxy, tempDir, type RecordedRequest } from '../safety/support.js';

const TOKEN = 'held-clock-emulator-token-01';
const emulator = await startEmulator(TOKEN);
afterAll(() => emulator.stop());

/** Whether a check of the run in `out` holds the run's clock (its lock: a file of the run's ledger folder). */
const clockHeld = (out: string) =>
  existsSync(join(out, 'runs')) && readdirSync(join(out, 'runs')).some((runId) => existsSync(join(out, 'runs', runId, 'budget', 'lock-clock-1')));

it("sends the patch judged while a cluster is updating holding the run's clock", async () => {
  const out = tempDir('held-clock');
  const held = new WeakMap<RecordedRequest, boolean>();
  const proxy = await startRecordingProxy(emulator.url, { arrived: (request) => held.set(request, clockHeld(out)) });
  try {
    const run = await quietRun(proxy.url, TOKEN, out, ['--rules', 'P1.database.status.patch-requires-active', '--max-databases', 'unlimited']);
    expect(run.code, run.stderr).toBe(0);
    // The patches a cluster refused after it had accepted one: sent while that patch updated it.
    const accepted = new Set<string>();
    const whileUpdating: boolean[] = [];
    for (const request of proxy.requests) {
      const cluster = /^\/v4\/databases\/mysql\/instances\/(\d+)\/patch$/.exec(request.path)?.[1];
      if (request.method !== 'POST' || !cluster) continue;
      if (request.status >= 200 && request.status < 300) accepted.add(cluster);
      else if (accepted.has(cluster)) whileUpdating.push(held.get(request)!);
    }
    expect(whileUpdating.length).toBeGreaterThan(0);
    expect(whileUpdating.every(Boolean)).toBe(true);
    // The run noted when it last advanced the clock, for a read to come a consistency window after it (untilClockSettled).
    const [runId] = readdirSync(join(out, 'runs'));
    expect(Number(readFileSync(join(out, 'runs', runId!, 'budget', 'clock-advanced'), 'utf8'))).toBeGreaterThan(Date.now() - 120_000);
  } finally {
    proxy.close();
  }
}, 120_000);

it('does not fail a patch accepted once the update had ended unseen, when a fresh read shows it refused', async () => {
  const out = tempDir('held-clock-ended');
  const patched = new Set<string>();
  const ended = new Set<string>();
  // Before the first patch sent to a cluster a patch has put in updating, the proxy lets the target's own clock end
  // the update: the check read `updating` and the patch finds the cluster active, accepts it and updates it again.
  const proxy = await startFakeServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const cluster = method === 'POST' ? /^\/v4\/databases\/mysql\/instances\/(\d+)\/patch$/.exec(path)?.[1] : undefined;
    if (cluster && patched.has(cluster) && !ended.has(cluster)) {
      ended.add(cluster);
      const advance = Buffer.from(JSON.stringify({ advance_seconds: 20 * 60 }));
      await send(emulator.url, 'POST', '/__control/clock', { ...request.headers, 'content-type': 'application/json' }, advance);
    }
    const answer = await send(emulator.url, method, path, request.headers, chunks.length ? Buffer.concat(chunks) : undefined);
    if (cluster && answer.status >= 200 && answer.status < 300) patched.add(cluster);
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  try {
    const run = await quietRun(proxy.url, TOKEN, out, ['--rules', 'P1.database.status.patch-requires-active', '--max-databases', 'unlimited']);
    expect(ended.size).toBeGreaterThan(0);
    expect(run.code, run.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(ruleOf(results, 'P1.database.status.patch-requires-active').status).toBe('pass');
  } finally {
    await proxy.close();
  }
}, 120_000);

it("sends the six concurrent clones of one source holding the run's clock", async () => {
  // (another file's advance between the first clone and the five ended the first: the five were rightly accepted, and
  // the probe, refused for the limit they reached, read as the first still running)
  const out = tempDir('held-clock-clones');
  const held = new WeakMap<RecordedRequest, boolean>();
  const proxy = await startRecordingProxy(emulator.url, { arrived: (request) => held.set(request, clockHeld(out)) });
  try {
    const run = await quietRun(proxy.url, TOKEN, out, ['--rules', 'P2.clone.max-5-concurrent', '--max-instances', 'unlimited']);
    expect(run.code, run.stderr).toBe(0);
    const clonesBySource = new Map<string, RecordedRequest[]>();
    for (const request of proxy.requests) {
      const source = request.method === 'POST' ? /^\/v4\/compute\/instances\/(\d+)\/clone$/.exec(request.path)?.[1] : undefined;
      if (source) clonesBySource.set(source, [...(clonesBySource.get(source) ?? []), request]);
    }
    const sixAtOnce = [...clonesBySource.values()].find((clones) => clones.length >= 6)!;
    // (then the clone sent again, a step of the clock at a time, until the five had time to end)
    expect(sixAtOnce.slice(0, 6).map((request) => held.get(request))).toEqual([true, true, true, true, true, true]);
  } finally {
    proxy.close();
  }
}, 120_000);

it('does not fail six clones accepted when a colleague moved the clock between the first and the five', async () => {
  const out = tempDir('held-clock-colleague');
  const firstSeen = new Set<string>();
  let moved = 0;
  // After the first clone accepted from a source, the proxy moves the target's clock an hour (as a colleague sharing
  // it may): the first clone ends, and the five sent next are all rightly accepted.
  const proxy = await startFakeServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const source = method === 'POST' ? /^\/v4\/compute\/instances\/(\d+)\/clone$/.exec(path)?.[1] : undefined;
    const toNew = source !== undefined && !('compute_id' in (JSON.parse(Buffer.concat(chunks).toString() || '{}') as object));
    if (toNew && firstSeen.has(source!) && moved < firstSeen.size) {
      moved++;
      const advance = Buffer.from(JSON.stringify({ advance_seconds: 60 * 60 }));
      await send(emulator.url, 'POST', '/__control/clock', { ...request.headers, 'content-type': 'application/json' }, advance);
    }
    const answer = await send(emulator.url, method, path, request.headers, chunks.length ? Buffer.concat(chunks) : undefined);
    if (toNew && answer.status >= 200 && answer.status < 300) firstSeen.add(source!);
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  try {
    const run = await quietRun(proxy.url, TOKEN, out, ['--rules', 'P2.clone.max-5-concurrent', '--max-instances', 'unlimited']);
    expect(moved).toBe(2);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(ruleOf(results, 'P2.clone.max-5-concurrent').status).toBe('skip');
    expect(run.code, run.stderr).not.toBe(1);
  } finally {
    await proxy.close();
  }
}, 120_000);
