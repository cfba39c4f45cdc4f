// Issue 18 in the harness: a public image is never deleted without --allow-destructive; a 404/405 from a documented
// endpoint is evidence about its `serves` rule only; a state with several documented reads is judged on every read
// that answers, and a check with no read answering has nothing to judge.
import { afterEach, describe, expect, it } from 'vitest';
import { Check, RuleViolation } from '../../harness/check.js';
import { defaults, type SuiteConfig } from '../../harness/config.js';
import type { Exchange } from '../../harness/http.js';
import { unservedRule } from '../../harness/judge.js';
import { readEvery } from '../../harness/reads.js';
import { Refusal, Target } from '../../harness/target.js';
import { startFakeServer, type FakeServer } from '../hostile/fake-servers.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const targetAt = (url: string, config: Partial<SuiteConfig> = {}) =>
  new Target({
    config: { ...defaults(), timeoutMs: 1000, consistencyWindowMs: 0, ...config },
    baseUrl: url,
    token: 'evidence-token-01',
    controlUrl: null,
    embedded: false,
  });
const answer = (method: string, path: string, status: number): Exchange => ({ method, path, status }) as Exchange;

describe('what the run did not create', () => {
  it('a DELETE of a public image is held back without --allow-destructive, in either spelling of its id', async () => {
    const guest = targetAt('http://127.0.0.1:9');
    for (const path of ['/v4/images/compute%2Fdebian12', '/v4/images/compute/debian12']) {
      await expect(guest.admit('DELETE', path), path).rejects.toThrow(Refusal);
      await expect(targetAt('http://127.0.0.1:9', { allowDestructive: true }).admit('DELETE', path), path).resolves.not.toThrow();
    }
    await expect(guest.admit('DELETE', '/v4/images/private%2F12')).resolves.not.toThrow();
    await expect(guest.admit('GET', '/v4/images/compute%2Fdebian12')).resolves.not.toThrow();
  });
});

describe('an endpoint that is not served', () => {
  it('names the serves rule of a documented endpoint answering 404 or 405, and nothing else', () => {
    expect(unservedRule(answer('GET', '/v4/account/logins', 404))).toBe('P1.account.serves.get-account-logins');
    expect(unservedRule(answer('GET', '/v4/networking/firewalls/7/rules?page=1', 405))).toBe('P3.firewalls.serves.get-networking-firewalls-id-rules');
    for (const status of [200, 400, 401, 500]) expect(unservedRule(answer('GET', '/v4/account/logins', status)), String(status)).toBeUndefined();
    expect(unservedRule(answer('GET', '/v4/no-such-thing', 404))).toBeUndefined();
  });
});

describe('several documented reads of one state', () => {
  const reads = (id: number) => [
    { what: 'GET …/rules', path: `/v4/networking/firewalls/${id}/rules`, pick: (body: unknown) => body as { inbound?: unknown } },
    { what: 'the view', path: `/v4/networking/firewalls/${id}`, pick: (body: unknown) => (body as { rules?: { inbound?: unknown } }).rules },
  ];

  async function serving(view: boolean, rules: boolean): Promise<Check> {
    server = await startFakeServer((request, response) => {
      const served = request.url!.endsWith('/rules') ? rules : view;
      response.writeHead(served ? 200 : 404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          served ? (request.url!.endsWith('/rules') ? { inbound: [] } : { id: 7, rules: { inbound: [] } }) : { errors: [{ reason: 'Not found' }] },
        ),
      );
    });
    return new Check(['P3.firewall.rules-update.replaces'], targetAt(server.url));
  }

  it('returns every read that answers', async () => {
    expect((await readEvery(await serving(true, true), reads(7))).map((read) => read.what)).toEqual(['GET …/rules', 'the view']);
    expect((await readEvery(await serving(true, false), reads(7))).map((read) => read.what)).toEqual(['the view']);
  });

  it('skips (never fails) when no read answers, naming the reads', async () => {
    const c = await serving(false, false);
    const outcome = await readEvery(c, reads(7)).catch((error: unknown) => error);
    expect(outcome).not.toBeInstanceOf(RuleViolation);
    expect((outcome as Error).message).toMatch(/none of the documented reads shows the state \(GET …\/rules; the view\)/);
  });
});
