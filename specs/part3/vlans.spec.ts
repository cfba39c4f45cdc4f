// Document 3, "IP address, IPv6 pool, IPv6 range, VLAN": the VLAN list, VLANs made through the interfaces of
// document 2, and the three ways a VLAN is detached: removing the interface from the active configuration profile
// and rebooting, booting a profile without it, deleting the instance. The VLAN object's fields are not shown: a VLAN
// is found in its list by its label, and the instances it holds in its arrays of ids (or of objects with an id),
// where it shows them. Whether a VLAN still shows an instance that is shut down is not shown either: a detach is
// judged once the boot that follows the shutdown is accepted.
import { describe } from 'vitest';
import { needVlanRoom } from '../../harness/account-limits.js';
import { check, type Check } from '../../harness/check.js';
import { describeExchange } from '../../harness/error-bodies.js';
import { onceNotBusy, readAfterWrite, untilGone, untilShortlyDone } from '../../harness/consistency.js';
import { SetupError, useFixtures } from '../../harness/fixtures.js';
import { deepFind, listItems as listAll } from '../../harness/lists.js';
import { INSTANCES, deleteInstance, deployedProfiles, extraSetting, ok, shutDown } from '../part2/compute-support.js';
import { createConfig, diskSlotsOf, newConfig, updateProfile } from '../part2/profiles-support.js';

type Json = Record<string, unknown>;

const fx = useFixtures('part3-vlans');

describe('VLANs', () => {
  const vlanLabel = () => fx.label('vl', 64).replace(/[^A-Za-z0-9-]/g, '-');
  /** The VLAN labelled `label` in the list, read again within the consistency window while it is missing. */
  const listed = async (c: Check, label: string) => {
    const find = (items: Json[]) => deepFind({ data: items }, (item) => Object.values(item).includes(label));
    return find(
      await readAfterWrite(
        c,
        () => listAll(c, '/v4beta/networking/vlans'),
        (items) => find(items) !== undefined,
      ),
    );
  };
  /** Whether a VLAN item lists instance `id`, in an array of ids or of objects with an id. */
  const holds = (id: number) => (item: Json | undefined) =>
    Object.values(item ?? {}).some(
      (value) => Array.isArray(value) && value.some((member) => member === id || (member && typeof member === 'object' && (member as Json).id === id)),
    );

  /** The configured VLAN-capable region, or `skip` naming its flag (a real target names it). */
  const vlanRegion = (c: Check) => extraSetting(c, 'VLAN_REGION');

  /**
   * The VLAN the detach checks put their instances on, each its own instance: VLANs are scarce (10 per region, never
   * said to be deleted), and each check reads only whether the VLAN lists its own instance.
   */
  const detachVlan = async (c: Check) => {
    await needVlanRoom(c, vlanRegion(c));
    return fx.shared('detach VLAN', () => Promise.resolve(vlanLabel()));
  };

  /** Boots profile `configId` of instance `id`, sent again while the instance may be busy (`onceNotBusy`). */
  const boot = (c: Check, id: number, configId: unknown) => onceNotBusy(c, () => c.post(`${INSTANCES}/${id}/boot`, { config_id: configId }));

  /**
   * An instance deployed from an image and left offline, its only profile (the default one) given an interface on
   * VLAN `label`, then booted on that profile. Skips where the VLAN list does not show the instance on the VLAN.
   */
  async function bootedOnVlan(c: Check, label: string): Promise<{ id: number; profile: Json; path: string; holdsIt: (vlan: Json | undefined) => boolean }> {
    const { id } = await fx.newInstance(c, { region: vlanRegion(c), booted: false });
    const profiles = await deployedProfiles(c, id, (shown) => shown.length === 1);
    if (profiles.length !== 1)
      return c.skip('an instance deployed from an image does not list exactly one profile (judged by P2.instance-create.image.default-config)');
    const profile = profiles[0]!;
    if (typeof profile.id !== 'number') throw new SetupError(`the default profile of instance ${id} shows no id`);
    const path = `${INSTANCES}/${id}/configs/${profile.id}`;
    const joined = await updateProfile(c, path, { interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label }] });
    if (!ok(joined)) throw new SetupError(`could not give the default profile a vlan interface: ${describeExchange(joined)}`);
    const booted = await boot(c, id, profile.id);
    if (!ok(booted)) throw new SetupError(`could not boot the profile with the vlan interface: ${describeExchange(booted)}`);
    const holdsIt = holds(id);
    // How long a boot takes is not shown.
    const vlan = await untilShortlyDone(c, () => listed(c, label), holdsIt);
    c.expect('P3.vlan.created-through-interfaces', vlan, `the VLAN ${label} of a profile interface is not in the VLAN list`);
    if (!holdsIt(vlan)) c.skip('the VLAN object does not show its attached instances (its fields are not shown)');
    return { id, profile, path, holdsIt };
  }

  /** The VLAN read while a short time passes until it no longer lists the instance (how long a boot takes is not shown). */
  const untilLeft = (c: Check, label: string, holdsIt: (vlan: Json | undefined) => boolean) =>
    untilShortlyDone(
      c,
      () => listed(c, label),
      (shown) => !holdsIt(shown),
    );

  check(
    ['P3.vlan.list-account', 'P3.vlan.created-through-interfaces'],
    'VLANs made through instance create and configuration profile create and update are listed',
    async (c) => {
      const region = vlanRegion(c);
      await needVlanRoom(c, region, 3);
      const [viaInstance, viaCreate, viaUpdate] = [vlanLabel(), vlanLabel(), vlanLabel()];
      const instance = await fx.newInstance(c, { region, interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: viaInstance }] });
      // A new instance may join its VLAN only at its first boot, once provisioned (how long that takes is not shown).
      const joined = await untilShortlyDone(c, () => listed(c, viaInstance), Boolean);
      c.expect('P3.vlan.list-account', joined, `the VLAN ${viaInstance} of an instance interface is not in the VLAN list (read while a short time passed)`);
      const config = await createConfig(c, instance.id, { interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: viaCreate }] }, fx.label('cfg', 48));
      c.expectSuccess('P3.vlan.created-through-interfaces', config.exchange, 'creating a configuration profile with a VLAN interface');
      c.expect(
        'P3.vlan.created-through-interfaces',
        await listed(c, viaCreate),
        `the VLAN ${viaCreate} of a new configuration profile is not in the VLAN list`,
      );
      const configId = config.id;
      if (configId === undefined) throw new SetupError('created a configuration profile but cannot find its id');
      const update = await updateProfile(c, `/v4/compute/instances/${instance.id}/configs/${configId}`, {
        interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: viaUpdate }],
      });
      c.expectSuccess('P3.vlan.created-through-interfaces', update, 'updating a configuration profile with a VLAN interface');
      c.expect(
        'P3.vlan.created-through-interfaces',
        await listed(c, viaUpdate),
        `the VLAN ${viaUpdate} of an updated configuration profile is not in the VLAN list`,
      );
    },
  );

  check('P3.vlan.detach', 'deleting an instance detaches it from its VLAN', async (c) => {
    const region = vlanRegion(c);
    const label = await detachVlan(c);
    const instance = await fx.newInstance(c, { region, interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label }] });
    const holdsIt = holds(instance.id);
    // A new instance may join its VLAN only at its first boot, once provisioned (how long that takes is not shown).
    const vlan = await untilShortlyDone(c, () => listed(c, label), holdsIt);
    c.expect('P3.vlan.list-account', vlan, `the VLAN ${label} of an instance interface is not in the VLAN list`);
    if (!holdsIt(vlan)) c.skip('the VLAN object does not show its attached instances (its fields are not shown)');
    c.expectSuccess('P3.vlan.detach', await deleteInstance(c, instance.id), 'DELETE the instance');
    await untilGone(c, `/v4/compute/instances/${instance.id}`);
    // Its view may answer 404 before the deletion has run (a replica lagging the instance's create answers so too):
    // the VLAN list is read while a short time passes as well.
    const after = await untilLeft(c, label, holdsIt);
    c.expect('P3.vlan.detach', !holdsIt(after), `the VLAN ${label} still shows deleted instance ${instance.id}`);
  });

  // The documents have no reboot endpoint: a shutdown and a boot of the same profile reboot the instance.
  check('P3.vlan.detach', 'removing the vlan interface from the active profile and rebooting detaches the instance from its VLAN', async (c) => {
    const label = await detachVlan(c);
    const { id, profile, path, holdsIt } = await bootedOnVlan(c, label);
    c.expectSuccess(
      'P3.vlan.detach',
      await updateProfile(c, path, { interfaces: [{ purpose: 'public' }] }),
      'updating the booted profile without its vlan interface',
    );
    await shutDown(c, id);
    c.expectSuccess('P3.vlan.detach', await boot(c, id, profile.id), 'booting the updated profile again');
    const after = await untilLeft(c, label, holdsIt);
    c.expect('P3.vlan.detach', !holdsIt(after), `the VLAN ${label} still shows instance ${id} rebooted on its profile without the vlan interface`);
  });

  check('P3.vlan.detach', 'booting another profile without the vlan interface detaches the instance from its VLAN', async (c) => {
    const label = await detachVlan(c);
    const { id, profile, holdsIt } = await bootedOnVlan(c, label);
    // The new profile boots the same disks: a profile with no device would hold its boot.
    const disks = diskSlotsOf(profile.devices);
    if (!disks) return c.skip('the default profile does not show the disks in its device map (its fields are not shown)');
    const other = await newConfig(c, id, { devices: disks, interfaces: [{ purpose: 'public' }] });
    await shutDown(c, id);
    c.expectSuccess('P3.vlan.detach', await boot(c, id, other.id), 'booting a new profile without the vlan interface');
    const after = await untilLeft(c, label, holdsIt);
    c.expect('P3.vlan.detach', !holdsIt(after), `the VLAN ${label} still shows instance ${id} booted on a profile without the vlan interface`);
  });
});
