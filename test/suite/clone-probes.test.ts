// Whether a clone still ran when an action it blocks was accepted is probed with further clones from its source: five
// may run at once from one source, so the fifth probe is refused with 400 while the check's clone runs. A server may
// also refuse to clone an instance an accepted action made busy (a resize), with any 4xx, 400 among them: that refusal
// of an earlier probe shows nothing of the clone. Here a proxy plays such a server: it takes the resize (the clone from
// the instance having ended unseen, and a clone onto it not being an action of its target: neither is shown) and then
// refuses every clone from the resizing instance with 400.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';
import { ruleOf } from '../hostile/conformance-run.js';
import { startRewritingProxy } from '../hostile/fake-servers.js';
import { quietRun, startEmulator, tempDir } from '../safety/support.js';

const TOKEN = 'clone-probes-emulator-token-01';
const emulator = await startEmulator(TOKEN);
afterAll(() => emulator.stop());

it('does not fail a resize accepted once the clone had ended, when the resizing instance refuses clones from it with 400', async () => {
  const out = tempDir('clone-probes');
  const resizing = new Set<string>();
  const proxy = await startRewritingProxy(emulator.url, {
    answer: ({ method, path }) => {
      const [, id, action] = /^\/v4\/compute\/instances\/(\d+)\/(resize|clone)$/.exec(path) ?? [];
      if (method !== 'POST' || !id) return undefined;
      if (action === 'resize') {
        resizing.add(id);
        return { status: 200, body: {} };
      }
      return resizing.has(id) ? { status: 400, body: { errors: [{ reason: 'The instance is being resized.' }] } } : undefined;
    },
  });
  try {
    const run = await quietRun(proxy.url, TOKEN, out, ['--rules', 'P2.resize.no-running-actions', '--max-instances', 'unlimited']);
    expect(resizing.size).toBeGreaterThan(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(ruleOf(results, 'P2.resize.no-running-actions').status, run.stdout + run.stderr).not.toBe('fail');
  } finally {
    await proxy.close();
  }
}, 120_000);
