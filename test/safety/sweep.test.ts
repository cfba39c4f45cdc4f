// `sweep` deletes a run's leftovers and nothing else: resources labelled with the run prefix, ledger entries on the
// target the run recorded and still carrying the prefix; never a look-alike label, a relabelled id, or a ledger of
// another target.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CleanupLedger, writeRunRecord } from '../../harness/cleanup.js';
import { startEmbedded } from '../../harness/embedded.js';
import { api, conformance, startEmulator, startRecordingProxy, tempDir, type CliResult } from './support.js';

const TOKEN = 'sweep-test-token-77c1';
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  client = api(emulator.url, TOKEN);
});
afterAll(() => emulator?.stop());

const firewall = (label: string) => client.create('/v4/networking/firewalls', { label, rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' } });
const exists = async (path: string) => (await client.call('GET', path)).status === 200;

describe('conformance sweep', () => {
  it('deletes the run-prefixed resources and its ledger entries, and touches nothing the run did not create', async () => {
    const out = tempDir('sweep');
    const ours = {
      firewall: await firewall('swp1-fw-a'),
      domain: await client.create('/v4/domains', { domain: 'swp1-d.example.com', type: 'master', soa_email: 'hostmaster@example.com' }),
      ledgerOnly: await firewall('swp1-fw-b'),
    };
    // Tags have no list: a run's tag is found on what it tags.
    await client.create('/v4/tags', { label: 'swp1-tag', domains: [ours.domain.id] });
    const foreign = {
      lookAlike: await firewall('swp12-fw'),
      bare: await firewall('swp1'),
      relabelled: await firewall('colleague-fw'),
      otherTarget: await firewall('colleague-fw-2'),
      domain: await client.create('/v4/domains', { domain: 'colleague.example.com', type: 'master', soa_email: 'hostmaster@example.com' }),
    };
    writeRunRecord(out, { runId: 'swp1', target: emulator.url, started: new Date().toISOString() });
    const ledger = new CleanupLedger(out, 'swp1', 'spec');
    ledger.record({ kind: 'firewall', deletePath: `/v4/networking/firewalls/${String(ours.ledgerOnly.id)}`, label: 'swp1-fw-b' });
    // The id the run recorded now names someone else's firewall (ids can be reused): it must stay.
    ledger.record({ kind: 'firewall', deletePath: `/v4/networking/firewalls/${String(foreign.relabelled.id)}`, label: 'swp1-fw-c' });
    // A run against another target: its ledger paths mean nothing here.
    writeRunRecord(out, { runId: 'swp2', target: 'https://elsewhere.example.com', started: new Date().toISOString() });
    new CleanupLedger(out, 'swp2', 'spec').record({
      kind: 'firewall',
      deletePath: `/v4/networking/firewalls/${String(foreign.otherTarget.id)}`,
      label: 'swp2-fw',
    });
    const foreignBefore = await Promise.all(
      Object.values(foreign).map((item) => client.get(item.domain ? `/v4/domains/${String(item.id)}` : `/v4/networking/firewalls/${String(item.id)}`)),
    );

    const first = await conformance(['sweep', '--all-runs', '--base-url', emulator.url, '--token', TOKEN, '--out', out]);
    expect(first.stdout).toMatch(/^deleted firewall \/v4\/networking\/firewalls\/\d+ \(swp1-fw-a\)$/m);
    expect(first.stdout).toMatch(/^deleted domain \/v4\/domains\/\d+ \(swp1-d\.example\.com\)$/m);
    expect(first.stdout).toMatch(/^deleted tag \/v4\/tags\/swp1-tag \(swp1-tag\)$/m);
    expect(first.stdout).toMatch(/not deleted firewall .*: it now carries the label "colleague-fw"/);
    expect(first.stdout).toMatch(/run swp2 ran against https:\/\/elsewhere\.example\.com: its ledger \(1 entries\) is not applied/);
    expect(first.stdout).toMatch(/sweep: 4 deleted, 0 already gone, 1 could not be deleted/);
    expect(first.code).toBe(1);
    for (const path of [
      `/v4/networking/firewalls/${String(ours.firewall.id)}`,
      `/v4/networking/firewalls/${String(ours.ledgerOnly.id)}`,
      `/v4/domains/${String(ours.domain.id)}`,
    ])
      expect(await exists(path), path).toBe(false);
    expect(await exists('/v4/tags/swp1-tag')).toBe(false);
    const foreignAfter = await Promise.all(
      Object.values(foreign).map((item) => client.get(item.domain ? `/v4/domains/${String(item.id)}` : `/v4/networking/firewalls/${String(item.id)}`)),
    );
    expect(foreignAfter).toEqual(foreignBefore);

    const second = await conformance(['sweep', '--run-id', 'swp1', '--base-url', emulator.url, '--token', TOKEN, '--out', out]);
    expect(second.stdout).toMatch(/sweep: 0 deleted, 0 already gone, 1 could not be deleted/);
  }, 60_000);

  it("deletes a run's images on a target that takes an image id's slash as it is in a path", async () => {
    const rawOnly = await startEmbedded(TOKEN, [], ['image-ids-raw-only']);
    try {
      const target = api(rawOnly.url, TOKEN);
      const image = (await target.create('/v4/images/upload', { label: 'swp3-img', region: 'us-east' })) as { id: string };
      const out = tempDir('sweep-raw');
      writeRunRecord(out, { runId: 'swp3', target: rawOnly.url, started: new Date().toISOString() });
      const swept = await conformance(['sweep', '--run-id', 'swp3', '--base-url', rawOnly.url, '--token', TOKEN, '--out', out]);
      expect(swept.stdout).toContain(`deleted image /v4/images/${image.id} (swp3-img)`);
      expect((await target.call('GET', `/v4/images/${image.id}`)).status).toBe(404);
    } finally {
      await rawOnly.stop();
    }
  }, 60_000);

  it('--wait tries again what could not be deleted yet (a cluster provisioning) until it is deleted, and then exits 0', async () => {
    const cluster = await client.create('/v4/databases/mysql/instances', { label: 'swpw-db', region: 'us-east', type: 'g6-nanode-1', engine: 'mysql/8.0.30' });
    const path = `/v4/databases/mysql/instances/${String(cluster.id)}`;
    const out = tempDir('sweep-wait');
    const args = ['sweep', '--run-id', 'swpw', '--base-url', emulator.url, '--token', TOKEN, '--out', out];
    const once = await conformance(args);
    expect(once.code).toBe(1);
    expect(once.stdout).toMatch(new RegExp(`^not deleted database ${path} \\(swpw-db\\): DELETE answered HTTP 4\\d\\d`, 'm'));
    // The cluster provisions for 15–30 simulated minutes: once the sweep says it will try again, the clock runs past them.
    let printed = '';
    let advanced: Promise<unknown> | undefined;
    const waited = await conformance([...args, '--wait', '60000'], {
      started: (child) =>
        child.stdout!.on('data', (chunk: Buffer) => {
          printed += chunk.toString();
          if (!advanced && printed.includes('not deleted yet')) advanced = client.call('POST', '/__control/clock', { advance_seconds: 31 * 60 });
        }),
    });
    expect(await advanced).toMatchObject({ status: 200 });
    expect(waited.stdout).toMatch(/^not deleted yet: 1 \(database .*\); trying again in 1 s, until /m);
    expect(waited.stdout).toContain(`deleted database ${path} (swpw-db)`);
    expect(waited.stdout).toMatch(/sweep: 1 deleted, 0 already gone, 0 could not be deleted/);
    expect(waited.code).toBe(0);
    expect((await client.call('GET', path)).status).toBe(404);
  }, 60_000);

  /**
   * A run of one database check given --wait-for-leftovers through a proxy hiding the clock hook: its clusters
   * provision past the spec file's end. `waiting` is called with the child once the sweep says it will try again.
   */
  async function runLeavingClusters(runId: string, waiting: (child: ChildProcess) => void): Promise<CliResult> {
    const proxy = await startRecordingProxy(emulator.url, { hideControl: true });
    const args = ['--rules', 'P1.database.create.returns-cluster', '--runs', '1', '--run-id', runId, '--wait-for-leftovers', '60000'];
    let stderr = '';
    try {
      return await conformance(
        ['run', '--base-url', proxy.url, '--token', TOKEN, '--out', tempDir('run-sweep'), '--no-allure', '--progress', 'quiet', ...args],
        {
          started: (child) =>
            child.stderr!.on('data', (chunk: Buffer) => {
              if (stderr.includes('not deleted yet')) return;
              stderr += chunk.toString();
              if (stderr.includes('not deleted yet')) waiting(child);
            }),
        },
      );
    } finally {
      proxy.close();
    }
  }
  const SWEEPING =
    /^conformance: (\d+) resources the run created are left: sweeping them, waiting up to 60 s for what the target refuses to delete while busy$/m;

  it('a run given --wait-for-leftovers sweeps what it could not delete, waiting for a cluster provisioning', async () => {
    let advanced: Promise<unknown> | undefined;
    const run = await runLeavingClusters('swpr', () => (advanced = client.call('POST', '/__control/clock', { advance_seconds: 31 * 60 })));
    expect(await advanced).toMatchObject({ status: 200 });
    const left = SWEEPING.exec(run.stderr)?.[1];
    expect(run.stderr).toMatch(/^conformance: sweep: deleted database \/v4\/databases\/mysql\/instances\/\d+ \(swpr-/m);
    expect(run.stderr).toMatch(new RegExp(`^conformance: sweep: ${left} deleted, 0 already gone, 0 could not be deleted \\(run swpr\\)$`, 'm'));
    expect(run.stderr).toContain('conformance: nothing the run created is left on the target');
    expect(run.code).toBe(0);
  }, 60_000);

  it('Ctrl-C while the run waits for its leftovers stops the wait and names what is left', async () => {
    const run = await runLeavingClusters('swps', (child) => child.kill('SIGINT'));
    const left = SWEEPING.exec(run.stderr)?.[1];
    expect(run.stderr).toMatch(/^conformance: sweep: stopped \(SIGINT\)$/m);
    expect(run.stderr).toMatch(
      new RegExp(`^conformance: ${left} resources the run created are left \\(${left} database; a cluster cannot be deleted while it provisions\\)`, 'm'),
    );
    expect(run.code).toBe(130);
  }, 60_000);

  it('exits 2 with one line on bad usage or a target that refuses the token', async () => {
    const usages = [
      ['sweep'],
      ['sweep', '--run-id', 'x'],
      ['sweep', '--run-id', 'abc', '--all-runs'],
      ['sweep', '--run-id', 'abc', '--base-url', emulator.url],
      ['sweep', '--run-id', 'abc', '--base-url', emulator.url, '--token', TOKEN, '--wait', 'an hour'],
    ];
    const [refused, ...results] = await Promise.all([
      conformance(['sweep', '--run-id', 'abc', '--base-url', emulator.url, '--token', 'not-the-token', '--out', tempDir('sweep-refused')]),
      ...usages.map((args) => conformance(args)),
    ]);
    results.forEach((result, index) => {
      expect(result.code, usages[index]!.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), usages[index]!.join(' ')).toHaveLength(1);
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^conformance: sweep stopped: GET \/v4\/compute\/instances answered HTTP 401/);
  }, 60_000);
});
