// The account's one cancellation comes after every other request of the run: its file waits until every other spec
// file of the run has marked its end, forgets the marks of an earlier run of the same id, and says why it cannot be
// last (a shard, a file that never ends) rather than cancel in the middle of a run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaults, type SuiteConfig } from '../../harness/config.js';
import { forgetFileEnds, LAST_FILES, markFileEnded, untilOtherFilesEnded } from '../../harness/run-order.js';
import { lastFilesLast, LONGEST_FIRST } from '../../specs/setup/file-order.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const atRoot = (file: string) => join(ROOT, file);
const CANCEL_FILE = atRoot(LAST_FILES[0]!);
// A run narrowed to the cancellation's serving and a restricted user's refused cancellation holds two spec files.
const config = (extra: Partial<SuiteConfig> = {}): SuiteConfig => ({
  ...defaults(),
  out: mkdtempSync(join(tmpdir(), 'run-order-')),
  runId: 'rorder',
  rules: ['P1.account.serves.post-account-cancel', 'P1.auth.restricted.cannot-cancel'],
  ...extra,
});
const soon = () => Date.now() + 300;

describe('the request that must come last', () => {
  it('waits for every other spec file of the run to end, then may be sent', async () => {
    const run = config();
    expect(await untilOtherFilesEnded(run, soon(), CANCEL_FILE)).toMatch(/specs\/part1\/account\.spec\.ts had not ended/);
    markFileEnded(run, atRoot('specs/part1/account.spec.ts'));
    expect(await untilOtherFilesEnded(run, soon(), CANCEL_FILE)).toBeNull();
  });

  it('does not take the marks of an earlier run of the same id for this one', async () => {
    const run = config();
    markFileEnded(run, `${atRoot('specs/part1/account.spec.ts')}?target=3`);
    forgetFileEnds(run);
    expect(await untilOtherFilesEnded(run, soon(), CANCEL_FILE)).toMatch(/had not ended/);
  });

  it('is not sent by a shard, which cannot know when the other shards end', async () => {
    expect(await untilOtherFilesEnded(config({ shard: '1/2' }), soon(), CANCEL_FILE)).toMatch(/shard/);
  });
});

describe('the order a run starts its spec files in', () => {
  const spec = (file: string) => ({ moduleId: atRoot(file), project: { name: '', config: { sequence: { groupOrder: 0 }, isolate: false } } });
  const FILES = ['specs/part3/domains.spec.ts', ...LONGEST_FIRST.slice().reverse(), LAST_FILES[0]!, 'specs/generic/part1.spec.ts'];
  /** vitest's own order from a cache that holds a slow run of the small files, one of them failed (a hostile target's). */
  const ordered = async (seed?: number) => {
    const Sequencer = lastFilesLast(seed);
    const cache = {
      getFileTestResults: (key: string) =>
        key.includes('/properties/') ? { duration: 1, failed: false } : { duration: 9000, failed: key.includes('domains') },
      getFileStats: () => ({ size: 1 }),
    };
    const sequencer = new Sequencer({ cache, config: { root: ROOT, sequence: {} } } as never);
    const files = await sequencer.sort(FILES.map(spec) as never);
    return files.map((file) => relative(ROOT, file.moduleId));
  };

  it('starts the longest files first whatever the cache says, the cancellation last', async () => {
    expect(await ordered()).toEqual([...LONGEST_FIRST, 'specs/part3/domains.spec.ts', 'specs/generic/part1.spec.ts', LAST_FILES[0]]);
  });

  it('with --shuffle, draws the order from the seed (the cancellation still last)', async () => {
    const orders = await Promise.all([1, 2, 3, 4].map((seed) => ordered(seed)));
    expect(orders.every((order) => order.at(-1) === LAST_FILES[0])).toBe(true);
    expect(orders.some((order) => !LONGEST_FIRST.every((file, index) => order[index] === file))).toBe(true);
  });
});
