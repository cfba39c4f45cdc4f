// The cleanup ledger in memory and on disk tell the same story, in the order it happened: a path deleted and then
// recorded again (a tag label a generated body used twice) is pending again, and `sweep` sees it so too.
import { describe, expect, it } from 'vitest';
import { CleanupLedger, pendingOfRun } from '../../harness/cleanup.js';
import { tempDir } from '../safety/support.js';

const paths = (entries: { deletePath: string }[]) => entries.map((entry) => entry.deletePath);

describe('the cleanup ledger', () => {
  it('lists what is not yet deleted, newest first, in memory and on disk alike', () => {
    const out = tempDir('ledger');
    const ledger = new CleanupLedger(out, 'led1', 'part2-tags');
    ledger.record({ kind: 'tag', deletePath: '/v4/tags/a64' });
    ledger.record({ kind: 'domain', deletePath: '/v4/domains/7' });
    ledger.markDeleted('/v4/tags/a64');
    expect(paths(ledger.pending())).toEqual(['/v4/domains/7']);
    expect(paths(pendingOfRun(out, 'led1'))).toEqual(['/v4/domains/7']);
  });

  it('counts a path recorded again after its delete as pending, and its mark covers it', () => {
    const out = tempDir('ledger');
    const ledger = new CleanupLedger(out, 'led2', 'part2-tags');
    ledger.record({ kind: 'tag', deletePath: '/v4/tags/a64' });
    ledger.markDeleted('/v4/tags/a64');
    const mark = ledger.mark();
    ledger.record({ kind: 'tag', deletePath: '/v4/tags/a64' });
    expect(paths(ledger.pendingSince(mark))).toEqual(['/v4/tags/a64']);
    expect(paths(pendingOfRun(out, 'led2'))).toEqual(['/v4/tags/a64']);
    ledger.markDeleted('/v4/tags/a64');
    expect(ledger.pending()).toEqual([]);
    expect(pendingOfRun(out, 'led2')).toEqual([]);
  });
});
