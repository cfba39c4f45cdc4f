// The entity transfers a run accepted are one memory for every spec file (either worker thread), kept beside the
// cleanup ledgers without being taken for one, and forgotten when a run of the same id starts again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptedTransfers, noteAcceptedTransfer } from '../../harness/accepted-transfers.js';
import { pendingOfRun } from '../../harness/cleanup.js';
import { forgetFileEnds } from '../../harness/run-order.js';

const run = () => ({ out: mkdtempSync(join(tmpdir(), 'accepted-')), runId: 'acc' });

describe('the transfers a run accepted', () => {
  it('are read back by any file of the run, and are no cleanup ledger', () => {
    const config = run();
    expect(acceptedTransfers(config).size).toBe(0);
    noteAcceptedTransfer(config, 'a1');
    noteAcceptedTransfer({ ...config }, 'b2');
    expect([...acceptedTransfers(config)]).toEqual(['a1', 'b2']);
    expect(acceptedTransfers({ ...config, runId: 'other' }).size).toBe(0);
    expect(pendingOfRun(config.out, config.runId)).toEqual([]);
  });

  it('are forgotten when a run of the same id starts', () => {
    const config = run();
    noteAcceptedTransfer(config, 'a1');
    forgetFileEnds(config);
    expect(acceptedTransfers(config).size).toBe(0);
  });
});
