// `npm run mutation -- --under`: every fault's emulator carries the variations given too. Under `clones-instant` no clone
// is ever running, so the fault of a sixth concurrent clone has nothing to show (its rule skips); on the plain
// emulator it is detected. And faults once unseen under an allowed choice are detected under it now.
import { beforeAll, expect, it } from 'vitest';
import { FAULTS } from '../../emulator/faults/index.js';
import { VARIATIONS } from '../../emulator/variations/index.js';
import { MATRIX_RUNS, runMatrix } from './matrix.js';

it('runs each fault under the variations given, which reach its emulator', async () => {
  const fault = FAULTS.find((candidate) => candidate.id === 'P2.clone.max-5-concurrent')!;
  const [plain, under] = await Promise.all([
    runMatrix({ faults: [fault], seed: 1, ...MATRIX_RUNS, jobs: 1 }),
    runMatrix({ faults: [fault], seed: 1, ...MATRIX_RUNS, jobs: 1, under: VARIATIONS.filter((variation) => variation.id === 'clones-instant') }),
  ]);
  expect(plain.outcomes).toEqual([expect.objectContaining({ id: fault.id, detected: true })]);
  expect(under.outcomes).toEqual([expect.objectContaining({ id: fault.id, detected: false, ruleStatus: 'skip' })]);
}, 120_000);

/** Faults that went unseen under an allowed choice (`npm run mutation -- --under <it>`), and what the suite does now. */
const SEEN_UNDER: Array<{ fault: string; under: string[]; why: string }> = [
  {
    fault: 'P2.backups.restore.overwrite-true',
    under: ['reads-lag-creates'],
    why: "the profile added before an overwriting restore was never read before it, so its view's 404 lagging its create passed for the restore's deletion: it is seen first (`untilSeen`)",
  },
  {
    fault: 'P1.events.seen.later-unseen',
    under: ['replica-reads'],
    why: 'the later event, read just after POST seen of an earlier one, answered as before the mark: what must not have changed is read once the window has passed',
  },
  {
    fault: 'P2.instance-create.vlan-mode',
    under: ['replica-reads'],
    why: "a VLAN read lagging the boot's attach showed no list of instance ids, and the new instance passed for attached with no list judged: a VLAN showing none has not joined, and one showing none after the wait is not judged",
  },
  {
    fault: 'P3.firewall.event.delete~early',
    under: ['events-lag'],
    why: 'the events list read once for a firewall_delete the disable must not emit missed one shown later: it is read once the window has passed',
  },
  {
    fault: 'P3.firewall.event.device-remove~early',
    under: ['events-lag'],
    why: 'the events list read once for a firewall_device_remove the adds must not emit missed one shown later: it is read once the window has passed',
  },
  {
    fault: 'P1.events.emission.instances',
    under: ['events-seen-marks-shown'],
    why: "the create's audit record, shown after its event, passed for the delete's new event: the events before the delete are read once the window has passed",
  },
  {
    fault: 'P2.instance.region.migration-only',
    under: ['replica-reads'],
    why: 'the view read just after the resize answered as before it, showing the region unchanged: the region is read from a view showing the larger type (and, after the update, the new label)',
  },
  {
    fault: 'P3.firewall-update.devices-rules-unchanged~devices',
    under: ['replica-reads'],
    why: 'the devices read just after PUT firewall answered as before it, showing them unchanged: what must not have changed is read once the window has passed',
  },
  {
    fault: 'P1.database.status.backups-list-not-provisioning~updating',
    under: ['replica-reads'],
    why: "the backups list read just after the patch answered as before it, served (one run in four to five alone): what the cluster serves while updating is read once the window has passed, holding the run's clock",
  },
  {
    fault: 'P1.event.status.enum~compute-clone',
    under: ['clone-instance-made-on-completion'],
    why: "the emulator's clone to a new instance under this variation recorded its event without the fault: the fault had nothing to show (an emulator gap, found with `--under clone-instance-made-on-completion,clone-answers-its-job,replica-reads`)",
  },
  {
    fault: 'P1.database.unrestricted-regardless-of-scopes',
    under: ['snapshot-keeps-cluster-busy'],
    why: "the restricted user's patch, sent just after the check's snapshot, was refused for the busy cluster (409), which passed for the refusal of the user: the patch and the credentials reset are sent again while refused as for a busy cluster, as the update is",
  },
  {
    fault: 'P3.assign.end-public-ipv4',
    under: ['assign-end-states-first'],
    why: "the emulator's early judgment of the end states under this variation refused the assignment whatever the fault: the fault had nothing to show (an emulator gap, found by the whole mutation matrix under the variation)",
  },
  {
    fault: 'P2.interfaces.vlan.capable-regions~clone',
    under: ['profile-list-summaries'],
    why: "the clone's profiles were read in their list, which under this variation shows summaries ({id, label}) and no interfaces: the VLAN a clone to a region without VLANs copied never showed; they are read whole",
  },
  {
    fault: 'P3.firewall.event.delete~early',
    under: ['firewall-created-disabled'],
    why: 'a firewall created disabled was never disabled by PUT, so an early firewall_delete on disabling had nothing to show: the disabled firewall the delete check judges is enabled, then disabled, by PUT',
  },
  {
    fault: 'P2.images.upload.gzip',
    under: ['image-content-checked'],
    why: "plain text sent uncompressed has no partition table, which this variation refuses whatever the compression, and the emulator looked for one in the data's gzip content only: the check sends the raw disk image uncompressed, and the emulator looks at uncompressed data as it is",
  },
  {
    fault: 'P2.config.virt-mode.default',
    under: ['profile-defaults-null'],
    why: 'a profile made without virt_mode shows it null under this variation, so the default the fault makes fullvirt never showed, and the emulator checked the slots against the mode given only: a profile made without virt_mode is given a disk in slot sde (unavailable in fullvirt), and the emulator checks the slots against the default too',
  },
  {
    fault: 'P2.instance-create.tags-shown',
    under: ['instance-create-answers-summary'],
    why: 'an instance created without a label, answered by a summary ({id, label, status}), was looked for in the list by the tag it was given, which the fault leaves off: it never showed (skip); the answer is the instance when the view of its id shows its label and the region sent',
  },
  {
    fault: 'P3.pagination.page.default-1',
    under: ['empty-list-page-zero'],
    why: 'the monitoring clients list a narrowed run leaves empty may show page 0 under this variation, which the fault shows for any: the list is given one client first (one firewall too)',
  },
  {
    fault: 'P3.record.mx.null-name-empty',
    under: ['zone-starts-with-mx-record'],
    why: "the bodies breaking the rule went to the file's domain, which holds an MX of its own under this variation: a null MX is refused there whatever its name; one named is sent to a domain without MX records",
  },
  {
    fault: 'P2.instance.ipv4.one-public-on-create',
    under: ['private-ip-when-provisioned'],
    why: 'an instance deployed with private_ip shows its private address once provisioned under this variation, so the second public address the fault gives passed for the private one when counted at once: the addresses are counted again once a short time has passed',
  },
  {
    fault: 'P3.ipv6-range.region-of-instance',
    under: ['ranges-without-region'],
    why: "a range showing no region could not show the wrong one, and the emulator's fault counted the region's one range where the instance is rather than where it made the range: it counts it there, and a range for an instance of the other region is created while the account's one range stands (one per region)",
  },
];

/** The detected outcome of each entry: one matrix run for the entries under the same variations. */
const detected = new Map<string, boolean>();
const keyOf = (fault: string, under: string[]) => `${fault} under ${under.join(' + ')}`;

beforeAll(async () => {
  const groups = [...new Set(SEEN_UNDER.map((entry) => entry.under.join(',')))].map((key) => key.split(','));
  await Promise.all(
    groups.map(async (under) => {
      const matrix = await runMatrix({
        faults: FAULTS.filter((fault) => SEEN_UNDER.some((entry) => entry.fault === fault.id && entry.under.join(',') === under.join(','))),
        seed: 20261121,
        ...MATRIX_RUNS,
        jobs: 1,
        under: VARIATIONS.filter((variation) => under.includes(variation.id)),
      });
      for (const outcome of matrix.outcomes) detected.set(keyOf(outcome.id, under), outcome.detected);
    }),
  );
}, 240_000);

it.each(SEEN_UNDER.map((entry) => [keyOf(entry.fault, entry.under), entry] as const))('detects %s', (key, { why }) => {
  expect(detected.get(key), why).toBe(true);
});
