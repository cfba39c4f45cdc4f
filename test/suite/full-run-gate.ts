// The zero-fail gate over three seeds: what a full run against the embedded reference emulator must show. Two seeds
// run in full-run.test.ts; the third is the yardstick of test/hostile/liar.test.ts, run beside the lying target's run
// (so it also proves the suite quiet under double load).
import { describe, expect, it } from 'vitest';
import { pendingOfRun } from '../../harness/cleanup.js';
import type { Results } from '../../reports/results.js';
import { ledger } from '../../rules/index.js';

export interface FullRun {
  out: string;
  results: Results;
  exitCode: number | null;
  stderr: string;
}

/** Declares the gate's checks of one full run (`runOf` is read when they run, after the run's beforeAll). */
export function describeFullRunGate(title: string, runOf: () => FullRun): void {
  describe(title, () => {
    it('reports no fail and no error, and exits 0', () => {
      const { results, exitCode, stderr } = runOf();
      const broken = results.rules
        .filter((rule) => rule.status === 'fail' || rule.status === 'error')
        .map((rule) => `${rule.id}: ${rule.checks.find((check) => check.verdict !== 'pass')?.message ?? ''}`.slice(0, 300));
      expect(broken).toEqual([]);
      expect(exitCode, stderr.slice(-2000)).toBe(0);
    });

    it('checks every rule of the ledger, except those marked untestable with a reason', () => {
      const untestable = new Set(ledger.filter((rule) => rule.check.startsWith('untestable: ')).map((rule) => rule.id));
      const unchecked = runOf()
        .results.rules.filter((rule) => rule.status === 'untested' && !untestable.has(rule.id))
        .map((rule) => rule.id);
      expect(unchecked).toEqual([]);
    });

    // The reference emulator offers every capability: a rule left unjudged there is a check that lost a race with
    // another spec file (once the declined charge of cancellation, before the run's one successful cancel came last).
    it('judges every rule it checks: none skipped or disabled', () => {
      const unjudged = runOf()
        .results.rules.filter((rule) => rule.status === 'skip' || rule.status === 'disabled')
        .map((rule) => `${rule.id}: ${rule.checks.find((check) => check.verdict !== 'pass')?.message ?? ''}`.slice(0, 300));
      expect(unjudged).toEqual([]);
    });

    it('requests every one of the 127 endpoints', () => {
      const { endpoints } = runOf().results;
      expect(endpoints).toHaveLength(127);
      expect(endpoints.filter((endpoint) => endpoint.requests === 0).map((endpoint) => `${endpoint.method} ${endpoint.path}`)).toEqual([]);
    });

    it('leaves nothing behind on the target: every ledger entry of the run was deleted', () => {
      const { out, stderr } = runOf();
      const runId = /run (\w+) against/.exec(stderr)?.[1];
      expect(runId).toBeTruthy();
      expect(pendingOfRun(out, runId!).map((entry) => `${entry.kind} ${entry.deletePath}`)).toEqual([]);
    });
  });
}
