// The closing line of a run at a base URL that left something on the target: what is left, why it may still be busy,
// and a sweep that waits for what a target refuses to delete while busy (a clone ran ten minutes past the spec file's
// minute and a half of retries, and the line named only the provisioning clusters for the instances left with them).
import { describe, expect, it } from 'vitest';
import { leftoversLine } from '../../cli/run.js';
import type { LedgerEntry } from '../../harness/cleanup.js';

const CONFIG = { baseUrl: 'https://user:secret@staging.example.com', runId: 'r0c0ffe', out: 'reports/out' };
const entry = (kind: string, deletePath: string): LedgerEntry => ({ kind, deletePath, created: '2026-12-07T12:00:00.000Z' });

const CASES: Array<{ left: LedgerEntry[]; says: RegExp; waits: boolean }> = [
  {
    left: [entry('database', '/v4/databases/mysql/instances/3')],
    says: /\(1 database; a cluster cannot be deleted while it provisions\)/,
    waits: true,
  },
  {
    left: [entry('instance', '/v4/compute/instances/7'), entry('database', '/v4/databases/mysql/instances/3'), entry('instance', '/v4/compute/instances/8')],
    says: /\(2 instance, 1 database; a target may refuse to delete an instance while an action on it runs, a clone from or to it; a cluster cannot be deleted while it provisions\)/,
    waits: true,
  },
  { left: [entry('domain', '/v4/domains/12')], says: /\(1 domain\): \/v4\/domains\/12;/, waits: false },
];

describe('the closing line naming what a run left on the target', () => {
  it.each(CASES.map((c) => [c.left.map((e) => e.kind).join(', '), c] as const))('%s', (_, { left, says, waits }) => {
    const line = leftoversLine(CONFIG, left);
    expect(line).toMatch(says);
    expect(line).toContain('`conformance sweep --run-id r0c0ffe --base-url https://staging.example.com');
    expect(line.includes('--wait 3600000')).toBe(waits);
    expect(line.includes('a run given --wait-for-leftovers 3600000 sweeps them itself')).toBe(waits);
    expect(leftoversLine({ ...CONFIG, leftoversWaitMs: 600_000 }, left)).not.toContain('--wait-for-leftovers');
    expect(line).not.toContain('secret');
  });

  it('lists five paths and says there are more', () => {
    const left = Array.from({ length: 7 }, (_, i) => entry('domain', `/v4/domains/${i + 1}`));
    expect(leftoversLine(CONFIG, left)).toContain('/v4/domains/5, …;');
  });
});
