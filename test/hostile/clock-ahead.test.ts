// A target whose clock is weeks ahead of the calendar (a simulated clock earlier checks moved, a server set ahead) and
// which refuses usage for months before an instance existed (`usage-from-creation`, a choice the documents leave
// open): a valid usage request asks for the month the instance was created in by the target's own clock, never the
// calendar's (found on 2026-11-29: the variation matrix failed the four usage checks once other files' clock moves
// had taken the emulator into December).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedEmulator } from '../../harness/embedded.js';
import { EMBEDDED_RUN_SETTINGS, ruleOf, runConformance, type RunOutcome } from './conformance-run.js';

const TOKEN = 'clock-ahead-token-0001';
const USAGE_RULES = ['stats', 'transfer'].flatMap((kind) => [
  `P2.compute.serves.get-compute-instances-id-${kind}-id-id`,
  `P2.compute.scope.get-compute-instances-id-${kind}-id-id`,
]);
const FORTY_DAYS = 40 * 24 * 3600;

let emulator: EmbeddedEmulator | undefined;
let outcome: RunOutcome;

beforeAll(async () => {
  emulator = await startEmbedded(TOKEN, [], ['usage-from-creation']);
  const moved = await fetch(`${emulator.url}/__control/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ advance_seconds: FORTY_DAYS }),
  });
  expect(moved.status).toBe(200);
  outcome = await runConformance([
    '--base-url',
    emulator.url,
    '--control-url',
    emulator.url,
    '--token',
    TOKEN,
    ...EMBEDDED_RUN_SETTINGS,
    '--rules',
    USAGE_RULES.join(','),
    '--no-allure',
    '--progress',
    'quiet',
  ]);
}, 120_000);

afterAll(() => emulator?.stop());

describe('a target whose clock is ahead of the calendar', () => {
  it('gives a passing run', () => {
    expect(outcome.code, outcome.stderr.slice(-3000)).toBe(0);
  });

  it.each(USAGE_RULES)('%s passes: the month asked for is the one the instance was created in', (rule) => {
    expect(outcome.results, outcome.stderr.slice(-3000)).not.toBeNull();
    expect(ruleOf(outcome.results!, rule).status).toBe('pass');
  });
});
