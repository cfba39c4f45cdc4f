// The suite as a guest on a shared account: a run against a separately started emulator already holding a
// colleague's resources leaves them exactly as they were and leaves nothing of its own behind; and no token it was
// given appears in any file it wrote or in anything it printed. The control hooks are hidden, as on a staging
// server: the run uses the scoped and restricted tokens it is given.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, conformance, newSince, snapshot, startEmulator, startRecordingProxy, tempDir, type CliResult, type Snapshot } from './support.js';

const TOKEN = 'guest-full-access-token-Q7v3xK9p';
const FILES = ['generic/part1', 'part3/firewalls', 'part3/domains', 'part2/tags'];
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
let client: ReturnType<typeof api>;
let tokens: string[];
let foreignPaths: string[];
let foreignBefore: unknown[];
let eventsBefore: Array<Record<string, unknown>>;
let before: Snapshot;
let run: CliResult;
let out: string;

type Json = Record<string, unknown>;

/** A colleague's resources, made with the same full-access token before the run. */
async function seedForeign(): Promise<string[]> {
  const instance = await client.create('/v4/compute/instances', {
    region: 'us-east',
    type: 'g6-standard-1',
    label: 'colleague-vm',
    image: 'compute/debian12',
    root_pass: 'Colleague!Pass9',
    tags: ['colleague-tag'],
  });
  const domain = await client.create('/v4/domains', {
    domain: 'colleague-site.example.com',
    type: 'master',
    soa_email: 'hostmaster@example.com',
    tags: ['colleague-tag'],
  });
  await client.create(`/v4/domains/${String(domain.id)}/records`, { type: 'A', name: 'www', target: '192.0.2.44' });
  const firewall = await client.create('/v4/networking/firewalls', { label: 'colleague-fw', rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' } });
  await client.create(`/v4/networking/firewalls/${String(firewall.id)}/devices`, { id: instance.id, type: 'compute' });
  const monitor = await client.create('/v4/monitor/clients', { label: 'colleague-mon' });
  const app = await client.create('/v4/account/oauth-clients', { label: 'colleague-app', redirect_uri: 'https://example.com/cb' });
  const image = await client.create('/v4/images/upload', { label: 'colleague-img', region: 'us-east' });
  const compute = `/v4/compute/instances/${String(instance.id)}`;
  return [
    compute,
    `${compute}/configs`,
    `/v4/domains/${String(domain.id)}`,
    `/v4/domains/${String(domain.id)}/records`,
    `/v4/networking/firewalls/${String(firewall.id)}`,
    `/v4/networking/firewalls/${String(firewall.id)}/devices`,
    `/v4/networking/firewalls/${String(firewall.id)}/rules`,
    '/v4/tags/colleague-tag',
    `/v4/monitor/clients/${String(monitor.id)}`,
    `/v4/account/oauth-clients/${encodeURIComponent(String(app.id))}`,
    `/v4/images/${encodeURIComponent(String(image.id))}`,
    '/v4/account',
    '/v4/monitor/plan',
  ];
}

const flagsOf = (events: Json[]) => events.map((event) => ({ id: event.id, seen: event.seen, read: event.read }));

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  client = api(emulator.url, TOKEN);
  proxy = await startRecordingProxy(emulator.url, { hideControl: true });
  foreignPaths = await seedForeign();
  foreignBefore = await Promise.all(foreignPaths.map((path) => client.get(path)));
  eventsBefore = flagsOf(await client.list('/v4/account/events'));
  before = await snapshot(client);
  const scoped = {
    'events:read_only': await client.mintToken({ scopes: ['events:read_only'] }),
    'account:read_only': await client.mintToken({ scopes: ['account:read_only'] }),
  };
  const restricted = await client.mintToken({ scopes: '*', restricted: true });
  tokens = [TOKEN, ...Object.values(scoped), restricted];
  out = tempDir('guest');
  const scopedFlags = Object.entries(scoped).flatMap(([scopes, token]) => ['--token-scoped', `${scopes}=${token}`]);
  run = await conformance([
    'run',
    '--base-url',
    proxy.url,
    '--token',
    TOKEN,
    ...scopedFlags,
    '--restricted-token',
    restricted,
    '--out',
    out,
    '--seed',
    '9',
    '--runs',
    '5',
    '--progress',
    'plain',
    ...FILES,
  ]);
}, 240_000);

afterAll(async () => {
  proxy?.close();
  await emulator?.stop();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('a run on an account holding resources it did not create', () => {
  it('finishes without a fail', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
  });

  it("leaves the colleague's resources, the account, the monitoring plan and the earlier events as they were", async () => {
    expect(await Promise.all(foreignPaths.map((path) => client.get(path)))).toEqual(foreignBefore);
    const eventsAfter = flagsOf(await client.list('/v4/account/events'));
    expect(eventsAfter.filter((event) => eventsBefore.some((earlier) => earlier.id === event.id))).toEqual(eventsBefore);
  });

  it('leaves nothing of its own behind but clusters still provisioning, which it names and sweep deletes once they are active', async () => {
    const left = await newSince(client, before);
    expect(left.filter((item) => !item.startsWith('/v4/databases/instances: '))).toEqual([]);
    if (left.length)
      expect(run.stderr).toMatch(
        /resources the run created are left \(\d+ database; a cluster cannot be deleted while it provisions\): .*`conformance sweep --run-id \w+ .* --wait 3600000` deletes them/,
      );
    // Half an hour later (the test moves the emulator's clock: the run saw no control hooks).
    await client.call('POST', '/__control/clock', { advance_seconds: 31 * 60 });
    const runId = /run (\w+) against/.exec(run.stderr)![1]!;
    const swept = await conformance(['sweep', '--run-id', runId, '--base-url', proxy.url, '--token', TOKEN, '--out', out]);
    expect(swept.code, swept.stdout).toBe(0);
    expect(await newSince(client, before)).toEqual([]);
  }, 60_000);

  it('uses every token it was given, and none of them appears in any file it wrote or in its output, in any form', () => {
    const sent = new Set(proxy.requests.map((request) => request.authorization));
    for (const token of tokens) expect(sent.has(`Bearer ${token}`), `token ${tokens.indexOf(token)} was not used`).toBe(true);
    const files = filesUnder(out);
    expect(files.map((file) => file.slice(out.length))).toEqual(expect.arrayContaining(['/results.json', '/compliance.html', '/junit.xml']));
    const texts: Array<[string, string]> = [
      ['standard output', run.stdout],
      ['standard error', run.stderr],
      ...files.map((file): [string, string] => [file, readFileSync(file, 'latin1')]),
    ];
    const forms = tokens.flatMap((token) => [
      token,
      Buffer.from(token).toString('base64'),
      Buffer.from(token).toString('base64url'),
      encodeURIComponent(token),
    ]);
    const leaks = texts.flatMap(([where, text]) => forms.filter((form) => text.includes(form)).map((form) => `${where}: token form #${forms.indexOf(form)}`));
    expect(leaks).toEqual([]);
  });
});
