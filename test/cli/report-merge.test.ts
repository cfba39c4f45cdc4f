// `report --from A --from B --out DIR` on two real shards of a run (the embedded emulator with one fault, narrowed to
// the firewall rules): the merged rules are those of the same run unsharded; the merged report is written and says
// where it came from; bad usage is one line and exit 2.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/conformance.js');
const FAULT = 'P3.firewall.status.enable-blocked-by-active';
const work = mkdtempSync(join(tmpdir(), 'conformance-merge-'));

function conformance(args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const run = (name: string, extra: string[] = []) => {
  const result = conformance([
    'run',
    '--emulator-fault',
    FAULT,
    '--rules',
    'P3.firewall.status',
    '--seed',
    '11',
    '--no-allure',
    '--progress',
    'quiet',
    '--out',
    join(work, name),
    ...extra,
  ]);
  return { ...result, results: JSON.parse(readFileSync(join(work, name, 'results.json'), 'utf8')) as Results };
};

let whole: ReturnType<typeof run>;
let shards: Array<ReturnType<typeof run>>;
let merge: ReturnType<typeof conformance>;
let merged: Results;

beforeAll(() => {
  whole = run('whole');
  shards = [run('s1', ['--shard', '1/2']), run('s2', ['--shard', '2/2'])];
  merge = conformance(['report', '--from', join(work, 's1', 'results.json'), '--from', join(work, 's2', 'results.json'), '--out', join(work, 'merged')]);
  merged = JSON.parse(readFileSync(join(work, 'merged', 'results.json'), 'utf8')) as Results;
}, 600_000);

describe('report --from shard … --out DIR', () => {
  it('merges the shards into the rules of the unsharded run', () => {
    expect(whole.code, whole.stderr.slice(-1000)).toBe(1);
    expect(shards.map((shard) => shard.results.run.shard)).toEqual(['1/2', '2/2']);
    expect(merge.code, merge.stderr).toBe(0);
    const judged = (results: Results) =>
      results.rules.filter((rule) => rule.status !== 'untested' && rule.status !== 'disabled').map((rule) => [rule.id, rule.status, rule.checksTotal]);
    expect(judged(merged)).toEqual(judged(whole.results));
    expect(merged.summary).toEqual(whole.results.summary);
    expect(merged.checkList.length).toBe(whole.results.checkList.length);
    expect(merged.failures.map((failure) => failure.rule)).toEqual([FAULT]);
    expect(merged.run.shard).toBeNull();
  });

  it('writes the merged results.json, compliance.html and junit.xml, and a closing line with the counts', () => {
    expect(merge.stdout).toMatch(
      /^conformance: merged 2 results: rules \d+ pass, 1 fail, 0 error, .* → .*merged\/results\.json, .*merged\/compliance\.html, .*merged\/junit\.xml\n$/,
    );
    expect(readFileSync(join(work, 'merged', 'compliance.html'), 'utf8')).toContain('merged from 2 results (shards 1/2, 2/2)');
    const junit = readFileSync(join(work, 'merged', 'junit.xml'), 'utf8');
    expect(XMLValidator.validate(junit)).toBe(true);
    expect(junit.match(/<testcase /g)).toHaveLength(merged.checkList.length);
  });

  it('needs --out to merge, and refuses the same shard twice with one line', () => {
    const s1 = join(work, 's1', 'results.json');
    expect(conformance(['report', '--from', s1, '--from', join(work, 's2', 'results.json')])).toMatchObject({
      code: 2,
      stderr: 'conformance: merging several --from needs --out DIR (where the merged reports go)\n',
    });
    expect(conformance(['report', '--from', s1, '--from', s1, '--out', join(work, 'twice')])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /^conformance: .*s1\/results\.json and .*s1\/results\.json are the same results \(run \w+, shard 1\/2\): each would be counted twice\n$/,
      ),
    });
  });
});
