// A target whose clone to a new instance answers with its job and makes the instance only when the clone completes
// (variation clone-instance-made-on-completion): the job's id is no instance's. The run tracks the clones it made by
// the labels it sent, found once listed, and its clean-up deletes them and nothing else: every instance the account
// held before the run (the seeded ones, whose ids the jobs' numbers repeat) is still there after it, and nothing the
// run made is left.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, newSince, quietRun, snapshot, startEmulator, tempDir, type CliResult, type Snapshot } from './support.js';

const TOKEN = 'clone-job-token-8b4e';
/** The checks that clone to a new instance: scenarios, the generic valid request and its generated bodies. */
const RULES = ['P2.clone.configs.absent-all', 'P2.clone.tags-copied', 'P2.clone.label.default', 'P2.compute.serves.post-compute-instances-id-clone'];
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let client: ReturnType<typeof api>;
let before: Snapshot;
let instancesBefore: unknown[];
let run: CliResult;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN, ['clone-instance-made-on-completion']);
  client = api(emulator.url, TOKEN);
  before = await snapshot(client);
  instancesBefore = (await client.list('/v4/compute/instances')).map((item) => item.id);
  run = await quietRun(emulator.url, TOKEN, tempDir('clone-job'), ['--rules', RULES.join(','), '--runs', '3', '--violation-runs', '1']);
}, 300_000);

afterAll(() => emulator?.stop());

describe('clones answering their job, the instance made when the clone completes', () => {
  it('fails no check: the run exits 0', () => {
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
  });

  it('deletes no instance the run did not create', async () => {
    expect(instancesBefore.length).toBeGreaterThan(0);
    const after = new Set((await client.list('/v4/compute/instances')).map((item) => item.id));
    expect(instancesBefore.filter((id) => !after.has(id))).toEqual([]);
  });

  it('leaves none of the clones it made', async () => {
    await client.call('POST', '/__control/clock', { advance_seconds: 7 * 24 * 3600 });
    expect(await newSince(client, before)).toEqual([]);
  });
});
