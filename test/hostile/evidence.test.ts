// A fail only where the evidence is, and the guest promise (issue 18), against the reference emulator behind proxies
// that diverge from it as an independent implementation did:
// - a target that does not serve some endpoints (404), answers requests without a token, and answers every page of
//   the lists that take no page parameter with page 1, and marks events seen up to any id: only the unserved
//   endpoints' own rules and the auth rule fail (with evidence about them), and a state read through the one
//   documented read that answers is judged;
// - a target that accepts every write (any token or none, updates and deletes of public images): a full run without
//   --allow-destructive leaves everything it did not create as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedEmulator } from '../../harness/embedded.js';
import { findEndpoint } from '../../harness/responses.js';
import { endpointKey } from '../../rules/endpoints.js';
import { ruleById } from '../../rules/index.js';
import type { Results } from '../../reports/results.js';
import { startRewritingProxy, type FakeServer, type ProxiedRequest } from './fake-servers.js';
import { ruleOf, runConformance, type RunOutcome } from './conformance-run.js';
import { COLLECTIONS, api } from '../safety/support.js';

type Json = Record<string, unknown>;

const TOKEN = 'hostile-evidence-token-0001';
const NOT_FOUND = { status: 404, body: { errors: [{ reason: 'Not found' }] } };
/** The settings of the embedded run, given as a real target's (the clock and token hooks are reached directly). */
const SETTINGS = [
  '--max-instances',
  'unlimited',
  '--max-databases',
  'unlimited',
  '--other-region',
  'us-west',
  '--region-without-vlans',
  'us-west',
  '--spare-vlan-region',
  'eu-central',
  '--taken-domain',
  'taken-by-another-account.example',
  '--consistency-window',
  '0',
  '--seed',
  '7',
];

const withToken = (request: ProxiedRequest): ProxiedRequest => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${TOKEN}` } });
const pathOf = (request: ProxiedRequest) => request.path.split('?')[0]!;

/** Endpoints the partial target does not serve, as paths it answers 404 for. */
const UNSERVED: Array<[rule: string, path: RegExp]> = [
  ['P1.account.serves.get-account-logins', /^\/v4\/account\/logins$/],
  ['P3.monitor.serves.get-monitor-clients', /^\/v4\/monitor\/clients$/],
  ['P3.firewalls.serves.get-networking-firewalls-id-rules', /^\/v4\/networking\/firewalls\/\d+\/rules$/],
];
/** Lists of document 1 that take no page parameter: the partial target ignores one (always page 1). */
const UNPAGED = [
  /^\/v4\/databases\/mysql\/instances$/,
  /^\/v4\/databases\/mysql\/instances\/\d+\/backups$/,
  /^\/v4beta\/account\/maintenance$/,
  /^\/v4\/account\/notifications$/,
];

const withoutPage = (request: ProxiedRequest): ProxiedRequest => {
  const url = new URL(request.path, 'http://target');
  url.searchParams.delete('page');
  return { ...request, path: `${url.pathname}${url.search}` };
};

/** Marking events seen takes any integer as the bound "up to and including this ID", one no event has too. */
const SEEN = /^\/v4\/account\/events\/\d+\/seen$/;

const partial = {
  answer: (request: ProxiedRequest) => {
    if (request.method === 'POST' && SEEN.test(pathOf(request))) return { status: 200, body: {} };
    return request.method === 'GET' && UNSERVED.some(([, path]) => path.test(pathOf(request))) ? NOT_FOUND : undefined;
  },
  change: (request: ProxiedRequest) => {
    const authorised = request.headers.authorization ? request.headers : withToken(request).headers;
    const unpaged = request.method === 'GET' && UNPAGED.some((path) => path.test(pathOf(request)));
    return { ...(unpaged ? withoutPage(request) : request), headers: authorised };
  },
};

/** Every write goes through as the full-access user, whatever token it carried (or none). */
const acceptsEveryWrite = { change: (request: ProxiedRequest) => (request.method === 'GET' ? request : withToken(request)) };

async function behind(faults: string[], rewrite: Parameters<typeof startRewritingProxy>[1]): Promise<{ emulator: EmbeddedEmulator; proxy: FakeServer }> {
  const emulator = await startEmbedded(TOKEN, faults);
  return { emulator, proxy: await startRewritingProxy(emulator.url, rewrite) };
}

const targets: Array<{ emulator: EmbeddedEmulator; proxy: FakeServer }> = [];
afterAll(async () => {
  for (const { emulator, proxy } of targets) {
    await proxy.close();
    await emulator.stop();
  }
});

function runOn(target: { emulator: EmbeddedEmulator; proxy: FakeServer }, args: string[], killAfterMs: number): Promise<RunOutcome> {
  return runConformance(
    ['--base-url', target.proxy.url, '--control-url', target.emulator.url, '--token', TOKEN, '--no-allure', '--progress', 'quiet', ...SETTINGS, ...args],
    killAfterMs,
  );
}

describe('a target serving only some endpoints, and answering without a token', () => {
  // The scope rules of the unserved endpoints: a token holding exactly their scopes gets the 404 too.
  const SCOPES = ['P1.account.scope.get-account-logins', 'P3.monitor.scope.get-monitor-clients'];
  const RULES = [
    'P1.errors.body',
    'P1.conventions.list',
    'P3.pagination',
    'P3.firewall.rules-update',
    'P1.account.auth.get-account',
    'P1.account.unknown-id',
    ...SCOPES,
    ...UNSERVED.map(([rule]) => rule),
  ];
  const FILES = ['specs/part1/conventions', 'specs/generic/pagination', 'specs/generic/part1', 'specs/generic/part3', 'specs/part3/firewalls'];
  let outcome: RunOutcome;
  let results: Results;

  beforeAll(async () => {
    const target = await behind([], partial);
    targets.push(target);
    // --allow-destructive: marking events seen is sent at all.
    outcome = await runOn(target, ['--allow-destructive', '--rules', RULES.join(','), ...FILES], 240_000);
    results = outcome.results!;
  }, 270_000);

  it('fails only the unserved endpoints’ own rules and the auth rule of the request it answered without a token', () => {
    expect(outcome.code, outcome.stderr.slice(-2000)).toBe(1);
    const failing = results.rules.filter((rule) => rule.status === 'fail').map((rule) => rule.id);
    expect(failing.sort()).toEqual([...UNSERVED.map(([rule]) => rule), 'P1.account.auth.get-account'].sort());
    expect(results.rules.filter((rule) => rule.status === 'error').map((rule) => rule.id)).toEqual([]);
  });

  it('gives every fail evidence about its own rule: a request to the rule’s endpoint', () => {
    for (const rule of results.rules.filter((candidate) => candidate.status === 'fail')) {
      const endpoints = ruleById.get(rule.id)!.endpoints;
      for (const fail of rule.checks.filter((check) => check.verdict === 'fail')) {
        const requested = (fail.evidence ?? [])
          .map((exchange) => findEndpoint(`${exchange.method} ${exchange.path}`))
          .filter((endpoint) => endpoint !== undefined)
          .map(endpointKey);
        expect(
          requested.some((key) => endpoints.includes(key)),
          `${rule.id}: ${fail.name}`,
        ).toBe(true);
      }
    }
  });

  it('judges the error body, the list envelope and paging on the answers that are of their kind', () => {
    for (const id of ['P1.errors.body.object', 'P1.conventions.list.object', 'P3.pagination.page.default-1'])
      expect(ruleOf(results, id).status, id).toBe('pass');
  });

  it('reads a list answering a page past the last with a truthful "page 1 of 1" as consistent', () => {
    expect(ruleOf(results, 'P1.conventions.list.pages-total').status).toBe('pass');
  });

  it('does not hold an unknown id against marking events seen: the id is a bound', () => {
    const rule = ruleOf(results, 'P1.account.unknown-id.post-account-events-id-seen');
    expect(rule.status).toBe('untested');
    expect(rule.untestable).toMatch(/up to and including this ID/);
  });

  it('judges firewall rules on the documented read that answers (the firewall view) when GET …/rules is not served', () => {
    expect(ruleOf(results, 'P3.firewall.rules-update.replaces').status).toBe('pass');
  });
});

describe('a target that accepts every write, on resources the run did not create too', () => {
  const target = () => targets.at(-1)!;
  let client: ReturnType<typeof api>;
  let outcome: RunOutcome;
  let before: Map<string, Json>;

  /**
   * Everything on the account and the platform, by path: the items of every collection, public images included, the
   * account and the plan. Left out: `updated`, which an accepted update that changes nothing (the public image's own
   * label and description sent back) moves (and which is no documented image field), and the expiry of a pending
   * transfer, which the run's simulated time brings about (a transfer the run cancelled or accepted still shows).
   */
  async function state(): Promise<Map<string, Json>> {
    const taken = new Map<string, Json>();
    const expired = (item: Json) => (item.status === 'stale' ? { ...item, status: 'pending' } : item);
    for (const collection of COLLECTIONS)
      for (const { updated: _updated, ...item } of await client.list(collection))
        taken.set(`${collection}/${String(item.id ?? item.token)}`, collection.endsWith('entity-transfers') ? expired(item) : item);
    for (const path of ['/v4/account', '/v4/monitor/plan']) taken.set(path, await client.get(path));
    for (const event of await client.list('/v4/account/events')) taken.set(`/v4/account/events/${String(event.id)}`, { seen: event.seen, read: event.read });
    return taken;
  }

  beforeAll(async () => {
    targets.push(await behind(['P2.images.update.private-only', 'P2.images.delete.private-only'], acceptsEveryWrite));
    client = api(target().emulator.url, TOKEN);
    before = await state();
    outcome = await runOn(target(), ['--runs', '5'], 420_000);
  }, 450_000);

  it('leaves every resource it did not create as it was, public images included', async () => {
    expect(outcome.results, outcome.stderr.slice(-2000)).not.toBeNull();
    const after = await state();
    const changed = [...before]
      .filter(([path, value]) => JSON.stringify(after.get(path)) !== JSON.stringify(value))
      .map(([path, value]) => ({ path, before: value, after: after.get(path) }));
    expect(changed).toEqual([]);
    expect([...before.keys()].filter((path) => path.startsWith('/v4/images/compute/')).length).toBeGreaterThan(0);
  });

  it('still judges the update refusal (a no-op update was accepted) and holds the delete back', () => {
    const results = outcome.results!;
    expect(ruleOf(results, 'P2.images.update.private-only').status).toBe('fail');
    expect(ruleOf(results, 'P2.images.delete.private-only').checks.find((check) => check.name.includes('public image cannot be deleted'))?.verdict).toBe(
      'disabled',
    );
  });
});
