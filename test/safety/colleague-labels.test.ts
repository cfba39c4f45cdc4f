// A colleague on the same account holds resources under the labels the run's generated valid bodies send where the
// run's prefix does not fit (the shortest labels, 3 characters up; a cluster's always holds it). A server may refuse a
// label taken (monitoring client labels are unique; whether instance and firewall labels are is not shown), and a tag is its label: what a create naming
// a colleague's tag does is not shown (refused as taken, or taken in, when the clean-up would delete it). The run
// fails nothing and leaves the colleague's resources as they were, on the emulator (which refuses a label taken) and
// under `existing-tag-created-again` (which takes a tag's create in).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';
import { api, quietRun, startEmulator, startRecordingProxy, tempDir, type CliResult, type RecordedRequest } from './support.js';

type Json = Record<string, unknown>;

const TOKEN = 'colleague-labels-token-5k2w';
const SEED = '20261202';
/** Enough runs per property for a few dozen of the shortest labels. */
const RUNS = '20';
const TAGS = '/v4/tags';

/**
 * Where the run's bodies are sent (a path's pattern: a create, a clone, an update), where what they make or change is
 * listed, and what a colleague makes there under a label.
 */
const COLLECTIONS: Array<{ sentTo: RegExp; listedAt: string; made: (label: string) => Json }> = [
  { sentTo: /^\/v4\/tags$/, listedAt: TAGS, made: (label) => ({ label }) },
  {
    sentTo: /^\/v4\/compute\/instances(\/\d+(\/clone)?)?$/,
    listedAt: '/v4/compute/instances',
    made: (label) => ({ region: 'us-east', type: 'g6-standard-1', label }),
  },
  {
    sentTo: /^\/v4\/networking\/firewalls(\/\d+)?$/,
    listedAt: '/v4/networking/firewalls',
    made: (label) => ({ label, rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' } }),
  },
  { sentTo: /^\/v4\/monitor\/clients(\/\d+)?$/, listedAt: '/v4/monitor/clients', made: (label) => ({ label }) },
];

/** The valid tag-create bodies, and bodies breaking a member other than the label (sent with valid labels). */
const TAG_RULES = ['P2.tags.serves.post-tags', 'P2.tag-create.types'];

const CASES = [
  // A body whose label may be a colleague's tag is not sent (its tag is read first); a valid body refused as taken
  // judges nothing where the list shows the label on a resource the run did not make.
  {
    name: 'tags, instances (made, cloned or renamed), firewalls and monitoring clients (made or renamed)',
    rules: [
      ...TAG_RULES,
      'P2.compute.serves.post-compute-instances',
      'P2.compute.serves.post-compute-instances-id-clone',
      'P2.compute.serves.put-compute-instances-id',
      'P3.firewalls.serves.post-networking-firewalls',
      'P3.firewalls.serves.put-networking-firewalls-id',
      'P3.monitor.serves.post-monitor-clients',
      'P3.monitor.serves.put-monitor-clients-id',
    ],
    variations: [] as string[],
    collections: 4,
  },
  // Where a create of an existing label is taken in, a colleague's tag would be deleted by the clean-up.
  { name: 'tags', rules: TAG_RULES, variations: ['existing-tag-created-again'], collections: 1 },
];

/** A run of `rules` at SEED against `target` through a proxy recording its requests and their bodies; `out` its reports. */
async function runRecorded(target: string, rules: string[], out: string) {
  const proxy = await startRecordingProxy(target, { keepBodies: true });
  try {
    const done = await quietRun(proxy.url, TOKEN, out, ['--seed', SEED, '--runs', RUNS, '--max-instances', 'unlimited', '--rules', rules.join(',')]);
    return { done, requests: proxy.requests, results: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results };
  } finally {
    proxy.close();
  }
}

/** The labels without the run's prefix that the run sent, by the collection listing what they make (a tag's: read, or sent). */
function unprefixedLabels(requests: RecordedRequest[], runId: string): Array<[string, string]> {
  const sent = requests.flatMap((request): Array<[string, unknown]> => {
    const tagRead = request.method === 'GET' ? /^\/v4\/tags\/([^/?]+)$/.exec(request.path) : null;
    if (tagRead) return [[TAGS, decodeURIComponent(tagRead[1]!)]];
    const collection = COLLECTIONS.find(({ sentTo }) => sentTo.test(request.path));
    if (!['POST', 'PUT'].includes(request.method) || !collection || !request.body) return [];
    return [[collection.listedAt, (JSON.parse(request.body) as Json).label]];
  });
  const labels = sent.filter((pair): pair is [string, string] => typeof pair[1] === 'string' && pair[1].length >= 3 && !pair[1].startsWith(`${runId}-`));
  return [...new Map(labels.map((pair) => [pair.join(' '), pair])).values()];
}

for (const { name, rules, variations, collections: collectionCount } of CASES) {
  describe(`a colleague holding ${name} under the shortest generated labels${variations.length ? ` (${variations.join(', ')})` : ''}`, () => {
    let emulator: Awaited<ReturnType<typeof startEmulator>>;
    /** What the first run sent, which the colleague then holds. */
    let held: Array<[string, string]>;
    let run: CliResult;
    let results: Results;

    beforeAll(async () => {
      emulator = await startEmulator(TOKEN, variations);
      const first = await runRecorded(emulator.url, rules, tempDir('colleague-labels'));
      expect(first.done.code, first.done.stderr.slice(-2000)).toBe(0);
      held = unprefixedLabels(first.requests, first.results.run.id);
      // The same seed generates the same labels (their lengths do not depend on the run id, whose length is fixed).
      const colleague = api(emulator.url, await api(emulator.url, TOKEN).mintToken({ scopes: '*' }));
      for (const [listedAt, label] of held) await colleague.create(listedAt, COLLECTIONS.find((collection) => collection.listedAt === listedAt)!.made(label));
      ({ done: run, results } = await runRecorded(emulator.url, rules, tempDir('colleague-labels')));
    }, 180_000);

    afterAll(() => emulator?.stop());

    it('the first run sent such labels to every collection its checks write', () => {
      const collections = new Set(held.map(([collection]) => collection));
      expect(collections.size).toBe(collectionCount);
      expect(held.length).toBeGreaterThan(5);
    });

    it('makes no check fail: the run exits 0, every check judged', () => {
      expect(run.code, run.stderr.slice(-2000)).toBe(0);
      expect(results.summary.fail).toBe(0);
      for (const rule of rules) expect(results.rules.find((candidate) => candidate.id === rule)?.status, rule).toBe('pass');
    });

    it("leaves every one of the colleague's tags in place", async () => {
      const client = api(emulator.url, TOKEN);
      const tags = held.filter(([collection]) => collection === TAGS).map(([, label]) => label);
      const answers = await Promise.all(tags.map((label) => client.call('GET', `${TAGS}/${encodeURIComponent(label)}`)));
      expect(answers.map((answer) => answer.status)).toEqual(tags.map(() => 200));
    });
  });
}
