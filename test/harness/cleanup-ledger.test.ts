// The cleanup ledger in memory and on disk tell the same story, in the order it happened: a path deleted and then
// recorded again (a tag label a generated body used twice) is pending again, and `sweep` sees it so too; a path
// recorded twice is pending once.
import fc from 'fast-check';
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

  it('keeps one entry pending for a path recorded again before its delete (an id given again): one DELETE, not two', () => {
    const out = tempDir('ledger');
    const ledger = new CleanupLedger(out, 'led4', 'part3-domains');
    ledger.record({ kind: 'domain', deletePath: '/v4/domains/19', label: 'a.example' });
    ledger.record({ kind: 'domain', deletePath: '/v4/domains/19', label: 'b.example' });
    expect(ledger.pending().map((entry) => entry.label)).toEqual(['b.example']);
    expect(pendingOfRun(out, 'led4').map((entry) => entry.label)).toEqual(['b.example']);
  });

  it('lists, since a mark, every pending entry of a path recorded after it (older ones too), newest first', () => {
    // The definition the ledger's index must agree with: the pending entries whose path was recorded since the mark.
    const path = fc.constantFrom<string>('/v4/tags/a', '/v4/tags/b', '/v4/domains/1', '/v4/domains/2');
    const operation = fc.oneof(fc.record({ record: path }), fc.record({ deleted: path }));
    const out = tempDir('ledger');
    let runs = 0;
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), fc.nat(30), (operations, at) => {
        const ledger = new CleanupLedger(out, 'led3', `property-${++runs}`);
        let mark = 0;
        operations.forEach((operation, index) => {
          if (index === at) mark = ledger.mark();
          if ('record' in operation) ledger.record({ kind: 'thing', deletePath: operation.record });
          else ledger.markDeleted(operation.deleted);
        });
        if (at >= operations.length) mark = ledger.mark();
        const recent = new Set(operations.slice(at).flatMap((operation) => ('record' in operation ? [operation.record] : [])));
        const expected = ledger.pending().filter((entry) => recent.has(entry.deletePath));
        ledger.close();
        expect(ledger.pendingSince(mark)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
