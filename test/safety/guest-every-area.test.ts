// A guest run over every area against a separately started emulator (a plain base URL with control hooks, destructive
// operations not allowed, default budgets) leaves nothing of its own: every list of the account is as it was before
// the run, and the closing line says so. (VLANs are left out: the documents give no way to delete one; tags have no
// list and go with what they tag.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, quietRun, newSince, snapshot, startEmulator, tempDir, type CliResult, type Snapshot } from './support.js';

const TOKEN = 'guest-every-area-token-6e0b';
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let client: ReturnType<typeof api>;
let before: Snapshot;
let run: CliResult;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  client = api(emulator.url, TOKEN);
  before = await snapshot(client);
  run = await quietRun(emulator.url, TOKEN, tempDir('every-area'), ['--seed', '17', '--runs', '3', '--violation-runs', '1']);
}, 600_000);

afterAll(() => emulator?.stop());

describe('a guest run over every area', () => {
  it('finishes without a fail or an error', () => {
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
  });

  it('leaves every list of the account as it was, and says that nothing it created is left', async () => {
    expect(await newSince(client, before)).toEqual([]);
    expect(run.stderr).toMatch(/conformance: nothing the run created is left on the target \(each delete confirmed by a read\)/);
  });
});
