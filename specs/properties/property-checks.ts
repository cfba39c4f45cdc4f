// Request bodies generated from the documents (arbitraries/) and sent to the target: valid bodies are accepted;
// each body that breaks exactly one constraint is rejected with a 4xx error body naming the member at fault;
// a rejected update leaves the resource as it was. Failures shrink and print the seed and a replay command.
import fc from 'fast-check';
import { describe } from 'vitest';
import { needVlanRoom, vlansNamed } from '../../harness/account-limits.js';
import { checkWaiting, type Check } from '../../harness/check.js';
import { errorFields, namesField } from '../../harness/error-bodies.js';
import { runProperty } from '../../harness/property.js';
import { readAfterWrite, skipUnlessShownInTime, untilShortlyDone, untilShortlyDoneSparingly } from '../../harness/consistency.js';
import { answersGone } from '../../harness/resources.js';
import { listPages, succeeded } from '../../harness/lists.js';
import { madeAgain, SetupError, useFixtures, type Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { endpointByKey, endpointKey, endpoints, type Endpoint } from '../../rules/endpoints.js';
import { endpointRuleId } from '../../rules/endpoint-rules.js';
import type { BodyArbitraries, BodyContext, Violation } from '../../arbitraries/types.js';
import { loadContract } from '../../harness/contract.js';
import { CONTEXT_NEEDS, MEMBERS_MADE, madeOnly, throwIfUnmade } from './context-needs.js';
import { validRequests } from '../generic/valid-requests.js';
import { sendAfterRefusalAsRecipeSays } from '../generic/endpoint-checks.js';
import { busyLast } from '../../harness/run-order.js';
import { deployedProfiles, diskToCapture, instanceBackup } from '../part2/compute-support.js';
import { publicOf, publicPair } from '../part3/ip-addresses-support.js';
import { mayCreateBillable } from '../../harness/target.js';
import { typeViolationsOf, wrongTypedValue } from './type-violations.js';
import { type ReadBack } from './read-backs.js';
import { VALID_PLANS, type ValidPlan } from './valid-plans.js';

type Json = Record<string, unknown>;

/** Bodies breaking a rule sent at once by one check. */
const VIOLATION_CONCURRENCY = 10;

/**
 * Reads the resource back after an accepted update and compares the members sent. A member absent from the view is
 * not judged (the view's fields may be conditional); another file writing the same resource is ruled out by a
 * second read of the same update.
 */
async function readBack(c: Check, path: string, body: Json, members: Record<string, ReadBack>, shortly = false): Promise<void> {
  const brokenIn = (view: Exchange) => brokenMember(view, body, members);
  for (let attempt = 1; ; attempt++) {
    // A view answering gone (404, 410 or the target's answer for an id never made: `answersGone`) is no replica's lag (the resource was there before
    // the update) and shows no member to compare: it is read once (an image upload another file's day-long clock
    // advance expired meanwhile).
    const shows = (exchange: Exchange) => answersGone(exchange, c.target.info.absentStatus) || (succeeded(exchange) && !brokenIn(exchange));
    // A change taking a short time lets the clock run first: waiting out the window for it would spend the check's
    // allowance of unsettled waits (readAfterWrite) on what is no lie.
    const view = shortly ? await untilShortlyDone(c, () => c.get(path), shows) : await readAfterWrite(c, () => c.get(path), shows);
    const broken = brokenIn(view);
    if (!broken) return;
    const shown = (view.body ?? {}) as Json;
    if (attempt === 2)
      c.fail(broken[1]!, `${broken[0]} was sent as ${JSON.stringify(body[broken[0]])} but reads back as ${JSON.stringify(shown[broken[0]])}`, view);
    await c.put(path, body);
  }
}

/** The first member of `body` listed in `members` that `view` shows otherwise, with the rule it breaks (a member absent from the view is not judged). */
function brokenMember(view: Exchange, body: Json, members: Record<string, ReadBack>): readonly [string, string | null] | undefined {
  const shown = (view.body ?? {}) as Json;
  return Object.entries(members)
    .filter(([member]) => member in body && member in shown)
    .map(([member, compare]) => [member, compare(body[member], shown[member])] as const)
    .find(([, rule]) => rule);
}

/**
 * The view of what an accepted create made (`<path>/<id>`, the id its answer shows; none when it shows none), read
 * within the consistency window until it shows the members sent: a new resource may answer 404 for a moment.
 */
async function readCreated(c: Check, path: string, body: Json, exchange: Exchange, members: Record<string, ReadBack>): Promise<Exchange | undefined> {
  const id = (exchange.body as Json | undefined)?.id;
  if (typeof id !== 'number' && typeof id !== 'string') return undefined;
  return readAfterWrite(
    c,
    () => c.get(`${path}/${String(id)}`),
    (view) => succeeded(view) && !brokenMember(view, body, members),
  );
}

/** A body's label, in lower case (a server may compare labels so), if it sends one. */
function labelOf(body: unknown): string | undefined {
  const label = body && typeof body === 'object' ? (body as Json).label : undefined;
  return typeof label === 'string' ? label.toLowerCase() : undefined;
}

/** A path's parent: the list a resource's own path belongs to. */
const parentOf = (path: string) => path.replace(/\/[^/]+$/, '');

/** Creates whose resource is listed elsewhere than at the path they are sent to: a clone makes an instance, an upload an image. */
const LISTED_AT: Record<string, string> = {
  'POST /v4/compute/instances/{computeId}/clone': '/v4/compute/instances',
  'POST /v4/images/upload': '/v4/images',
};

/**
 * Whether the list `endpoint` writes to (its create's path or `LISTED_AT`, or its update's parent) shows `label`, one
 * too short for the run's prefix, on a resource: a colleague's may hold it, and a server may refuse a label taken
 * (monitoring client labels are unique; whether instance and firewall labels are is not shown). Asked only of a
 * refusal that names the label or no member: a refusal of a label no resource holds is judged.
 */
async function labelHeldByAnother(c: Check, fx: Fixtures, endpoint: Endpoint, path: string, label: string | undefined): Promise<boolean> {
  if (label === undefined || label.startsWith(fx.prefix.toLowerCase())) return false;
  const elsewhere = LISTED_AT[endpointKey(endpoint)];
  const [template, list] = elsewhere ? [elsewhere, elsewhere] : endpoint.method === 'POST' ? [endpoint.path, path] : [parentOf(endpoint.path), parentOf(path)];
  if (!endpointByKey.has(`GET ${template}`)) return false;
  const { items, first } = await listPages(c, list, { ends: true });
  return succeeded(first) && items.some((item) => labelOf(item) === label);
}

/**
 * Whether a refusal names a profile body's interface label or IPAM address (`interfaces.<i>.label`, `.ipam_address`)
 * that another profile of the instance shows: a server may take them as unique among all its profiles' interfaces
 * (whether is not shown), and a profile the file deleted may still be there a while (its deletion confirmed by a read
 * that lagged its create). Such a refusal of a body breaking another member judges nothing.
 */
async function interfaceHeldByAnother(c: Check, path: string, body: unknown, refusal: Exchange): Promise<boolean> {
  const profiles = /\/configs$/.test(path) ? path : /\/configs\/[^/]+$/.test(path) ? parentOf(path) : undefined;
  const sent = (body as { interfaces?: unknown } | undefined)?.interfaces;
  if (!profiles || !Array.isArray(sent)) return false;
  // (an IPAM address compared without its prefix length)
  const comparable = (value: unknown) => (typeof value === 'string' && value ? value.split('/')[0] : undefined);
  const held = errorFields(refusal.body).flatMap((field) => {
    const [, index, member] = /^interfaces\.(\d+)\.(label|ipam_address)$/.exec(field) ?? [];
    const value = member && comparable((sent[Number(index)] as Json | undefined)?.[member]);
    return value ? [{ member: member!, value }] : [];
  });
  if (!held.length) return false;
  const shows = (item: Json, { member, value }: { member: string; value: string }) =>
    Array.isArray(item.interfaces) && item.interfaces.some((shown) => comparable((shown as Json | null)?.[member]) === value);
  // A listed profile showing no interfaces (what a list item carries is not shown) is read whole from its view.
  const whole = async (item: Json) =>
    Array.isArray(item.interfaces) ? item : (((await c.get(`${profiles}/${String(item.id)}`)).body as Json | undefined) ?? {});
  const holderShown = async () => {
    const { items, first } = await listPages(c, profiles, { ends: true });
    if (!succeeded(first)) return false;
    for (const item of items.filter((other) => `${profiles}/${String(other.id)}` !== path)) {
      const profile = await whole(item);
      if (held.some((one) => shows(profile, one))) return true;
    }
    return false;
  };
  // (a list lagging the holder's create may leave it out: read within the window)
  return readAfterWrite(c, holderShown, (shown) => shown);
}

/** Where a body is sent: the plan's path, else the endpoint's path from its valid-request recipe. */
async function pathFor(c: Check, fx: Fixtures, endpoint: Endpoint, plan: ValidPlan | undefined, context: BodyContext): Promise<string> {
  if (plan?.path) return plan.path(c, fx, context);
  // A path without parameters is the endpoint's own: the valid request's recipe, which makes what its own body names
  // (a new instance to transfer, the disk to capture), is not needed.
  if (!endpoint.path.includes('{')) return endpoint.path;
  return (await validRequests[endpointKey(endpoint)]!.build(c, fx)).path;
}

/** Where a body breaking a rule is sent: the plan's violation path, the endpoint's own path when it has no parameter,
 *  else the valid bodies' path. */
async function violationPathFor(c: Check, fx: Fixtures, endpoint: Endpoint, plan: ValidPlan | undefined, context: BodyContext): Promise<string> {
  if (plan?.violationPath) return plan.violationPath(c, fx, context);
  return endpoint.path.includes('{') ? pathFor(c, fx, endpoint, plan, context) : endpoint.path;
}

/**
 * The ids a generated body may name: made on the target before generating (once per spec file), only those the
 * document's bodies name (`CONTEXT_NEEDS`). A member the file does not make throws when a generator reads it. A
 * profile or a backup the file could not make (none showed in time, a disk not found) leaves its members unmade: the
 * checks whose bodies name them skip or report why, the others run.
 */
async function bodyContext(c: Check, fx: Fixtures, document: Endpoint['document']): Promise<BodyContext> {
  const config = c.target.info.config;
  const needs = CONTEXT_NEEDS[document];
  const context: Partial<BodyContext> = {
    region: config.region,
    vlanRegion: config.vlanRegion,
    instanceType: config.instanceType,
    largerInstanceType: config.largerInstanceType,
    // Generated names repeat across files that share the seed: a tag per file keeps platform-wide names apart.
    labelPrefix: `${fx.prefix}p${document.slice(-1)}`,
  };
  const unmade = new Map<keyof BodyContext, unknown>();
  const making = async (need: 'profile' | 'backup', make: () => Promise<void>) => {
    try {
      await make();
    } catch (error) {
      if (madeAgain(error)) throw error;
      for (const member of MEMBERS_MADE[need]) unmade.set(member, error);
    }
  };
  if (needs.instances) {
    const first = await fx.instance(c);
    // The second instance is the pair's an assignment swaps (the region placement probe's): one instance, not two.
    const second = needs.instances === 1 ? first : (await publicPair(c, fx))[1];
    // Its profiles, and its view's SLAAC address, may show only once it is provisioned (`deployedProfiles`).
    const profiles = await deployedProfiles(c, first.id);
    if (needs.profile)
      await making('profile', async () => {
        const profile = profiles.find((item) => typeof item.id === 'number' && 'devices' in item);
        if (!profile) {
          skipUnlessShownInTime(c, false, `instance ${first.id} lists no configuration profile yet`);
          throw new SetupError('cannot find a configuration profile of the instance');
        }
        context.configId = profile.id as number;
        // The generated image captures take it: the disk a profile boots from, not the swap disk.
        context.diskId = await diskToCapture(c, first.id);
      });
    // (a snapshot holds the instance's default config and disks: none to take where they did not show)
    if (needs.backup)
      await making('backup', async () => {
        if (unmade.has('configId')) throw unmade.get('configId');
        context.backupId = (await instanceBackup(c, fx)).backupId;
      });
    const view = (await c.get(`/v4/compute/instances/${first.id}`)).body as Json;
    context.computeIds = [...new Set([first.id, second.id])];
    // Their public addresses as their views show them (what a create answers is not shown).
    context.ipv4s = await Promise.all(context.computeIds.map((id) => publicOf(c, id)));
    context.slaac = String(view.ipv6 ?? '').split('/')[0]!;
  }
  if (needs.publicImage) context.publicImage = await fx.publicImage(c);
  if (needs.database) {
    context.databaseEngine = await fx.mysqlEngine(c);
    context.databaseNodeType = await fx.databaseNodeType(c);
  }
  if (needs.domain) context.domainId = (await fx.domain(c)).id;
  return madeOnly(context, document, unmade);
}

/**
 * The members of a rejected body that the resource now shows with the body's own values (changed since `before`).
 * Comparing with the body rather than with `before` alone keeps another spec file's concurrent writes out of it.
 */
function appliedMembers(body: unknown, before: unknown, after: unknown): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  const text = (value: unknown) => JSON.stringify(value);
  return Object.entries(body as Json)
    .filter(([key, value]) => text((after as Json | undefined)?.[key]) === text(value) && text((before as Json | undefined)?.[key]) !== text(value))
    .map(([key]) => key);
}

/**
 * For each type rule of a request schema that no hand-written violation breaks (type-violations.ts): a body that is
 * not an object (the body's own type rule), and valid bodies holding a member with a value of another JSON type (one
 * check per member, which it names).
 */
function typeViolations(schema: string, generators: BodyArbitraries): Violation[] {
  const document = loadContract().documents.get(schema);
  return typeViolationsOf(schema, generators).map(({ rule, field: member }): Violation => {
    if (member === null)
      return { rule, field: null, judgedBy: 'schema', arbitrary: () => fc.constantFrom([], ['text'], 'text', 42) as unknown as fc.Arbitrary<Json> };
    const wrong = wrongTypedValue((document!.properties as Record<string, Json>)[member]!);
    return {
      rule,
      field: member,
      judgedBy: 'schema',
      // Only bodies that already hold the member: where a valid body would not (a clone to an existing instance has
      // no backups_enabled), a server may ignore it, wrong type and all.
      // A table that is stale (valid bodies no longer hold the member) would make the filter search forever: a bounded
      // search ends the check with what to do.
      arbitrary: (context) => {
        let misses = 0;
        return generators
          .valid(context)
          .filter((body) => {
            if (member in body) return true;
            if (++misses <= 2000) return false;
            // (the context lacking what the file could not make: its bodies may lack the member for it)
            throwIfUnmade(context);
            throw new Error(`no valid ${schema} body holds ${member}: specs/plan/type-violations.json is stale (run npm run plan:costs)`);
          })
          .map((body) => ({ ...body, [member]: wrong }));
      },
    };
  });
}

export function propertyChecks(document: Endpoint['document'], bodies: Record<string, BodyArbitraries>): void {
  const fx = useFixtures(`properties-${document}`);
  // The labels the file's valid bodies sent: a body naming one again may be refused as taken (cluster labels are
  // unique; whether instance labels must be is not shown), its resource still holding it: a cluster still provisioning
  // (it cannot be deleted before the next run), the file's instance an update renamed, an instance whose deletion runs
  // a while (confirmed by a read that lagged its create). Such a refusal (naming the label, or no member) judges nothing.
  const sentLabels = new Set<string>();
  const refusedAsTaken = (label: string | undefined, exchange: Exchange) =>
    label !== undefined && sentLabels.has(label) && exchange.status >= 400 && exchange.status < 500 && namesField(exchange, 'label') !== false;
  // The identities (`ValidPlan.identity`) of what the file's valid bodies made. A refusal of a body of one of them (naming
  // no member, or another than `field`, the member a body breaking a rule is refused for) judges nothing.
  const madeIdentities = new Set<string>();
  const refusedAsMade = (identity: string | undefined, exchange: Exchange, field?: string | null) =>
    identity !== undefined &&
    madeIdentities.has(identity) &&
    exchange.status >= 400 &&
    exchange.status < 500 &&
    (!field || namesField(exchange, field) !== true);
  const contextFor = (c: Check) => fx.shared('bodyContext', () => bodyContext(c, fx, document));

  const schemas = Object.entries(bodies).map(([schema, generators]) => ({
    schema,
    generators,
    endpoint: endpoints.find((candidate) => candidate.request === schema),
  }));
  for (const { schema, generators, endpoint } of busyLast(schemas, ({ endpoint }) => endpoint && validRequests[endpointKey(endpoint)]?.keepsBusy)) {
    if (!endpoint) continue; // shared pieces (interfaces, device map) are exercised through the bodies that hold them
    const key = endpointKey(endpoint);
    const plan = VALID_PLANS[schema];
    const recipe = validRequests[key]!;
    describe(`${key} body`, () => {
      const serves = endpointRuleId(endpoint, 'serves');
      // A body writing account-wide state other checks judge (the account, the monitoring plan) is sent, and its effect
      // read, holding the recipe's lock.
      const exclusively = (c: Check, run: () => Promise<void>) => (recipe.exclusive ? c.exclusively(recipe.exclusive, run) : run());
      // A request that keeps the file's instance busy (a clone) gets its valid bodies last, after the bodies it must
      // refuse: on a target whose clock cannot be let run they would still be busy for those.
      const validBodies = () => {
        // (a body that may close the account is sent once, last in the run: account-cancel.spec.ts)
        if (!recipe.closesAccount)
          checkWaiting(plan?.realTimeWaits ?? 1)([serves, ...(plan?.rules ?? [])], 'valid bodies are accepted', async (c) => {
            if (plan?.skip) c.skip(plan.skip);
            if (recipe.destructive) c.needsDestructive();
            const ctx = await contextFor(c);
            // On a budget, a body that creates billable resources gets the runs the run's plan gives it.
            const runs = c.plannedRuns(Math.min(c.target.info.config.runs, plan?.maxRuns ?? Infinity));
            await plan?.settle?.(c, ctx, fx);
            // The lock is taken once for the whole property (each body's turn inside it is the same hold): another
            // check waiting for it waits once, not between every two bodies.
            await exclusively(c, () =>
              runProperty(
                c,
                generators.valid(ctx),
                (body) =>
                  exclusively(c, async () => {
                    fc.pre(plan?.accept?.(body) ?? true);
                    fc.pre(!(await plan?.mayBeAnothers?.(c, ctx, body)));
                    const label = labelOf(body);
                    const path = await pathFor(c, fx, endpoint, plan, ctx);
                    // Placing a body may make shared fixtures (the pair a region placement swaps): made before the mark, they stay.
                    const json = plan?.placed ? await plan.placed(c, fx, path, body) : body;
                    const mark = fx.mark();
                    const send = () => c.send(endpoint.method, path, { json });
                    const exchange = await sendAfterRefusalAsRecipeSays(c, fx, recipe, { path, json }, send, (refusal) => refusedAsTaken(label, refusal));
                    await recipe.adopt?.(c, fx, { path, json: body }, exchange);
                    const created = plan?.readBackCreated && succeeded(exchange) ? await readCreated(c, path, json, exchange, plan.readBackCreated) : undefined;
                    // What one run creates is deleted before the next: no piling up, no clash with the next body's labels.
                    await fx.cleanup(mark);
                    // A body naming new VLANs is refused where VLANs the run did not make fill the region: not the target's fault.
                    const refused = exchange.status >= 400 && exchange.status < 500;
                    const vlans = vlansNamed(body);
                    if (refused && vlans) await needVlanRoom(c, ctx.vlanRegion ?? ctx.region, vlans);
                    const identity = plan?.identity?.(body);
                    fc.pre(!refusedAsTaken(label, exchange) && !refusedAsMade(identity, exchange));
                    if (refused && namesField(exchange, 'label') !== false) fc.pre(!(await labelHeldByAnother(c, fx, endpoint, path, label)));
                    if (label !== undefined) sentLabels.add(label);
                    if (identity !== undefined && succeeded(exchange)) madeIdentities.add(identity);
                    if (refused) fc.pre((await plan?.excuse?.(c, body, fx, exchange)) === undefined);
                    c.expectSuccess(serves, exchange, `${key} with a valid body`);
                    if (plan?.readBack)
                      await readBack(c, path, body, typeof plan.readBack === 'function' ? await plan.readBack(c, fx) : plan.readBack, plan.readBackShortly);
                    const createdBroken = created && brokenMember(created, json, plan!.readBackCreated!);
                    if (createdBroken)
                      c.fail(
                        createdBroken[1]!,
                        `${createdBroken[0]} was sent to the create as ${JSON.stringify(json[createdBroken[0]])}, but the resource it made shows ${JSON.stringify((created!.body as Json)[createdBroken[0]])}`,
                        created,
                      );
                    await plan?.settle?.(c, ctx, fx);
                  }),
                { runs, ...(plan?.first ? { examples: plan.first(fx, ctx) } : {}) },
              ),
            );
          });
      };
      if (!recipe.keepsBusy) validBodies();

      // Two ways of breaking the same rule in the same member are two checks: the second is named `way 2`, so that every
      // check has a name of its own (reports, the cost table and Allure's history tell checks apart by name).
      const ways = new Map<string, number>();
      const sent = (violation: Violation) => violation.judgedBy === 'schema' || violation.rule in (plan?.serverJudgedAt ?? {});
      for (const violation of [...generators.violations.filter(sent), ...typeViolations(schema, generators)]) {
        const writes = endpoint.method === 'PUT' && endpointByKey.has(`GET ${endpoint.path}`);
        const way = (ways.get(`${violation.rule} ${violation.field}`) ?? 0) + 1;
        ways.set(`${violation.rule} ${violation.field}`, way);
        const qualifiers = [...(violation.field ? [`field ${violation.field}`] : []), ...(way > 1 ? [`way ${way}`] : [])];
        checkWaiting(plan?.realTimeWaits ?? 1)(
          writes ? [violation.rule, 'P1.errors.rejected-write-no-effect'] : violation.rule,
          `a body breaking only ${violation.rule} is rejected${qualifiers.length ? ` (${qualifiers.join(', ')})` : ''}`,
          async (c) => {
            const ctx = await contextFor(c);
            const stateAt = plan?.serverJudgedAt?.[violation.rule];
            const fixedPath = stateAt ? await stateAt(c, fx) : plan?.violationPathOf ? undefined : await violationPathFor(c, fx, endpoint, plan, ctx);
            const pathOf = (body: Json) => (fixedPath !== undefined ? Promise.resolve(fixedPath) : plan!.violationPathOf!(c, fx, body));
            const view = async (viewPath: string | null) => (viewPath ? (await c.get(viewPath)).body : undefined);
            // The resource as it was before any body: the spec file's own resource is written by no other check while
            // this one runs, so it is read once per path (before any body goes to it); account-wide state (a recipe's
            // lock) is read before each body.
            const baselines = new Map<string, Promise<unknown>>();
            const baselineOf = (viewPath: string) => {
              if (!baselines.has(viewPath)) baselines.set(viewPath, view(viewPath));
              return baselines.get(viewPath)!;
            };
            if (fixedPath !== undefined && writes && !recipe.exclusive) await baselineOf(fixedPath);
            await plan?.beforeViolations?.(c, ctx, violation.rule);
            await runProperty(
              c,
              violation.arbitrary(ctx),
              (body) =>
                exclusively(c, async () => {
                  // (a label breaking a rule is no one's: its view may even be refused for the label)
                  if (violation.field !== 'label') fc.pre(!(await plan?.mayBeAnothers?.(c, ctx, body)));
                  const path = await pathOf(body);
                  const viewPath = writes ? path : null;
                  const attempt = async (before: unknown) => {
                    const json = plan?.placed ? await plan.placed(c, fx, path, body) : body;
                    const mark = fx.mark();
                    const exchange: Exchange = await c.send(endpoint.method, path, { json });
                    // What a wrongly accepted body made is deleted at once: nothing is left on the target, and a shrinking
                    // step that sends the body again is judged on its own (not refused as a duplicate of the first).
                    await recipe.adopt?.(c, fx, { path, json: body }, exchange);
                    await fx.cleanup(mark);
                    const after = viewPath ? await c.get(viewPath) : undefined;
                    return { before, exchange, after, applied: appliedMembers(body, before, after?.body) };
                  };
                  const before = recipe.exclusive || !viewPath ? await view(viewPath) : await baselineOf(viewPath);
                  const refusedForAnother = (tried: { exchange: Exchange }) => !!violation.field && namesField(tried.exchange, violation.field) === false;
                  // Where what it would make may be held a while by one deleted moments ago (the plan's `room`: a range's
                  // region), a body refused naming another member is sent again while a short time passes.
                  const first = plan?.room
                    ? await untilShortlyDoneSparingly(
                        c,
                        () => attempt(before),
                        (tried) => !refusedForAnother(tried),
                      )
                    : await attempt(before);
                  // Refused for what its valid part would make (a new VLAN, an IPv6 range) where the account's state the run
                  // did not make leaves no room: the body broke more than its one rule there (seen on an account earlier runs
                  // had left VLANs on).
                  if (refusedForAnother(first)) {
                    const vlans = vlansNamed(body);
                    if (vlans) await needVlanRoom(c, ctx.vlanRegion ?? ctx.region, vlans);
                    await plan?.room?.(c, ctx);
                    fc.pre(!(await interfaceHeldByAnother(c, path, body, first.exchange)));
                  }
                  if (violation.field !== 'label') fc.pre(!refusedAsTaken(labelOf(body), first.exchange));
                  // (refused naming the label, where the body breaks another member)
                  if (violation.field !== 'label' && namesField(first.exchange, 'label') === true)
                    fc.pre(!(await labelHeldByAnother(c, fx, endpoint, path, labelOf(body))));
                  fc.pre(!refusedAsMade(plan?.identity?.(body), first.exchange, violation.field));
                  if (violation.blankMember && succeeded(first.exchange)) {
                    const shown = first.after ?? first.exchange;
                    const value = violation.blankMember.split('.').reduce<unknown>((node, key) => (node as Json | undefined)?.[key], shown.body);
                    c.expect(violation.rule, value !== '', `${key} took "" for ${violation.blankMember}, which cannot be empty, and shows it`, shown);
                    return;
                  }
                  const orFields = typeof violation.orFields === 'function' ? violation.orFields(ctx) : violation.orFields;
                  const named = orFields?.length ? [violation.field!, ...orFields] : violation.field;
                  c.expectRejected(violation.rule, first.exchange, `${key} with a body breaking ${violation.rule}`, named);
                  if (!viewPath) return;
                  // The resource may be shared by the run (the account): another check may have written the same value of
                  // a member with few values meanwhile, and the view read before the body may have lagged a write before
                  // it (a replica). A member counts as applied only if it shows the sent value again after being put back
                  // (and shown so) and the body sent once more.
                  let { applied, after } = first;
                  if (applied.length) {
                    const putBack = Object.fromEntries(applied.map((member) => [member, (first.before as Json)[member]]));
                    if (succeeded(await c.send('PUT', viewPath, { json: putBack }))) {
                      const shown = (view: unknown) =>
                        applied.every((member) => JSON.stringify((view as Json | undefined)?.[member]) === JSON.stringify(putBack[member]));
                      const again = await attempt(await readAfterWrite(c, () => view(viewPath), shown));
                      applied = applied.filter((member) => again.applied.includes(member));
                      after = again.after;
                    } else {
                      // Refused as shown (a member shown null that a write may not send): only a view no write can
                      // have lagged (no consistency window) tells the body's values from what was there before it.
                      fc.pre(c.target.info.config.consistencyWindowMs === 0);
                    }
                  }
                  c.expect(
                    'P1.errors.rejected-write-no-effect',
                    applied.length === 0,
                    `a rejected ${key} was applied: ${applied.join(', ')} now show the values it sent`,
                    after,
                  );
                }),
              // Bodies that must be refused are sent at once, unless a wrong acceptance would spend the run's budget.
              {
                runs: c.target.info.config.violationRuns,
                concurrency: mayCreateBillable(endpoint.method, fixedPath ?? endpoint.path) ? 1 : VIOLATION_CONCURRENCY,
              },
            );
          },
        );
      }
      if (recipe.keepsBusy) validBodies();
    });
  }
}
