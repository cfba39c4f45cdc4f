// The account's one cancellation comes after every other request of the run: its file waits until every other spec
// file of the run has marked its end, forgets the marks of an earlier run of the same id, and says why it cannot be
// last (a shard, a file that never ends) rather than cancel in the middle of a run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaults, type SuiteConfig } from '../../harness/config.js';
import { forgetFileEnds, LAST_FILES, markFileEnded, untilOtherFilesEnded } from '../../harness/run-order.js';

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
