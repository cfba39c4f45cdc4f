// A region held by an IPv6 range deleted a short time ago (the check before handed the ranges' lock over while its
// deletion ran) is waited for while a short time passes; a range that outlasts the wait is another's (a colleague's on a
// shared account), and the checks after it skip at once; unless it is a range another spec file of the run keeps (its
// ledger), waited for each time. What outlasted a wait is remembered per target.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { regionForIpv6Range } from '../../harness/account-limits.js';
import { Check, SkipCheck } from '../../harness/check.js';
import { ledgerDir } from '../../harness/cleanup.js';
import { defaults } from '../../harness/config.js';
import { Target } from '../../harness/target.js';
import { startFakeServer, type FakeServer } from '../hostile/fake-servers.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A target whose ranges list shows `range` in us-west for its first `reads` reads, or for every read. */
function rangesListing(range: string, reads = Infinity): Promise<FakeServer> {
  let served = 0;
  return startFakeServer((_request, response) => {
    served += 1;
    const data = served <= reads ? [{ range: `${range}/64`, region: 'us-west' }] : [];
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data, page: 1, pages: 1, results: data.length }));
  });
}

/** A check of `checkMs` on a target without the clock hook at `url` (`run`: the run's out folder and id). */
const checkOn = (url: string, checkMs: number, run: { out?: string; runId?: string } = {}) =>
  new Check(
    ['P3.ips.serves.get-networking-ipv6-ranges'],
    new Target({ config: { ...defaults(), timeoutMs: 1000, ...run }, baseUrl: url, token: 'range-room-token-01', controlUrl: null, embedded: false }),
    checkMs,
  );

describe('a region for a new IPv6 range', () => {
  it('held by a range still being deleted, is waited for and taken once free', async () => {
    server = await rangesListing('2600:3c01:e004:100::', 2);
    const started = Date.now();
    expect(await regionForIpv6Range(checkOn(server.url, 20_000), ['us-west'], undefined, { waitForRoom: true })).toBe('us-west');
    expect(server.seen).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('held, skips at once where the caller does not wait', async () => {
    server = await rangesListing('2600:3c01:e004:200::', 2);
    await expect(regionForIpv6Range(checkOn(server.url, 20_000), ['us-west'])).rejects.toThrow(SkipCheck);
    expect(server.seen).toHaveLength(1);
  });

  it("held by a range that outlasts the wait, skips after it, and the next check skips at once (another's range)", async () => {
    server = await rangesListing('2600:3c01:e004:300::');
    await expect(regionForIpv6Range(checkOn(server.url, 12_000), ['us-west'], undefined, { waitForRoom: true })).rejects.toThrow(SkipCheck);
    const reads = server.seen.length;
    expect(reads).toBeGreaterThan(1);
    await expect(regionForIpv6Range(checkOn(server.url, 12_000), ['us-west'], undefined, { waitForRoom: true })).rejects.toThrow(
      /already holds an IPv6 range the check did not create in us-west \(2600:3c01:e004:300::\)/,
    );
    expect(server.seen).toHaveLength(reads + 1);
  });

  it('remembers an outlasting range per target: the same address on another target is waited for again', async () => {
    const outlasting = await rangesListing('2600:3c01:e004:400::');
    await expect(regionForIpv6Range(checkOn(outlasting.url, 12_000), ['us-west'], undefined, { waitForRoom: true })).rejects.toThrow(SkipCheck);
    await outlasting.close();
    // (a fresh emulator gives the same addresses again: the matrices run many targets in one process)
    server = await rangesListing('2600:3c01:e004:400::', 2);
    expect(await regionForIpv6Range(checkOn(server.url, 20_000), ['us-west'], undefined, { waitForRoom: true })).toBe('us-west');
  });

  it('held by a range another spec file of this run keeps between its checks, skips saying so, and waits again next time', async () => {
    server = await rangesListing('2600:3c01:e004:500::');
    const run = { out: mkdtempSync(join(tmpdir(), 'range-room-')), runId: 'rroom1' };
    mkdirSync(ledgerDir(run.out, run.runId), { recursive: true });
    const entry = {
      kind: 'ipv6-range',
      deletePath: `/v4/networking/ipv6/ranges/${encodeURIComponent('2600:3c01:e004:500::')}`,
      created: '2026-12-07T00:00:00Z',
    };
    writeFileSync(join(ledgerDir(run.out, run.runId), 'other-file.jsonl'), `${JSON.stringify(entry)}\n`);
    await expect(regionForIpv6Range(checkOn(server.url, 12_000, run), ['us-west'], undefined, { waitForRoom: true })).rejects.toThrow(
      /another spec file of this run keeps an IPv6 range in us-west between its checks \(2600:3c01:e004:500::\)/,
    );
    const reads = server.seen.length;
    await expect(regionForIpv6Range(checkOn(server.url, 12_000, run), ['us-west'], undefined, { waitForRoom: true })).rejects.toThrow(SkipCheck);
    expect(server.seen.length).toBeGreaterThan(reads + 1);
  });
});
