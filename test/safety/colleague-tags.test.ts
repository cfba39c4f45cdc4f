// A colleague on the same account holds tags with the labels the run's generated tag-create bodies would send (the
// shortest labels cannot hold the run's prefix). A tag is its label, and what a create of a label already taken does is
// not shown: a refusal would be no fault of the target's, and an acceptance would have the clean-up delete the
// colleague's tag. The run sends none of those bodies: no fail, and the colleague's tags are left as they were, on the
// emulator (which refuses a label taken) and under `existing-tag-created-again` (which takes the create in).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';
import { api, quietRun, startEmulator, startRecordingProxy, tempDir, type CliResult, type RecordedRequest } from './support.js';

const TOKEN = 'colleague-tags-token-5k2w';
/** The valid tag-create bodies, and bodies breaking a member other than the label (sent with valid labels). */
const RULES = ['P2.tags.serves.post-tags', 'P2.tag-create.types'];
const SEED = '20261202';
const TAG_PATH = /^\/v4\/tags\/([^/?]+)$/;

/** A run of RULES at SEED against `target` through a proxy recording its requests; `out` its reports. */
async function runRecorded(target: string, out: string) {
  const proxy = await startRecordingProxy(target);
  try {
    const done = await quietRun(proxy.url, TOKEN, out, ['--seed', SEED, '--rules', RULES.join(',')]);
    return { done, requests: proxy.requests, results: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results };
  } finally {
    proxy.close();
  }
}

/** The labels without the run's prefix that a run read the tag of. */
function unprefixedTagsRead(requests: RecordedRequest[], runId: string): string[] {
  const labels = requests
    .filter((request) => request.method === 'GET')
    .map((request) => decodeURIComponent(TAG_PATH.exec(request.path)?.[1] ?? ''))
    .filter((label) => label && !label.startsWith(`${runId}-`));
  return [...new Set(labels)];
}

for (const variations of [[], ['existing-tag-created-again']]) {
  describe(`a colleague holding the tags the shortest generated labels name${variations.length ? ` (${variations.join(', ')})` : ''}`, () => {
    let emulator: Awaited<ReturnType<typeof startEmulator>>;
    /** The labels the first run read before sending them, which the colleague then holds. */
    let shortLabels: string[];
    let run: CliResult;
    let results: Results;

    beforeAll(async () => {
      emulator = await startEmulator(TOKEN, variations);
      const first = await runRecorded(emulator.url, tempDir('colleague-tags'));
      expect(first.done.code, first.done.stderr.slice(-2000)).toBe(0);
      shortLabels = unprefixedTagsRead(first.requests, first.results.run.id);
      // The same seed generates the same labels (their lengths do not depend on the run id, whose length is fixed).
      const colleague = api(emulator.url, await api(emulator.url, TOKEN).mintToken({ scopes: '*' }));
      for (const label of shortLabels) await colleague.create('/v4/tags', { label });
      ({ done: run, results } = await runRecorded(emulator.url, tempDir('colleague-tags')));
    }, 180_000);

    afterAll(() => emulator?.stop());

    it('the first run met such labels (more than a handful)', () => {
      expect(shortLabels.length).toBeGreaterThan(5);
    });

    it('makes no check fail: the run exits 0, both checks judged', () => {
      expect(run.code, run.stderr.slice(-2000)).toBe(0);
      expect(results.summary.fail).toBe(0);
      for (const rule of RULES) expect(results.rules.find((candidate) => candidate.id === rule)?.status, rule).toBe('pass');
    });

    it("leaves every one of the colleague's tags in place", async () => {
      const client = api(emulator.url, TOKEN);
      const answers = await Promise.all(shortLabels.map((label) => client.call('GET', `/v4/tags/${encodeURIComponent(label)}`)));
      expect(answers.map((answer) => answer.status)).toEqual(shortLabels.map(() => 200));
    });
  });
}
