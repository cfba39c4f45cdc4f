// A target with no incoming entity transfer (only another account can send one): the accept's checks needing a real
// transfer skip, but the one sending an id that does not exist needs none (the path's template names the id) and
// judges the rule (before, the missing transfer skipped it too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiarProxy, type FakeServer } from '../hostile/fake-servers.js';
import { runConformance, type RunOutcome } from '../hostile/conformance-run.js';
import { startEmulator } from '../safety/support.js';

const TOKEN = 'unknown-id-template-token-31';
const RULE = 'P1.account.unknown-id.post-account-entity-transfers-id-accept';
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let proxy: FakeServer;
let outcome: RunOutcome;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  proxy = await startLiarProxy(emulator.url, [
    {
      id: 'no-incoming-transfers',
      does: 'the transfer list shows none from another account',
      applies: (method, resource) => method === 'GET' && resource === '/v4/account/entity-transfers',
      rewrite: (body) => {
        const data = (body.data as Array<Record<string, unknown>>).filter((item) => item.is_sender !== false);
        return { ...body, data, results: data.length };
      },
    },
  ]);
  outcome = await runConformance(['--base-url', proxy.url, '--token', TOKEN, '--rules', RULE, '--allow-destructive', '--no-allure', '--progress', 'quiet']);
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await emulator?.stop();
});

describe('the accept of an entity transfer, on a target with none from another account', () => {
  it('judges an id that does not exist by the path template', () => {
    expect(outcome.results, outcome.stderr.slice(-2000)).not.toBeNull();
    const checks = outcome.results!.checkList.filter((check) => check.rules.includes(RULE) && check.name.includes('does not exist'));
    expect(checks.map((check) => `${check.verdict}: ${check.message ?? ''}`)).toEqual(['pass: ']);
  });
});
