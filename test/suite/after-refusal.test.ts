// A valid request refused for a precondition the target may require (an instance enrolled in the backup service
// before a snapshot), on a target without the clock hook: the precondition is put in place on the first refusal, not
// after a minute and a half of the request refused in vain.
import { describe, expect, it } from 'vitest';
import { Check } from '../../harness/check.js';
import { defaults } from '../../harness/config.js';
import type { Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { Target } from '../../harness/target.js';
import { sendAfterRefusalAsRecipeSays } from '../../specs/generic/endpoint-checks.js';
import type { Recipe } from '../../specs/generic/valid-requests.js';

/** A check on a target without the clock hook; nothing is sent to it (the requests are `send`'s). */
const checkWithoutHook = () =>
  new Check(
    ['P2.compute.serves.post-compute-instances-id-backups'],
    new Target({ config: defaults(), baseUrl: 'http://127.0.0.1:9', token: 'after-refusal-token-01', controlUrl: null, embedded: false }),
    20_000,
  );

/** A snapshot request refused until `enrolled()`, answering with the statuses it gave in `sent`. */
function snapshotSender(enrolled: () => boolean) {
  const sent: number[] = [];
  const send = async () => {
    const status = enrolled() ? 200 : 400;
    sent.push(status);
    return { method: 'POST', path: '/v4/compute/instances/7/backups', status, headers: {}, body: {} } as unknown as Exchange;
  };
  return { sent, send };
}

describe('a valid request whose recipe may find the resource busy and puts a precondition in place after a refusal', () => {
  it('is sent again once the precondition is in place, without a wait while busy first', async () => {
    let enrolled = false;
    const { sent, send } = snapshotSender(() => enrolled);
    const recipe = { mayBeBusy: true, afterRefusal: async () => (enrolled = true), build: async () => ({ path: '' }) } as Recipe;
    const started = Date.now();
    const exchange = await sendAfterRefusalAsRecipeSays(checkWithoutHook(), {} as Fixtures, recipe, { path: '/v4/compute/instances/7/backups' }, send);
    expect(exchange.status).toBe(200);
    expect(sent).toEqual([400, 200]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('where the precondition is refused too (the resource busy), waits, then puts it in place again', async () => {
    let tries = 0;
    let enrolled = false;
    const { sent, send } = snapshotSender(() => enrolled);
    // refused at the first try (busy), accepted at the second
    const recipe = { mayBeBusy: true, afterRefusal: async () => (enrolled = ++tries > 1), build: async () => ({ path: '' }) } as Recipe;
    const exchange = await sendAfterRefusalAsRecipeSays(checkWithoutHook(), {} as Fixtures, recipe, { path: '/v4/compute/instances/7/backups' }, send);
    expect(exchange.status).toBe(200);
    expect(tries).toBe(2);
    expect(sent.at(-1)).toBe(200);
    expect(sent.filter((status) => status === 200)).toHaveLength(1);
  }, 30_000);
});
