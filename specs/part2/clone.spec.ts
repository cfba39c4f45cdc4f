// Scenarios of document 2, "Clone body" and the clone endpoint: default label, which profiles are cloned, an
// existing target instance, tags, the add_computes grant, and at most five concurrent clones of one source
// (the sixth gets HTTP 400, the one status code the documents give).
import { describe } from 'vitest';
import { check, type Check } from '../../harness/check.js';
import { describeExchange } from '../../harness/error-bodies.js';
import type { Exchange } from '../../harness/http.js';
import { onceNotBusy } from '../../harness/consistency.js';
import { SetupError, useFixtures } from '../../harness/fixtures.js';
import {
  CLONE_WAIT,
  onceClonesEnd,
  onceCopyShows,
  diskAllocation,
  instanceWithSwapOver,
  INSTANCES,
  whileCloning,
  cloneToNew,
  sendClone,
  madeInstance,
  configsOf,
  deployedProfiles,
  extraSetting,
  instanceLabelBreaks,
  newInstance,
  ok,
  viewInstance,
  type Json,
} from './compute-support.js';
import { sendAtRest } from './instance-power.js';
import { documentedDevices, newConfig } from './profiles-support.js';
import { cloningBothWays } from './clone-busy.js';

const fx = useFixtures('part2-clone');

/**
 * A source deployed from an image with its default profile and one more on the same disks; `second` is the one added
 * (known by its label, not by its place in the list). Shared by the checks that clone it without changing it (four
 * clones at most: five may run at once).
 */
function sourceWithTwoProfiles(c: Check): Promise<{ id: number; labels: string[]; second: number; secondLabel: string }> {
  return fx.shared('sourceWithTwoProfiles', () => makeSourceWithTwoProfiles(c));
}

async function makeSourceWithTwoProfiles(c: Check): Promise<{ id: number; labels: string[]; second: number; secondLabel: string }> {
  const source = await newInstance(c, fx, { image: true });
  const [first] = await deployedProfiles(c, source.id);
  const second = await newConfig(c, source.id, { devices: documentedDevices(first?.devices) });
  const labels = (await configsOf(c, source.id, (profiles) => profiles.length === 2)).map((item) => item.label as string);
  if (labels.length !== 2 || !labels.includes(second.label))
    return c.skip(`the source has profiles ${JSON.stringify(labels)}, not the default one plus the one added (${second.label})`);
  return { id: source.id, labels, second: second.id, secondLabel: second.label };
}

/** Puts a new tag of the run on instance `id` (a clone copies its source's tags to its target). */
async function tagged(c: Check, id: number): Promise<string> {
  const tag = fx.label('tag', 50);
  fx.track('tag', tag, tag);
  const put = await c.put(`${INSTANCES}/${id}`, { tags: [tag] });
  if (!ok(put)) throw new SetupError(`could not tag the clone source: ${describeExchange(put)}`);
  return tag;
}

/**
 * A source deployed from an image carrying a tag of the run, shared by the checks that clone it. Its label is as long
 * as an instance label may be: a default label for its clone built by adding to it is too long.
 */
function taggedSource(c: Check): Promise<{ id: number; tag: string }> {
  return fx.shared('taggedSource', async () => {
    const source = await newInstance(c, fx, { image: true, label: fx.label('vm', 64).padEnd(64, 'x') });
    return { id: source.id, tag: await tagged(c, source.id) };
  });
}

/**
 * Whether a clone's profiles are copies of the `wanted` labels of the source's: as many, none labelled as a source
 * profile not wanted. What a copy is labelled is not shown (a server may relabel it): only a source profile's label
 * tells which profile a copy is.
 */
function copiesOf(sourceLabels: string[], wanted: string[]): (labels: unknown[]) => boolean {
  const unwanted = sourceLabels.filter((label) => !wanted.includes(label));
  return (labels) => labels.length === wanted.length && !labels.some((label) => unwanted.includes(label as string));
}

/** The labels of the clone's profiles, read until `cloned` holds of them, once the clone may have completed (`onceCopyShows`). */
async function clonedLabels(c: Check, cloneId: number, cloned: (labels: unknown[]) => boolean): Promise<unknown[]> {
  const labelsOf = (profiles: Json[]) => profiles.map((item) => item.label);
  return labelsOf(
    await onceCopyShows(
      c,
      () => configsOf(c, cloneId),
      (profiles) => cloned(labelsOf(profiles)),
    ),
  );
}

describe('Clone body', () => {
  check('P2.clone.label.default', 'a clone without a label gets a valid default label', async (c) => {
    const { tag, ...source } = await taggedSource(c);
    const clone = await cloneToNew(c, fx, source.id, { label: undefined }, { findTag: tag });
    c.expectSuccess('P2.clone.label.default', clone.exchange, 'cloning without a label');
    const label = (await viewInstance(c, await madeInstance(c, fx, clone))).label;
    // "A default label applies": which one is not shown (the source's own label is allowed: instance labels are not unique).
    const breaks = instanceLabelBreaks(label);
    c.expect(
      'P2.clone.label.default',
      breaks.length === 0,
      `the default label of the clone ${JSON.stringify(label)} is not a valid instance label (${breaks.join('; ')})`,
    );
  });

  // The instance's type is not shown, so only the region asked for is judged; another region than the source's tells
  // a clone made where it was asked from one made beside its source.
  check('P2.clone.region.as-requested', 'a clone to a new instance is made in the region asked for', async (c) => {
    const other = extraSetting(c, 'OTHER_REGION');
    const { tag, ...source } = await taggedSource(c);
    const clone = await cloneToNew(c, fx, source.id, { region: other }, { findTag: tag });
    c.expectSuccess('P2.clone.region.as-requested', clone.exchange, `cloning instance ${source.id} to a new instance in ${other}`);
    const region = (await viewInstance(c, await madeInstance(c, fx, clone), (view) => view.region === other)).region;
    c.expect('P2.clone.region.as-requested', region === other, `a clone asked for in ${other} shows region ${JSON.stringify(region)}`);
  });

  check('P2.clone.configs.absent-all', 'configs absent: every profile is cloned', async (c) => {
    const source = await sourceWithTwoProfiles(c);
    const clone = await cloneToNew(c, fx, source.id, { type: c.target.info.config.largerInstanceType });
    c.expectSuccess('P2.clone.configs.absent-all', clone.exchange, 'cloning without configs');
    const cloned = copiesOf(source.labels, source.labels);
    const labels = await clonedLabels(c, await madeInstance(c, fx, clone), cloned);
    c.expect(
      'P2.clone.configs.absent-all',
      cloned(labels),
      `the clone has profiles ${JSON.stringify(labels)}; the source has ${JSON.stringify(source.labels)}`,
    );
  });

  // Read as the clone is accepted, and again once it had time to end (`afterClone`): a target may show what a clone
  // copies when it is accepted or only when it completes (not shown).
  check('P2.clone.configs.empty-none', 'configs empty: no profile is cloned', async (c) => {
    const rule = 'P2.clone.configs.empty-none';
    const source = await sourceWithTwoProfiles(c);
    const clone = await cloneToNew(c, fx, source.id, { configs: [] });
    c.expectSuccess(rule, clone.exchange, 'cloning with configs []');
    const cloneId = await madeInstance(c, fx, clone);
    const none = (listed: Json[]) => listed.length === 0;
    const profiles = await configsOf(c, cloneId, none);
    c.expect(rule, none(profiles), `a clone made with configs [] has ${profiles.length} profiles as the clone is accepted`);
    if (!(await afterClone(c, source.id, cloneId))) return;
    const after = await configsOf(c, cloneId, none);
    c.expect(rule, none(after), `a clone made with configs [] has ${after.length} profiles once the clone had time to end`);
  });

  check('P2.clone.configs.listed', 'configs listed: exactly those profiles are cloned', async (c) => {
    const source = await sourceWithTwoProfiles(c);
    const clone = await cloneToNew(c, fx, source.id, { configs: [source.second] });
    c.expectSuccess('P2.clone.configs.listed', clone.exchange, 'cloning one listed profile');
    const cloned = copiesOf(source.labels, [source.secondLabel]);
    const labels = await clonedLabels(c, await madeInstance(c, fx, clone), cloned);
    c.expect('P2.clone.configs.listed', cloned(labels), `a clone of profile "${source.secondLabel}" has profiles ${JSON.stringify(labels)}`);
  });

  check('P2.clone.tags-copied', "the source's tags are copied to the target", async (c) => {
    const { tag, ...source } = await taggedSource(c);
    const clone = await cloneToNew(c, fx, source.id);
    c.expectSuccess('P2.clone.tags-copied', clone.exchange, 'cloning to a new instance');
    const carries = (view: Json) => Array.isArray(view.tags) && view.tags.includes(tag);
    const cloneId = await madeInstance(c, fx, clone);
    const tags = (await onceCopyShows(c, () => viewInstance(c, cloneId), carries)).tags;
    c.expect('P2.clone.tags-copied', Array.isArray(tags) && tags.includes(tag), `the new clone has tags ${JSON.stringify(tags)}; the source has [${tag}]`);
    const existing = await newInstance(c, fx, {});
    const onto = await onceNotBusy(c, () => c.post(`${INSTANCES}/${source.id}/clone`, { compute_id: existing.id, configs: [], disks: [] }));
    c.expectSuccess('P2.clone.tags-copied', onto, 'cloning onto an existing instance');
    const targetTags = (await onceCopyShows(c, () => viewInstance(c, existing.id), carries)).tags;
    c.expect(
      'P2.clone.tags-copied',
      Array.isArray(targetTags) && targetTags.includes(tag),
      `the existing target has tags ${JSON.stringify(targetTags)} after the clone; the source has [${tag}]`,
    );
  });
});

describe('Clone to an existing instance', () => {
  // "label: only for a new instance" (unlike region and type, not "otherwise not allowed"): sent with compute_id it
  // may be refused or ignored, but it never renames the existing target.
  check('P2.instance-clone.label.new-instance-only', 'a label sent with compute_id is refused or ignored: the existing target keeps its label', async (c) => {
    const source = await newInstance(c, fx, { image: true });
    const existing = await newInstance(c, fx, {});
    const label = fx.label('vm', 64);
    // Sent once source and target are idle: a refusal for the target's own create would stand for the label's.
    const onto = await sendAtRest(c, [source.id, existing.id], () =>
      c.post(`${INSTANCES}/${source.id}/clone`, { compute_id: existing.id, configs: [], disks: [], label }),
    );
    if (!ok(onto)) return c.expectRejected('P2.instance-clone.label.new-instance-only', onto, 'cloning onto an existing instance with a label');
    // Read as the clone is accepted and again once it had time to end (`afterClone`): what a clone changes on its target may show then.
    const judge = async (when: string) => {
      const after = (await viewInstance(c, existing.id)).label;
      c.expect(
        'P2.instance-clone.label.new-instance-only',
        after === existing.label,
        `cloning onto instance ${existing.id} with label ${JSON.stringify(label)} renamed it from ${JSON.stringify(existing.label)} to ${JSON.stringify(after)} ${when}`,
        onto,
      );
    };
    await judge('as the clone was accepted');
    if (await afterClone(c, source.id, existing.id)) await judge('once the clone had time to end');
  });

  check('P2.clone.compute-id.enough-resources', 'the existing target must have room for the cloned disks', async (c) => {
    // The source's swap disk alone exceeds the allocation of the run's type, however big its image's disk is (not
    // shown): it fits no instance of that type, even one whose own disks the clone replaced (whether a clone onto an
    // existing instance keeps the target's disks is not shown).
    const { largerInstanceType } = c.target.info.config;
    const small = await newInstance(c, fx, {});
    const allocation = await diskAllocation(c, small.id);
    const source = await instanceWithSwapOver(c, fx, allocation, { type: largerInstanceType });
    const roomy = await newInstance(c, fx, { type: largerInstanceType });
    // Sent once source and target are idle (and offline, as the control's empty target is): not refused for a create.
    const refused = await sendAtRest(c, [source.id, small.id], () => c.post(`${INSTANCES}/${source.id}/clone`, { compute_id: small.id }));
    c.expectRejected(
      'P2.clone.compute-id.enough-resources',
      refused,
      `cloning every disk of a ${largerInstanceType} with a swap disk over ${allocation} MB onto an instance of ${allocation} MB without disks`,
    );
    c.expectSuccess(
      'P2.clone.compute-id.enough-resources',
      await onceNotBusy(c, () => c.post(`${INSTANCES}/${source.id}/clone`, { compute_id: roomy.id })),
      `cloning every disk onto a ${largerInstanceType} without disks`,
    );
  });

  // "its running or queued actions must complete first": refused until they have, or accepted and run once they have
  // (not shown). Accepted, the clone must not have run while the target's own clones still run: the profile it copies
  // (one made on the source for the check, known by its label, without devices: no disk to find room for) is not on
  // the target yet. The source's tags are not judged here: when "Tags on the source are copied to the target", and
  // whether as part of the clone that waits, is not shown. Whether a running clone is an action of its source or of its
  // target is not shown: the target is both at once (each clone copies disks: how long a clone of nothing runs is not
  // shown).
  check('P2.clone.compute-id.actions-complete', 'a clone onto a target with a running action is refused, or waits for it', async (c) => {
    const rule = 'P2.clone.compute-id.actions-complete';
    // The target's profiles are read as the clone is accepted, before the probes that show the running clones still
    // run: read after them, another file's clock advance could end those clones and let the queued one run first.
    let labels: unknown[] = [];
    const {
      started: { source, profile, id: busyId },
      exchange: onto,
    } = await whileCloning(
      c,
      fx,
      async () => {
        const source = await newInstance(c, fx, {});
        return { source, profile: await newConfig(c, source.id), ...(await cloningBothWays(c, fx)) };
      },
      async ({ source, profile, id: busyId }) => {
        const exchange = await c.post(`${INSTANCES}/${source.id}/clone`, { compute_id: busyId, configs: [profile.id] });
        if (ok(exchange)) labels = (await configsOf(c, busyId)).map((item) => item.label);
        return exchange;
      },
    );
    if (ok(onto)) {
      c.expect(
        rule,
        !labels.includes(profile.label),
        `a clone of profile ${JSON.stringify(profile.label)} onto instance ${busyId}, accepted while a clone onto that instance and one from it ran, ran at once: the target has that profile already (its profiles ${JSON.stringify(labels)})`,
        onto,
      );
    } else c.expectRejected(rule, onto, 'cloning onto an instance with a running clone onto it and one from it');
    c.expectSuccess(
      'P2.clone.compute-id.actions-complete',
      await onceClonesEnd(c, () => c.post(`${INSTANCES}/${source.id}/clone`, { compute_id: busyId, configs: [profile.id] })),
      'the same clone once the running one had time to finish',
    );
  });
});

describe('Clone grants and concurrency', () => {
  check('P2.clone.add-computes', 'cloning needs the add_computes grant', async (c) => {
    const source = await sourceWithTwoProfiles(c);
    const without = await c.principal({ scopes: '*', restricted: true, grants: { entities: { compute: { [String(source.id)]: 'read_write' } } } });
    c.expectRejected(
      'P2.clone.add-computes',
      (await cloneToNew(c, fx, source.id, {}, { token: without })).exchange,
      'cloning with read_write on the source but no add_computes',
    );
    const withGrant = await c.principal({
      scopes: '*',
      restricted: true,
      grants: { global: { add_computes: true }, entities: { compute: { [String(source.id)]: 'read_write' } } },
    });
    c.expectSuccess(
      'P2.clone.add-computes',
      (await cloneToNew(c, fx, source.id, {}, { token: withGrant })).exchange,
      'cloning with read_write on the source and add_computes',
    );
  });

  check(
    ['P2.clone.max-5-concurrent', 'P1.errors.clone.sixth-concurrent-400'],
    'six concurrent clones of one source: exactly one gets HTTP 400',
    async (c) => {
      // Real time ends clones too, and so does a colleague moving a shared clock: one retry on a fresh source tells a
      // real violation (it happens again) from a first clone that ended before the other five came, and a probe from
      // an instance of its own, made before the retry's source (so that its create has run by then), tells it after.
      let outcome = await sixClones(c);
      if (outcome.successes === 6) outcome = await sixClones(c, (await newInstance(c, fx, {})).id);
      if (outcome.successes === 6 && !outcome.firstRunning)
        c.skip(
          "six clones of one source were accepted, twice, but the first had ended when the other five came (the clones finish within their request, or the target's clock moved meanwhile): five running at once was not reached",
        );
      const statuses = outcome.exchanges.map((exchange) => exchange.status);
      const refused = outcome.exchanges.filter((exchange) => !ok(exchange));
      c.expect(
        'P2.clone.max-5-concurrent',
        outcome.successes === 5,
        `of six concurrent clones of one source ${outcome.successes} were accepted (statuses ${statuses.join(', ')}); five expected`,
        refused[0] ?? outcome.exchanges[5],
      );
      c.expect(
        'P1.errors.clone.sixth-concurrent-400',
        refused.length === 1 && refused[0]!.status === 400,
        `the clone beyond five concurrent ones got HTTP ${refused[0]?.status} (400 expected)`,
        refused[0],
      );
      const after = await onceClonesEnd(c, async () => (await cloneToNew(c, fx, outcome.source)).exchange);
      c.expectSuccess('P2.clone.max-5-concurrent', after, 'a clone of the same source once the five had time to finish');
    },
    { timeout: 30_000 },
  );
});

/**
 * Six clones of a new source: the first once the source's own create lets it, the other five at once while it runs.
 * The source is deployed from an image, so each clone copies its disks: how long a clone of nothing runs is not shown.
 */
type SixClones = { source: number; successes: number; exchanges: Exchange[]; firstClone?: number; firstRunning?: boolean };

/**
 * (Simulated time is shared: the clock is held from the first clone to the probe of it, so that another check's
 * advance in between, a cluster's half hour, cannot end the first clone before the other five come: it did. The
 * instances they made are looked for once all six are sent: a list read after the first that waited the window, the
 * instance made only when its clone ends, let the first run that long in real time before the five came.)
 */
async function sixClones(c: Check, proberId?: number): Promise<SixClones> {
  const source = await newInstance(c, fx, { image: true });
  return c.holdingClock(async () => {
    const first = await sendClone(c, fx, source.id);
    const rest = await Promise.all(Array.from({ length: 5 }, () => sendClone(c, fx, source.id, {}, { once: true })));
    const [firstMade] = await Promise.all([first, ...rest].map((sent) => sent.made()));
    const exchanges = [first, ...rest].map((result) => result.exchange);
    const outcome: SixClones = {
      source: source.id,
      successes: exchanges.filter(ok).length,
      exchanges,
      ...(firstMade?.id !== undefined ? { firstClone: firstMade.id } : {}),
    };
    return outcome.successes === 6 && proberId !== undefined ? { ...outcome, firstRunning: await firstCloneRunning(c, outcome, proberId) } : outcome;
  });
}

/**
 * Lets the clone from `sourceId` onto `targetId` end, as far as can be seen: a clone between them copying nothing
 * (configs and disks []) is refused while the target's clone runs (its "running or queued actions must complete
 * first") and accepted after; sent again a step of the target's clock at a time, for at most `CLONE_WAIT` (a refusal
 * for another reason lets the whole of it pass). A server that queues a clone onto a busy target accepts it at once:
 * the read after it then judges as the one at once. Without the clock hook nothing is waited for (false): the caller
 * judged what it read at once, so the check does not need the clock.
 */
async function afterClone(c: Check, sourceId: number, targetId: number): Promise<boolean> {
  if (!c.target.control) return false;
  for (let spent = 0; spent < CLONE_WAIT.mostSeconds; spent += CLONE_WAIT.stepSeconds) {
    if (ok(await c.post(`${INSTANCES}/${sourceId}/clone`, { compute_id: targetId, configs: [], disks: [] }))) break;
    await c.advanceClock(CLONE_WAIT.stepSeconds, { needed: false });
  }
  return true;
}

/**
 * Whether the first of the clones still runs: a clone onto its new instance, copying nothing, from another instance
 * (`proberId`, with no clone of its own running) is refused while it does (the target's "running or queued actions
 * must complete first"). From the six's source it would be refused for the limit as well, once the other five run: a
 * first clone that ended before they came read as still running. An accepted one shows the clones over: on a target
 * whose clones finish within their request, it would be.
 */
async function firstCloneRunning(c: Check, outcome: SixClones, proberId: number): Promise<boolean> {
  if (outcome.firstClone === undefined) return true;
  return !ok(await c.post(`${INSTANCES}/${proberId}/clone`, { compute_id: outcome.firstClone, configs: [] }));
}
