// Shard results merged (hand-made): the union of checks and requests, a rule judged in several shards at its worst
// status, a partial set of shards named as such, expectations applied to the merged rules, refusals in one line.
import { describe, expect, it } from 'vitest';
import { applyExpectations } from '../../reports/expectations.js';
import { renderHtml } from '../../reports/html.js';
import { mergeResults } from '../../reports/merge.js';
import type { Results } from '../../reports/results.js';
import { OUTCOMES, outcome, sampleResults } from './sample-results.js';

const FIREWALL = 'P3.firewall.status.enable-blocked-by-active';
const PASSING = 'P3.firewall.status.disabled-to-enabled';
const shard = (results: Results, slice: string, id: string): Results => ({ ...results, run: { ...results.run, id, shard: slice } });
// The firewall fail in shard 1; shard 2 passes the rule that failed in shard 1 in a check of its own.
const passesThere = outcome('enabling is refused while another is active', 'specs/part3/firewall-status.spec.ts', 'pass', [FIREWALL]);
const one = shard(sampleResults(OUTCOMES.slice(0, 3)), '1/2', 'rone');
const two = shard(
  { ...sampleResults([...OUTCOMES.slice(3), passesThere]), started: '2026-11-21T06:59:00.000Z', finished: '2026-11-21T07:01:00.000Z' },
  '2/2',
  'rtwo',
);
const whole = sampleResults([...OUTCOMES, passesThere]);
const merged = mergeResults([
  { file: 'a/results.json', results: one },
  { file: 'b/results.json', results: two },
]);
const rule = (results: Results, id: string) => results.rules.find((candidate) => candidate.id === id)!;

describe('merged shard results', () => {
  it('judge every rule as the whole run would: its worst status over the shards, its checks summed', () => {
    expect(rule(merged, FIREWALL)).toMatchObject({ status: 'fail', checksJudged: 2, checksTotal: 2 });
    expect(merged.rules.map((candidate) => [candidate.id, candidate.status, candidate.checksJudged, candidate.checksTotal, candidate.judgement])).toEqual(
      whole.rules.map((candidate) => [candidate.id, candidate.status, candidate.checksJudged, candidate.checksTotal, candidate.judgement]),
    );
    for (const key of ['summary', 'score', 'judgement', 'checks', 'warnings', 'untested'] as const) expect(merged[key], key).toEqual(whole[key]);
    expect(merged.endpoints).toEqual(whole.endpoints);
    expect(merged.checkList).toHaveLength(whole.checkList.length);
    expect(merged.failures).toEqual(whole.failures);
  });

  it('span the shards in time and name the files and shards, a whole run when every slice is there', () => {
    expect(merged).toMatchObject({
      started: '2026-11-21T06:59:00.000Z',
      finished: '2026-11-21T07:01:00.000Z',
      merged: { from: ['a/results.json', 'b/results.json'], shards: ['1/2', '2/2'] },
    });
    expect(merged.run.shard).toBeNull();
    expect(renderHtml(merged)).toContain('merged from 2 results (shards 1/2, 2/2)</dd>');
    const partial = mergeResults([
      { file: 'a.json', results: one },
      { file: 'c.json', results: shard(two, '2/3', 'rthree') },
    ]);
    expect(partial.run.shard).toBe('1/2, 2/3');
    expect(renderHtml(partial)).toContain('(shards 1/2, 2/3): a partial run, not every shard of the run');
  });

  it('apply the shards’ expectations to the merged rules: a rule passing in one shard and failing in another failed', () => {
    const entries = { [FIREWALL]: { reason: 'OPS-1' }, [PASSING]: { reason: 'old' } };
    const withFile = mergeResults([
      { file: 'a.json', results: applyExpectations(one, entries, 'gate.json') },
      { file: 'b.json', results: applyExpectations(two, entries, 'gate.json') },
    ]);
    expect(withFile.expectations).toMatchObject({ file: 'gate.json', expected: [FIREWALL], unexpectedlyPassing: [PASSING] });
    expect(rule(withFile, FIREWALL).status).toBe('expected');
    expect(withFile.summary.fail).toBe(whole.summary.fail - 1);
  });

  it('are refused in one line for another target, other documents, or the same shard twice', () => {
    expect(() =>
      mergeResults([
        { file: 'a.json', results: one },
        { file: 'b.json', results: { ...two, target: 'https://api.example.com' } },
      ]),
    ).toThrow(/^b\.json ran against https:\/\/api\.example\.com, a\.json against embedded reference emulator: merge the shards of one target only/);
    expect(() =>
      mergeResults([
        { file: 'a.json', results: one },
        { file: 'b.json', results: { ...two, documentsVersion: '4.0.0' } },
      ]),
    ).toThrow(/^b\.json judged documents 4\.0\.0, a\.json documents 4\.123\.1$/);
    expect(() =>
      mergeResults([
        { file: 'a.json', results: one },
        { file: 'copy.json', results: one },
      ]),
    ).toThrow(/^copy\.json and a\.json are the same results \(run rone, shard 1\/2\): each would be counted twice$/);
  });
});
