// Allowed choices that each pass alone but failed a check together, found by the variation matrix's groups and
// bisected to the fewest variations that still failed, or that failed under settings the matrix's runs do not use (a
// real target's default budgets), or that made checks skip (found by running each variation alone: a skip is no fail,
// and the matrix passes it, but the rule goes unjudged), or that made checks wait out the consistency window in vain (a
// cost every target making that choice pays): a run narrowed to those checks, under just those variations and settings,
// stays clean. (Every combination is an implementation the documents allow; the gate's groups meet only the
// combinations its grouping deals, with the embedded emulator's settings.)
import { beforeAll, describe, expect, it } from 'vitest';
import { VARIATIONS } from '../../emulator/variations/index.js';
import { REAL_TARGET_BUDGETS } from '../../harness/settings.js';
import type { Results } from '../../reports/results.js';
import { ruleOf } from '../hostile/conformance-run.js';
import { MATRIX_RUNS, runNarrowed, type NarrowedOutcome, type NarrowedRun } from '../mutation/matrix.js';

interface Combination {
  variations: string[];
  /** The rule ids (or prefixes) of the checks that failed. */
  rules: string;
  /** What went wrong, and what the suite does now. */
  why: string;
  /** A seed and runs per property of valid bodies where the matrix's do not meet it (found by full runs at random seeds). */
  drawn?: { seed: number; runs: number };
  /** Run settings besides the matrix's, under which it failed. */
  settings?: NarrowedRun['settings'];
  /** It failed only once fast-check shrank a counterexample (the matrix's runs do not shrink). */
  shrinks?: true;
  /**
   * Its checks skipped (no fail, but nothing judged, and what they made left behind): none may skip now, or none of
   * those judging the rule given (where others of the run skip for reasons of their own).
   */
  skipped?: true | string;
  /** This rule went unjudged, every check of it skipped: it is judged now (a check of it may still skip, by design). */
  unjudged?: string;
  /** Its checks waited the window out for a state that was not lagging: none does now. */
  waitedInVain?: true;
}

const COMBINATIONS: Combination[] = [
  {
    variations: ['snapshots-take-minutes'],
    rules: 'P2.backups.snapshot.creates,P2.compute.auth.get-compute-instances-id-backups-id',
    settings: { consistencyWindowMs: 3000 },
    waitedInVain: true,
    why: "a new snapshot's view answering with status pending was read again until the window had passed before the clock was let run: a view showing the snapshot lags behind no write, and the clock runs at once (3 s in vain a snapshot, found in the variation matrix's runs)",
  },
  {
    variations: ['capture-needs-offline'],
    rules: 'P2.images.capture.private,P2.instance-create.image.private-permission',
    settings: { consistencyWindowMs: 3000 },
    waitedInVain: true,
    why: "a capture refused naming the disk (its instance running) was sent again through the window and ten minutes of the clock before the instance was shut down: a refusal naming the disk is followed by the shutdown at once (found in the variation matrix's runs)",
  },
  {
    variations: ['restore-needs-offline'],
    rules: 'P2.backups.restore.overwrite-true',
    settings: { consistencyWindowMs: 3000 },
    waitedInVain: true,
    why: 'a restore refused naming compute_id (its target running) was sent again through the window and ten minutes of the clock before the target was shut down: a refusal naming the target is followed by the shutdown at once (found by a run under replica-reads, seed 373)',
  },
  {
    variations: ['tag-create-runs-a-while'],
    rules: 'P2.instance.image.deployed-from',
    settings: { consistencyWindowMs: 3000 },
    waitedInVain: true,
    why: 'the tagged objects list of a tag just given to an instance was read within the window only, while the tag shows on its objects a minute later: the window passed in vain and the list went unjudged; it is read while a short time passes, as the tag checks read it (found by a run under replica-reads, seed 373)',
  },
  {
    variations: ['replica-reads', 'firewall-rules-read-without-policies'],
    rules: 'P3.firewall.rules-update',
    settings: { consistencyWindowMs: 3000 },
    why: 'a read of the rules lagging the PUT emptying their outbound was taken for its answer: it showed no policies, and the policies were all the wait looked for; it waits for the emptied outbound too (found by a run without hooks, seed 123)',
  },
  {
    variations: ['replica-reads', 'assign-no-op-refused'],
    rules: 'P3.ips.serves,P3.ips.scope',
    why: "an accepted swap of the file's pair was not waited for, so the next check's read of the pair lagged it and its swap back moved nothing (refused: allowed): an accepted assignment is waited for until the instances show it (found by a run under replica-reads, seed 201)",
  },
  {
    variations: ['replica-reads', 'firewall-rule-unset-members-null', 'blank-optional-absent'],
    rules: 'P3.firewalls.serves.put-networking-firewalls-id-rules,P3.firewall-rule.types,P1.errors.rejected-write-no-effect',
    drawn: { seed: 214, runs: 100 },
    settings: { violationRuns: 10 },
    shrinks: true,
    why: "a view of the rules read before a refused body lagged the valid bodies' last PUT, so the body's shrunk outbound ([]) seemed applied, and putting the old outbound back was refused (it shows labels null): a refused put-back is judged on the first view only with no consistency window, and an accepted one is waited for until shown (found by a run under replica-reads, seed 214; before, this failed 2–3 runs in 4)",
  },
  {
    variations: ['replica-reads', 'account-lists-page-size-clamped', 'page-past-last-refused'],
    rules: 'P1.conventions.list.page-is-requested',
    why: "page 1 of the OAuth clients read just after the check's creates answered as before them, so the list's page size of 50 for an asked 25 went unseen, and its page 2 (past the last: 404) was judged for its page number: page 1 is read until it shows the clients made (found by a run under replica-reads, seed 245)",
  },
  {
    variations: ['replica-reads', 'record-create-answers-event', 'ids-reused'],
    rules: 'P3.record.mx,P3.record.cname',
    why: 'a record create answering an event was found as the id new in the list, but the list read before it lagged the deletion of the record whose id the create was given again: a record is new where its id was not listed before or was listed holding another record (found by a run under replica-reads, seed 252)',
  },
  {
    variations: ['replica-reads', 'enable-runs-a-while', 'backup-service-changes-only'],
    rules: 'P2.backups',
    why: "the view read after the deletes-all check's enable answered as before the cancel that ended the check before it, so the enrolment the enable had yet to make seemed made, and the cancel sent at once was refused for it (allowed: a service not enrolled has nothing to cancel): a refused cancel is sent again while a short time passes (found by a run under replica-reads, seed 285)",
  },
  {
    variations: ['zone-starts-with-mx-record', 'not-shown-ids-as-strings'],
    rules: 'P3.record.mx',
    why: "the MX a new zone starts with was not removed before a null MX, its id shown as a string of digits (a record's id type is not shown): ids in either form are taken (found by the matrix's groups of 100)",
  },
  {
    variations: ['record-delete-runs-a-while', 'reads-lag-creates'],
    rules: 'P3.record.mx',
    why: "the deleted MX's view answered 404 as a lagging read while its deletion still ran: the null MX is sent again while refused for a short time",
  },
  {
    variations: ['reads-lag-creates', 'device-add-answers-firewall', 'firewall-delete-releases-later', 'firewall-delete-runs-a-while'],
    rules: 'P3.firewall',
    why: "a firewall made moments before answered its confirming read 404 as a lagging read while its deletion still ran, so its instances were still held after the release's minute: the cleanup gives such a deletion its minute first",
  },
  {
    variations: ['backup-service-changes-only', 'enable-runs-a-while', 'backups-enrolment-not-shown'],
    rules: 'P2.compute.serves.post-compute-instances-id-backups-cancel,P2.compute.scope.post-compute-instances-id-backups-cancel',
    why: 'the cancel of an instance not enrolled was refused, the enable that followed enrolled it a minute later, and an instance not showing its enrolment gave nothing to wait on: a short time is let run after such an enable before the cancel is sent again',
  },
  {
    variations: ['record-delete-runs-a-while', 'reads-lag-creates'],
    rules: 'P3.domains.serves.post-domains-id-records',
    drawn: { seed: 12, runs: 100 },
    why: "a generated CNAME named as one an earlier body made was refused (CNAME names are unique) while that one's deletion still ran, its confirming read a lagging 404: a refusal of a body like one the file made judges nothing (`ValidPlan.identity`)",
  },
  {
    variations: ['reads-lag-creates', 'identical-records-refused', 'record-delete-runs-a-while'],
    rules: 'P3.domains.serves.post-domains-id-records',
    drawn: { seed: 2016704663, runs: 100 },
    why: "a generated CAA record identical to one an earlier body made was refused while that one's deletion still ran: a refusal of a body like one the file made judges nothing (`ValidPlan.identity`)",
  },
  {
    variations: ['reads-lag-creates', 'profile-delete-runs-a-while', 'interface-labels-unique-per-instance'],
    rules: 'P2.config.run-level.enum,P2.compute.serves.post-compute-instances-id-configs',
    why: "a body breaking run_level was refused naming a VLAN label a profile of a valid body still held (its deletion still ran, confirmed by a read that lagged its create): a refusal naming an interface's label or address another profile of the instance shows judges nothing (found by a full run under every variation at once)",
  },
  {
    variations: ['credentials-reset-updating'],
    rules: 'P1.databases',
    settings: REAL_TARGET_BUDGETS, // a run given `--base-url` has them by default, the embedded emulator's run none
    why: "the CA certificate view of the file's shared cluster was refused: a reset of another check had left it updating (allowed), and with fewer clusters made no clock advance had ended that: the views needing it active are sent again while refused (found by a base-URL run against the emulator under variations)",
  },
  {
    variations: ['backup-service-changes-only', 'enable-runs-a-while'],
    rules: 'P2.backups.cancel.deletes-all',
    why: 'the cancel of the service was sent as soon as the enable answered, before the enable had enrolled the instance (a minute later), and was refused for an instance not enrolled: the check now waits for the enable to have run (found by a budgeted base-URL run under a quarter of the variations)',
  },
  {
    variations: ['record-create-answers-event', 'record-type-fixed'],
    rules: 'P3.record',
    why: 'the records of each type the update bodies go to were made at once in one domain, each told, where the create answered its event, as the first record new in the list: a body went to a record of another type and was refused for changing it (naming type); of the records new in the list, the one showing the type or name sent is taken (`postRecord`)',
  },
  {
    variations: ['ranges-without-route-target', 'range-create-answers-empty'],
    rules: 'P3.ips.serves.post-networking-ipv6-ranges,P3.ips.serves.get-networking-ipv6-ranges-id,P3.ips.serves.delete-networking-ipv6-ranges-id',
    skipped: true,
    why: 'the valid range create was adopted by its answer or by the range routing to its instance, and a server showing neither left it unfound: kept on the target, it held the region, and the range checks after it skipped; the create now finds its range as the one new in the list (`createRangeFound`)',
  },
  {
    variations: ['range-delete-runs-a-while'],
    rules: 'P3.ips.serves.get-networking-ipv6-ranges-id,P3.ips.auth.delete-networking-ipv6-ranges-id,P3.ips.unknown-id.get-networking-ipv6-ranges-id',
    skipped: true,
    why: 'the generic range checks each delete the file\'s range before making one, and a deleted range still listed held its region (and the other region, the range before\'s): with the clock never let run, every range check after the first skipped ("the account already holds an IPv6 range the check did not create"); the region is read again while a short time passes (`Fixtures.ipv6Region`; found by a run under replica-reads, seed 298)',
  },
  {
    variations: ['replica-reads'],
    rules: 'P3.ips.serves.post-networking-ips,P3.ips.scope.post-networking-ips',
    skipped: 'P3.ips.scope.post-networking-ips',
    why: "the private address request of the scope check read the file's instance as showing its public address only (a read answering as before the valid check's request gave it a private one), so it asked for a second, refused (as the support request a server may need): an instance an accepted request gave one is no longer asked for (`freeForPrivate`; found by running each variation alone)",
  },
  {
    variations: ['clone-instance-made-on-completion'],
    rules: 'P2.instance-clone.backups-enabled.enrols',
    skipped: true,
    why: 'the enrolment check of a clone to a new instance took the instance only as the clone answered it or listed it at once, and skipped where it shows once the clone completes: it now waits for it as other clone checks do (`madeInstance`; found by running each variation alone)',
  },
  {
    variations: ['range-limit-checked-first', 'range-release-later'],
    rules: 'P3.ipv6-range.prefix-length.enum,P3.ipv6-range-create,P3.ips.serves.post-networking-ipv6-ranges',
    skipped: true,
    why: "a range body breaking a rule, sent just after a range of its region was deleted, was refused for the region's one range (judged first here: the region is held a minute after a deletion); the probe asking whether the region takes a range was refused too, and the check skipped: such a body is now sent again while a short time passes (found by a run under replica-reads, seed 301)",
  },
  {
    variations: ['replica-reads', 'record-delete-runs-a-while', 'ids-reused', 'zone-starts-with-mx-record'],
    rules: 'P3.record.mx.null-blocks-mx',
    why: "the null MX deleted at the check's end was taken for gone on a read answering as before its create, and the MX sent next was refused while its deletion still ran (an error: a setup that failed): a record is deleted once its view has shown it (`deleteSeen` in `removeRecord`; found by a run under replica-reads, seed 331)",
  },
  {
    variations: ['backups-reenabled-after-a-week'],
    rules: 'P2.backups.enable.enables,P2.backups.cancel.deletes-all',
    unjudged: 'P2.backups.cancel.deletes-all',
    why: "the enable check cancelled the shared instance's service at its end, so the cancel check's enable was refused for a week and it skipped whole: the enable and cancel checks share one enrolment (`enrolledSubject`), nothing cancelled before the cancel checks, the deletion judged by one check, its permanence (enabled again, refused here) by another (found by running each variation alone)",
  },
  {
    variations: ['replica-reads', 'ids-reused', 'instance-snapshots-listed-when-taken'],
    rules: 'P2.compute.scope.get-compute-instances-id-backups-id,P2.compute.serves.post-compute-instances-id-backups-id-restore',
    why: "the restore's snapshot was given the id of one the cancel had deleted, and its view answered as before, showing that one successful, so the restore went to a snapshot not yet taken (404): a view showing another label is another backup (`untilBackupSucceeded`; found by a run under replica-reads, seed 338)",
  },
  {
    variations: ['replica-reads', 'ids-reused', 'reads-lag-creates', 'upload-expiry-swept-daily'],
    rules: 'P2.image,P2.images',
    why: "the upload left to expire was given the id of the image the delete check had just deleted, and its first view after the clock's day answered as before its create (404: a read from a replica, within the window in real time), so it was taken for expired while the list still showed it: the window is waited out before the expiry is looked for (found by a run under replica-reads and ids-reused, seed 12)",
  },
  {
    variations: ['device-add-answers-firewall', 'device-own-id-only'],
    rules:
      'P3.firewall.device,P3.firewall.delete.frees-instances,P3.firewall-create.devices.assigned,P3.firewalls.serves.get-networking-firewalls-id-devices-id,P3.firewalls.serves.delete-networking-firewalls-id-devices-id',
    skipped: true,
    why: "a device add answered with the firewall, and devices listed as {id, type} by their own ids: nothing told which device an add made, and every check of a device skipped: a device add reads the firewall's devices before it (until the target answers an add with the device), and the one new device its list shows after is the instance's; a firewall created with two instances is judged on listing two devices (found by runs under replica-reads and ids-reused, seeds 3, 4, 13, 35)",
  },
  {
    variations: ['ids-reused', 'backups-listed-without-label'],
    rules: 'P2.backups.snapshot.replaces-previous',
    skipped: true,
    why: "the second snapshot took the id of the first it replaced, and the backups list shows no labels: nothing in the list told the first, and the check skipped: an id given again is left to the view of the first's id (showing the second), the list judging it only where it shows labels (found by runs under replica-reads and ids-reused, seeds 4, 8, 9, 11, 23, 33, 38)",
  },
  {
    variations: [
      'replica-reads',
      'ids-reused',
      'clones-take-longer',
      'profile-list-summaries',
      'profile-delete-runs-a-while',
      'state-of-other-country-names-country',
      'snapshot-keeps-cluster-busy',
      'interface-labels-unique-per-instance',
    ],
    rules: 'P2.config,P2.device-map,P2.interfaces,P2.compute.serves.post-compute-instances-id-configs',
    drawn: { seed: 64, runs: 100 },
    why: 'profile bodies breaking other members were refused naming an interface label a profile still being deleted held, and the profile list, showing summaries ({id, label}), showed no interfaces to find it by: a listed profile showing none is read from its view (found by runs under replica-reads and ids-reused, seed 64)',
  },
];

/** Each combination's run: its rules, under its variations, with the variation matrix's settings and its own. */
const narrowedRun = ({ variations, rules, drawn, settings, shrinks }: Combination): NarrowedRun => ({
  rules: rules.split(','),
  variations: VARIATIONS.filter((variation) => variations.includes(variation.id)),
  settings: { ...drawn, ...(shrinks ? { shrink: true } : {}), ...settings },
});

const RUNS = COMBINATIONS.map(narrowedRun);
let outcomes: NarrowedOutcome[];

beforeAll(async () => {
  // One worker runs them one after another (the variation matrix's worker: test/mutation/worker.ts), each its own
  // vitest run against its own emulator, with the matrix's seed, runs per property and no shrinking, no Allure report.
  outcomes = await runNarrowed(RUNS, { seed: 20261121, ...MATRIX_RUNS });
}, 900_000);

describe('combinations of allowed choices the matrix groups once failed', () => {
  it.each(COMBINATIONS.map((combination, index) => [`${combination.variations.join(' + ')} (${combination.rules})`, combination, index] as const))(
    '%s',
    (_, { variations, why, skipped, unjudged, waitedInVain }, index) => {
      expect(RUNS[index]!.variations).toHaveLength(variations.length);
      const outcome = outcomes[index]!;
      expect('problem' in outcome ? outcome.problem : '').toBe('');
      const { results } = outcome as { results: Results };
      const wrong = results.checkList.filter((check) => check.verdict === 'fail' || check.verdict === 'error');
      expect(
        wrong.map((check) => `${check.name}: ${check.message}`),
        why,
      ).toEqual([]);
      expect(results.checkList.filter((check) => check.verdict === 'pass').length).toBeGreaterThan(0);
      const judging = (rules: string[]) => skipped === true || rules.includes(skipped!);
      if (skipped)
        expect(
          results.checkList.filter((check) => check.verdict === 'skip' && judging(check.rules)).map((check) => `${check.name}: ${check.message}`),
          why,
        ).toEqual([]);
      if (unjudged) expect(ruleOf(results, unjudged).status, why).toBe('pass');
      if (waitedInVain)
        expect(
          results.checkList.filter((check) => check.unsettledReads).map((check) => check.name),
          why,
        ).toEqual([]);
    },
  );
});
