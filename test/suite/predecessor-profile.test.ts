// Under reused ids, a read just after an instance's create may answer as for the instance that held its id before (a
// replica answering as before the writes: replica-reads seed 252). Here a proxy answers each instance's first read of
// its profiles so: other profile ids, other disks. P2.boot.last-booted, which makes a profile on the disks of the
// default profile, must read them again when that create is refused, not end in `error`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';
import { ruleOf } from '../hostile/conformance-run.js';
import { startLiarProxy } from '../hostile/fake-servers.js';
import { quietRun, startEmulator, tempDir } from '../safety/support.js';

type Json = Record<string, unknown>;

const TOKEN = 'predecessor-profile-token-01';
const PREDECESSORS = 100_000;
const emulator = await startEmulator(TOKEN);
afterAll(() => emulator.stop());

const predecessors = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(predecessors);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Json).map(([key, member]) => [
      key,
      (key === 'id' || key === 'disk_id') && typeof member === 'number' ? member + PREDECESSORS : predecessors(member),
    ]),
  );
};

it("reads an instance's profiles again when a profile on the disks a first read showed is refused", async () => {
  const out = tempDir('predecessor-profile');
  const readOnce = new Set<string>();
  const proxy = await startLiarProxy(emulator.url, [
    {
      id: 'predecessor-profile-read-first',
      does: "an instance's first read of its profiles shows its predecessor's (other profile and disk ids)",
      applies: (method, resource) => method === 'GET' && /^\/v4\/compute\/instances\/\d+\/configs$/.test(resource),
      rewrite: (body, { resource }) => {
        if (readOnce.has(resource)) return body;
        readOnce.add(resource);
        return { ...body, data: predecessors(body.data) };
      },
    },
  ]);
  try {
    const run = await quietRun(proxy.url, TOKEN, out, ['--rules', 'P2.boot.last-booted', '--max-instances', 'unlimited', '--consistency-window', '200']);
    expect(readOnce.size).toBeGreaterThan(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(ruleOf(results, 'P2.boot.last-booted').status, run.stdout + run.stderr).toBe('pass');
  } finally {
    await proxy.close();
  }
}, 120_000);
