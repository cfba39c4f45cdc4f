// The emulator's fault switches as the matrix uses them: `--instances` starts fresh emulators, each with its own
// faults and its own state; the command line refuses unknown faults and lists the catalogue.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../../emulator/faults/index.js';
import { startEmulatorHost } from './emulator-host.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const host = await startEmulatorHost();
afterAll(() => host.close());

const createTag = (url: string, token: string, body: object) =>
  fetch(`${url}/v4/tags`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const get = (url: string, token: string, path: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });

describe('an emulator host (--instances)', () => {
  it('starts emulators that each carry their own faults and keep their own state', async () => {
    const [faulty, reference] = [await host.start('host-token-faulty', ['P2.tag-create.label.required']), await host.start('host-token-reference', [])];
    expect(faulty).not.toBe(reference);
    expect((await createTag(faulty, 'host-token-faulty', {})).status).toBe(200);
    expect((await createTag(reference, 'host-token-reference', {})).status).toBe(400);
    expect((await createTag(reference, 'host-token-reference', { label: 'only-here' })).status).toBe(200);
    expect((await get(reference, 'host-token-reference', '/v4/tags/only-here')).status).toBe(200);
    expect((await get(faulty, 'host-token-faulty', '/v4/tags/only-here')).status).toBe(404);
    // each emulator has its own token
    expect((await get(faulty, 'host-token-reference', '/v4/account')).status).toBe(401);
    await host.stop(faulty);
    await expect(get(faulty, 'host-token-faulty', '/v4/account')).rejects.toThrow();
    await host.stop(reference);
  });

  it('serves each emulator its own routes and clock beside others of another shape or of the same', async () => {
    const token = 'host-token-shapes';
    const [plain, unprefixed, alsoPlain] = await Promise.all([
      host.start(token, []),
      // moves a route: an app of another shape
      host.start(token, ['P1.versioning.v4-prefix']),
      host.start(token, ['P2.tag-create.label.required']),
    ]);
    expect((await get(plain, token, '/v4/databases/engines')).status).toBe(200);
    expect((await get(unprefixed, token, '/v4/databases/engines')).status).toBe(404);
    expect((await get(unprefixed, token, '/databases/engines')).status).toBe(200);
    expect((await get(alsoPlain, token, '/databases/engines')).status).toBe(404);
    // Each clock runs with real time from where its hook last moved it: a day moved on one is not on the other.
    const hoursAhead = async (url: string) =>
      (Date.parse(`${((await (await fetch(`${url}/__control`)).json()) as { now: string }).now}Z`) - Date.now()) / 3_600_000;
    await fetch(`${plain}/__control/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advance_seconds": 86400}' });
    expect(Math.round((await hoursAhead(plain)) - (await hoursAhead(alsoPlain)))).toBe(24);
    // a reset rebuilds that emulator's state only, with its own faults
    expect((await createTag(alsoPlain, token, { label: 'kept' })).status).toBe(200);
    await fetch(`${alsoPlain}/__control/reset`, { method: 'POST' });
    expect((await get(alsoPlain, token, '/v4/tags/kept')).status).toBe(404);
    expect((await createTag(alsoPlain, token, {})).status).toBe(200);
    expect((await createTag(plain, token, { label: 'kept' })).status).toBe(200);
    await fetch(`${plain}/__control/reset`, { method: 'POST' });
    expect((await createTag(alsoPlain, token, {})).status).toBe(200);
    await Promise.all([plain, unprefixed, alsoPlain].map((url) => host.stop(url)));
  });

  it('answers a bad request with the reason and goes on serving', async () => {
    await expect(host.start('host-token-x', ['no.such.fault'])).rejects.toThrow(/unknown fault no\.such\.fault/);
    await expect(host.start('a token with spaces', [])).rejects.toThrow(/token is 1\.\.256 non-space characters/);
    await expect(host.start('host-token-y', [], ['account-lists-page-size-clamped', 'account-lists-page-size-max-20'])).rejects.toThrow(
      /variations account-lists-page-size-clamped and account-lists-page-size-max-20 exclude each other/,
    );
    const url = await host.start('host-token-after', []);
    expect((await get(url, 'host-token-after', '/v4/account')).status).toBe(200);
    await host.stop(url);
  });
});

describe('the emulator command line', () => {
  const emulator = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'emulator/main.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });

  it('refuses an unknown fault with one line and exit 2', () => {
    const run = emulator('--port', '0', '--fault', 'P1.no-such-rule');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^emulator: unknown fault P1\.no-such-rule \(--list-faults lists them\)/);
  });

  it('lists every fault of the catalogue with what it does', () => {
    const lines = emulator('--list-faults').stdout.trim().split('\n');
    expect(lines.map((line) => line.split('\t')[0])).toEqual(FAULTS.map((fault) => fault.id));
  });
});
