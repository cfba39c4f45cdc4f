// A request that, accepted by an active cluster, puts it in the very state being judged (a patch while the cluster is
// updating) shows nothing by the state read before and after it: the earlier update may have ended in between. On a
// target whose clock the run drives, the check holds the run's clock from the read before to the read after, so that
// no other spec file's advance ends the update unseen (a correct cluster was failed so, under load); where the update
// ended anyway (a lagging read showed it after its end, or time ran on its own), the acceptance is sent again after a
// fresh read, and only a second one fails. The six clones of one source judging the limit of five are sent holding
// the clock too, as are the clones keeping an instance busy, the action they block and the probes that show them
// still running (`whileCloning` in specs/part2/compute-support.ts).
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

/**
 * A narrowed run through a recording proxy (`args`: its flags): its requests, each with whether a check held the run's
 * clock when it arrived, and its output folder.
 */
async function runRecordingHeld(name: string, args: string[]) {
  const out = tempDir(name);
  const held = new WeakMap<RecordedRequest, boolean>();
  const proxy = await startRecordingProxy(emulator.url, { arrived: (request) => held.set(request, clockHeld(out)) });
  try {
    const run = await quietRun(proxy.url, TOKEN, out, args);
    expect(run.code, run.stderr).toBe(0);
    return { out, requests: proxy.requests, heldWhenArrived: (request: RecordedRequest) => held.get(request)! };
  } finally {
    proxy.close();
  }
}

/**
 * A narrowed run (`args`) through a proxy that moves the emulator's clock `seconds` before passing on each request
 * `moveBefore` picks (as a colleague sharing the clock may), and tells `answered` each answer: the run's results.
 */
async function runWithClockMoved(
  name: string,
  args: string[],
  seconds: number,
  moveBefore: (method: string, path: string, body: Buffer) => boolean,
  answered: (method: string, path: string, body: Buffer, status: number) => void,
): Promise<{ code: number | null; stderr: string; results: Results }> {
  const out = tempDir(name);
  const proxy = await startFakeServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const [method, path, body] = [request.method ?? 'GET', request.url ?? '/', Buffer.concat(chunks)];
    if (moveBefore(method, path, body)) {
      const advance = Buffer.from(JSON.stringify({ advance_seconds: seconds }));
      await send(emulator.url, 'POST', '/__control/clock', { ...request.headers, 'content-type': 'application/json' }, advance);
    }
    const answer = await send(emulator.url, method, path, request.headers, chunks.length ? body : undefined);
    answered(method, path, body, answer.status);
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  try {
    const run = await quietRun(proxy.url, TOKEN, out, args);
    return { ...run, results: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results };
  } finally {
    await proxy.close();
  }
}

it("sends the patch judged while a cluster is updating holding the run's clock", async () => {
  const { out, requests, heldWhenArrived } = await runRecordingHeld('held-clock', [
    '--rules',
    'P1.database.status.patch-requires-active',
    '--max-databases',
    'unlimited',
  ]);
  // The patches a cluster refused after it had accepted one: sent while that patch updated it.
  const accepted = new Set<string>();
  const whileUpdating: boolean[] = [];
  for (const request of requests) {
    const cluster = /^\/v4\/databases\/mysql\/instances\/(\d+)\/patch$/.exec(request.path)?.[1];
    if (request.method !== 'POST' || !cluster) continue;
    if (request.status >= 200 && request.status < 300) accepted.add(cluster);
    else if (accepted.has(cluster)) whileUpdating.push(heldWhenArrived(request));
  }
  expect(whileUpdating.length).toBeGreaterThan(0);
  expect(whileUpdating.every(Boolean)).toBe(true);
  // The run noted when it last advanced the clock, for a read to come a consistency window after it (untilClockSettled).
  const [runId] = readdirSync(join(out, 'runs'));
  expect(Number(readFileSync(join(out, 'runs', runId!, 'budget', 'clock-advanced'), 'utf8'))).toBeGreaterThan(Date.now() - 120_000);
}, 120_000);

it('does not fail a patch accepted once the update had ended unseen, when a fresh read shows it refused', async () => {
  const patched = new Set<string>();
  const ended = new Set<string>();
  const clusterPatched = (method: string, path: string) =>
    method === 'POST' ? /^\/v4\/databases\/mysql\/instances\/(\d+)\/patch$/.exec(path)?.[1] : undefined;
  // Before the first patch sent to a cluster a patch has put in updating, the proxy lets the target's own clock end
  // the update: the check read `updating` and the patch finds the cluster active, accepts it and updates it again.
  const run = await runWithClockMoved(
    'held-clock-ended',
    ['--rules', 'P1.database.status.patch-requires-active', '--max-databases', 'unlimited'],
    20 * 60,
    (method, path) => {
      const cluster = clusterPatched(method, path);
      const moves = cluster !== undefined && patched.has(cluster) && !ended.has(cluster);
      if (moves) ended.add(cluster);
      return moves;
    },
    (method, path, _body, status) => {
      const cluster = clusterPatched(method, path);
      if (cluster && status >= 200 && status < 300) patched.add(cluster);
    },
  );
  expect(ended.size).toBeGreaterThan(0);
  expect(run.code, run.stderr).toBe(0);
  expect(ruleOf(run.results, 'P1.database.status.patch-requires-active').status).toBe('pass');
}, 120_000);

it("sends the six concurrent clones of one source holding the run's clock", async () => {
  // (another file's advance between the first clone and the five ended the first: the five were rightly accepted, and
  // the probe, refused for the limit they reached, read as the first still running)
  const { requests, heldWhenArrived } = await runRecordingHeld('held-clock-clones', ['--rules', 'P2.clone.max-5-concurrent', '--max-instances', 'unlimited']);
  const clonesBySource = new Map<string, RecordedRequest[]>();
  for (const request of requests) {
    const source = request.method === 'POST' ? /^\/v4\/compute\/instances\/(\d+)\/clone$/.exec(request.path)?.[1] : undefined;
    if (source) clonesBySource.set(source, [...(clonesBySource.get(source) ?? []), request]);
  }
  const sixAtOnce = [...clonesBySource.values()].find((clones) => clones.length >= 6)!;
  // (then the clone sent again, a step of the clock at a time, until the five had time to end)
  expect(sixAtOnce.slice(0, 6).map(heldWhenArrived)).toEqual([true, true, true, true, true, true]);
}, 120_000);

it('does not fail six clones accepted when a colleague moved the clock between the first and the five', async () => {
  const firstSeen = new Set<string>();
  let moved = 0;
  /** The source of a clone to a new instance. */
  const cloneToNewFrom = (method: string, path: string, body: Buffer) => {
    const source = method === 'POST' ? /^\/v4\/compute\/instances\/(\d+)\/clone$/.exec(path)?.[1] : undefined;
    return source !== undefined && !('compute_id' in (JSON.parse(body.toString() || '{}') as object)) ? source : undefined;
  };
  // After the first clone accepted from a source, the clock moves an hour: the first clone ends, and the five sent
  // next are all rightly accepted.
  const run = await runWithClockMoved(
    'held-clock-colleague',
    ['--rules', 'P2.clone.max-5-concurrent', '--max-instances', 'unlimited'],
    60 * 60,
    (method, path, body) => {
      const source = cloneToNewFrom(method, path, body);
      const moves = source !== undefined && firstSeen.has(source) && moved < firstSeen.size;
      if (moves) moved++;
      return moves;
    },
    (method, path, body, status) => {
      const source = cloneToNewFrom(method, path, body);
      if (source && status >= 200 && status < 300) firstSeen.add(source);
    },
  );
  expect(moved).toBe(2);
  expect(ruleOf(run.results, 'P2.clone.max-5-concurrent').status).toBe('skip');
  expect(run.code, run.stderr).not.toBe(1);
}, 120_000);

it("sends the clones that keep an instance busy, and the resize they block, holding the run's clock", async () => {
  // (another file's advance between the clones' start and the resize ended them: the check tried again, three times,
  // then skipped, blaming another file even where clones end within their request)
  const { requests, heldWhenArrived } = await runRecordingHeld('held-clock-resize', [
    '--rules',
    'P2.resize.no-running-actions',
    '--max-instances',
    'unlimited',
  ]);
  const posted = (action: string) => (request: RecordedRequest) =>
    request.method === 'POST' && new RegExp(`^/v4/compute/instances/\\d+/${action}$`).test(request.path);
  const resize = requests.findIndex(posted('resize'));
  const clones = requests.slice(0, resize).filter(posted('clone'));
  expect(clones.length).toBeGreaterThanOrEqual(2);
  expect([...clones.slice(-2), requests[resize]!].map(heldWhenArrived)).toEqual([true, true, true]);
}, 120_000);
