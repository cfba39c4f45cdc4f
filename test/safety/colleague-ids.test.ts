// A target that gives a deleted resource's id again (variation ids-reused; the documents do not say it never does),
// with a colleague on the same account who takes each id the run frees as soon as its DELETE answers (a domain with
// records, taking the ids its records freed too): the run never sends a change to what the colleague then holds (its
// clean-up reads before deleting again what a check deleted, and its delete checks take the colleague's resource for
// another), every colleague resource is still there after the run, and the run fails nothing.
import { readFileSync } from 'node:fs';
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';
import { api, quietRun, startEmulator, tempDir, type CliResult } from './support.js';

type Json = Record<string, unknown>;

const TOKEN = 'colleague-ids-token-4m7c';
const SEED = '20261202';

type Colleague = ReturnType<typeof api>;

/**
 * The kinds the colleague takes freed ids of: the view path a DELETE frees, and what the colleague makes there (posted to
 * the collection, or `make`'s); `shown`, the member its view shows it by.
 */
const KINDS: Array<{
  freed: RegExp;
  collection: string;
  body: (n: number) => Json;
  make?: (colleague: Colleague, body: Json) => Promise<Json>;
  shown: string;
  /** It may go without a DELETE (an upload whose data never came expires): a view answering 404 frees its id too. */
  goesByItself?: true;
}> = [
  {
    freed: /^\/v4\/domains\/\d+$/,
    collection: '/v4/domains',
    body: (n) => ({ domain: `colleague-${n}.example.org`, type: 'master', soa_email: 'admin@example.org' }),
    // With records, which take the ids the deleted domain's records freed: its record list is the colleague's.
    make: async (colleague, body) => {
      const domain = await colleague.create('/v4/domains', body);
      for (const name of ['one', 'two']) await colleague.create(`/v4/domains/${String(domain.id)}/records`, { type: 'CNAME', name, target: 'www.example.net' });
      return domain;
    },
    shown: 'domain',
  },
  {
    freed: /^\/v4\/networking\/firewalls\/\d+$/,
    collection: '/v4/networking/firewalls',
    body: (n) => ({ label: `colleague-fw-${n}`, rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' } }),
    shown: 'label',
  },
  { freed: /^\/v4\/monitor\/clients\/\d+$/, collection: '/v4/monitor/clients', body: (n) => ({ label: `colleague-mon-${n}` }), shown: 'label' },
  {
    freed: /^\/v4\/databases\/mysql\/instances\/\d+$/,
    collection: '/v4/databases/mysql/instances',
    body: (n) => ({ label: `colleague-db-${n}`, region: 'us-east', type: 'g6-nanode-1', engine: 'mysql/8.0.30' }),
    shown: 'label',
  },
  {
    freed: /^\/v4\/images\/private\/\d+$/,
    collection: '/v4/images',
    body: (n) => ({ label: `colleague-img-${n}`, region: 'us-east' }),
    // An upload whose data is sent at once: a pending one would expire under the run's clock advances.
    make: async (colleague, body) => {
      const image = await colleague.create('/v4/images/upload', body);
      const upload = await fetch(String(image.upload_to), {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: gzipSync('colleague'),
      });
      if (!upload.ok) throw new Error(`the upload of ${String(image.id)} answered ${upload.status}`);
      return image;
    },
    shown: 'label',
    goesByItself: true,
  },
  {
    freed: /^\/v4\/compute\/instances\/\d+$/,
    collection: '/v4/compute/instances',
    body: (n) => ({ region: 'us-east', type: 'g6-standard-1', label: `colleague-vm-${n}` }),
    shown: 'label',
  },
];

/** The rules whose checks make and delete resources of those kinds (and the clean-up's deletes of what they make). */
const RULES = [
  'P3.domain.delete',
  'P3.domains.serves',
  'P3.firewall.status',
  'P3.firewalls.serves',
  'P3.monitor-client',
  'P3.monitor.serves',
  'P1.database.delete',
  'P1.databases.serves.delete-databases-mysql-instances-id',
  'P1.databases.serves.post-databases-mysql-instances',
  'P2.images.delete',
  'P2.images.serves.delete-images-id',
  'P2.images.serves.post-images',
  'P2.image.status.pending-upload-expires',
  'P2.instances',
  'P2.compute.serves',
];

interface Held {
  /** Its view path, as the proxy matches it (decoded), and as it is read (`view`: the id encoded). */
  path: string;
  view: string;
  label: string;
  shown: string;
}

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let proxy: ReturnType<typeof createServer>;
const held: Held[] = [];
const changesToHeld: string[] = [];
let run: CliResult;
let results: Results;

/**
 * Forwards the run's requests; after a DELETE of a view path of KINDS answers 2xx (or, for a kind that goes by itself,
 * a view answers 404), and before the run sees the answer, the colleague makes one of that kind (the lowest free id:
 * the one just freed). Records any change sent to what the colleague holds.
 */
async function startColleagueProxy(target: string): Promise<string> {
  const upstream = new URL(target);
  const colleague = api(target, await api(target, TOKEN).mintToken({ scopes: '*' }));
  let made = 0;
  proxy = createServer((incoming, outgoing) => {
    // (an image's id holds a slash, which a path carries encoded: `/v4/images/private%2F7`)
    const path = decodeURIComponent((incoming.url ?? '').split('?')[0]!);
    if (incoming.method !== 'GET' && held.some((one) => path === one.path || path.startsWith(`${one.path}/`))) changesToHeld.push(`${incoming.method} ${path}`);
    const proxied = forward(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        const kind = KINDS.find((one) => one.freed.test(path));
        const status = answer.statusCode ?? 0;
        const freed =
          kind && ((incoming.method === 'DELETE' && status >= 200 && status < 300) || (kind.goesByItself && incoming.method === 'GET' && status === 404));
        const pass = () => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        };
        if (!freed) return pass();
        const body = kind.body(++made);
        void (kind.make ? kind.make(colleague, body) : colleague.create(kind.collection, body))
          .then((created) =>
            held.push({
              path: `${kind.collection}/${String(created.id)}`,
              view: `${kind.collection}/${encodeURIComponent(String(created.id))}`,
              label: String(body[kind.shown]),
              shown: kind.shown,
            }),
          )
          .catch(() => undefined)
          .finally(pass);
      },
    );
    proxied.on('error', () => outgoing.destroy());
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  emulator = await startEmulator(TOKEN, ['ids-reused']);
  const url = await startColleagueProxy(emulator.url);
  const out = tempDir('colleague-ids');
  run = await quietRun(url, TOKEN, out, ['--seed', SEED, '--max-instances', 'unlimited', '--rules', RULES.join(',')]);
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
}, 240_000);

afterAll(() => {
  proxy?.close();
  emulator?.stop();
});

describe('a colleague taking every id the run frees, on a target giving ids again', () => {
  it('took freed ids of every kind, some of them ids the run had held', () => {
    for (const kind of KINDS) expect(held.filter((one) => one.path.startsWith(`${kind.collection}/`)).length, kind.collection).toBeGreaterThan(0);
  });

  it('receives no change from the run: no PUT, POST or DELETE names what it holds', () => {
    expect(changesToHeld).toEqual([]);
  });

  it('still holds everything it took, as it made it', async () => {
    const client = api(emulator.url, TOKEN);
    const missing: string[] = [];
    for (const one of held) {
      const view = await client.call('GET', one.view);
      if (view.status !== 200 || view.body[one.shown] !== one.label)
        missing.push(`${one.path} (${one.label}): ${view.status} ${JSON.stringify(view.body[one.shown])}`);
    }
    expect(missing).toEqual([]);
    // (a GET each of what it took: far more than vitest's 30 s on a loaded machine, under 1 s alone)
  }, 120_000);

  it('makes no check fail or error: the run exits 0', () => {
    const failing = results.checkList
      .filter((check) => check.verdict === 'fail' || check.verdict === 'error')
      .map((check) => `${check.name}: ${check.message ?? ''}`);
    expect(failing).toEqual([]);
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
  });
});
