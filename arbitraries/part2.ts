// Request bodies of document 2 (spec/part2-compute-images-tags.md): compute instances, configuration profiles,
// images, tags.
import fc from 'fast-check';
import type { BodyArbitraries, BodyContext, Violation } from './types.js';
import { holds } from './context.js';
import {
  type Body,
  type BodyGen,
  type ValueGen,
  blank,
  constant,
  oneOf,
  broken,
  serverJudged,
  merged,
  missing,
  nonEmpty,
  optionalRecord,
} from './generators/body.js';
import {
  FULLVIRT_SLOTS,
  RESCUE_SLOTS,
  SLOTS,
  badInterfaces,
  deviceMap,
  deviceSlot,
  hasVlan,
  interfaces,
  mayHoldVlan,
  sshPublicKey,
  twoTypeSlot,
} from './generators/compute.js';
import { label, labelBadBeginEnd, labelBadChar, labelDoubledSeparator, labelTooLong, labelTooShort } from './generators/labels.js';
import { strongPassword, weakPassword } from './generators/passwords.js';
import { LOWER_ALNUM, between, stringOfLength, tooLong, matching } from './generators/text.js';

// ------------------------------------------------------------------ shared members

const LABEL_TEXT = `${LOWER_ALNUM}ABCDEFGHIJKLMNOPQRSTUVWXYZ-_.`;
/**
 * Free-form labels (snapshot, configuration profile, image, tag): the prefix, then plain characters. `mark` after the
 * prefix keeps two kinds of labels apart (tags given to objects may outlive them: a tag created later must not meet one).
 */
function prefixedText(context: BodyContext, min: number, max: number, alphabet = LABEL_TEXT, mark = ''): fc.Arbitrary<string> {
  const prefix = context.labelPrefix + mark;
  // Lengths too short for the prefix (e.g. a 1-character profile label) are made without it: the bound matters more.
  return between(min, max).chain((n) =>
    n > prefix.length ? stringOfLength(n - prefix.length, n - prefix.length, alphabet).map((rest) => prefix + rest) : stringOfLength(n, n, alphabet),
  );
}

const INSTANCE_LABEL = { min: 3, max: 64 } as const;
const instanceLabel: ValueGen = (c) => label(INSTANCE_LABEL.min, INSTANCE_LABEL.max, c.labelPrefix);

/** One violation per instance label rule, on the `label` of `valid`. */
function instanceLabelViolations(valid: BodyGen): Violation[] {
  const { min, max } = INSTANCE_LABEL;
  const cases: Array<[string, ValueGen]> = [
    ['P2.instance.label.min-3', () => labelTooShort(min)],
    ['P2.instance.label.max-64', (c) => labelTooLong(max, c.labelPrefix)],
    ['P2.instance.label.chars', (c) => labelBadChar(min, max, c.labelPrefix)],
    ['P2.instance.label.begin-end-alphanumeric', (c) => labelBadBeginEnd(min, max, c.labelPrefix)],
    ['P2.instance.label.no-doubled-separators', (c) => labelDoubledSeparator(min, max, c.labelPrefix)],
  ];
  return cases.map(([rule, value]) => broken(rule, valid, { label: value }));
}

/** What follows the prefix in a tag given to an instance, and in a tag created by POST /v4/tags. */
const OBJECT_TAG = 'o';
const CREATED_TAG = 'n';

/**
 * Tags in instance bodies: tag labels (3..50, the emulator holds instance tags to the tag label limits), always
 * prefixed since the document sets no bound of its own here to probe.
 */
const tags: ValueGen = (c) => fc.uniqueArray(prefixedText(c, Math.max(3, c.labelPrefix.length + 2), 50, LOWER_ALNUM, OBJECT_TAG), { maxLength: 3 });
const group = () => stringOfLength(0, 20, LOWER_ALNUM);
const instanceType: ValueGen = (c) => fc.constantFrom(c.instanceType, c.largerInstanceType);

/** Image description: 1..65000 characters, often a bound; long ones repeat a short random chunk (fast to make). */
function description(): fc.Arbitrary<string> {
  return fc.tuple(between(1, 65000), stringOfLength(1, 16)).map(([n, chunk]) => chunk.repeat(Math.ceil(n / chunk.length)).slice(0, n));
}
const DESCRIPTION_MAX = 65000;

function descriptionViolations(valid: BodyGen): Violation[] {
  return [
    blank('P2.image.description.min-1', valid, 'description'),
    broken('P2.image.description.max-65000', valid, {
      description: () => fc.integer({ min: DESCRIPTION_MAX + 1, max: DESCRIPTION_MAX + 50 }).map((n) => 'd'.repeat(n)),
    }),
  ];
}

/**
 * One violation per interface rule, on the `interfaces` of `valid`. With `regionAware` (instance create) the
 * region follows the interfaces, so a vlan item is never also rejected for the region: the VLAN region for any item
 * that is not public (one without purpose or with another a server may take for vlan, as the purpose rules' bodies
 * hold); without it (a profile of an instance in the run's region) a region other than the VLAN region may refuse a
 * vlan item first, naming its purpose.
 */
function interfaceViolations(valid: BodyGen, regionAware: boolean): Violation[] {
  const refusedForRegion = (c: BodyContext) => (c.region === c.vlanRegion ? [] : ['interfaces.*.purpose']);
  return badInterfaces.map(({ rule, field, arbitrary }) => ({
    rule,
    field: field ? `interfaces.${field}` : 'interfaces',
    // (no VLAN region named: the create goes to the run's region, which may refuse a vlan item first as well)
    orFields: regionAware ? (c: BodyContext) => (c.vlanRegion === null ? refusedForRegion(c) : []) : refusedForRegion,
    judgedBy: 'schema' as const,
    arbitrary: (c: BodyContext) =>
      fc.tuple(valid(c), arbitrary(c)).map(([body, items]) => ({
        ...body,
        ...(regionAware ? { region: mayHoldVlan(items) ? (c.vlanRegion ?? c.region) : c.region } : {}),
        interfaces: items,
      })),
  }));
}

// ------------------------------------------------------------------ instance create

type CreateMode = 'image' | 'backup' | 'empty';

/**
 * Members of each creation mode. script_id is left out of valid bodies: the context names no deployment script
 * (a made-up one fails the server's compatibility check), and so is script_data (whether it goes without a script is
 * not shown). authorized_users is only ever empty: usernames must
 * have SSH keys on the caller's profile beforehand, which the context does not provide.
 */
const modeMembers: Record<CreateMode, (c: BodyContext) => fc.Arbitrary<Body>> = {
  image: (c) =>
    optionalRecord(
      {
        image: fc.constant(c.publicImage),
        // 20 characters or more: the strength score is the server's own, and a short password of three classes may fail it
        root_pass: strongPassword(20, 128),
        authorized_keys: fc.array(sshPublicKey(), { maxLength: 2 }),
        authorized_users: fc.constant([]),
        // the default; its bounds are not shown
        swap_size: fc.constant(512),
      },
      ['image', 'root_pass'],
    ),
  backup: (c) => fc.constant({ backup_id: c.backupId }),
  empty: () => fc.constant({}),
};

/**
 * A valid create body of one mode. `booted` true is given only with an image or a backup: without either, what it
 * means is not shown (such an instance stays offline), and a server may refuse it. `interfaces` only with an image
 * (vlan items only when a VLAN region is named, where the body then goes):
 * whether they go with a create that makes no configuration profile of its own (empty) or copies the backup's is not
 * shown. `label` is always given: what a create answers is not shown, and without it nothing would tell the instance
 * made, to delete it (a create without one is judged by P2.instance.label.default-assigned, which tags its instance).
 */
function instanceCreate(mode: CreateMode): BodyGen {
  return (c) => {
    const optional = optionalRecord({
      booted: mode === 'empty' ? fc.constant(false) : fc.boolean(),
      backups_enabled: fc.boolean(),
      private_ip: fc.boolean(),
      ...(mode === 'image' ? { interfaces: interfaces(c, c.vlanRegion !== null) } : {}),
      group: group(),
      tags: tags(c),
    });
    return fc.tuple(instanceType(c), instanceLabel(c), modeMembers[mode](c), optional).map(([type, label, modal, rest]) => ({
      region: hasVlan(rest.interfaces) ? (c.vlanRegion ?? c.region) : c.region,
      type,
      label,
      ...modal,
      ...rest,
    }));
  };
}

const fromImage = instanceCreate('image');
const fromBackup = instanceCreate('backup');
const emptyInstance = instanceCreate('empty');

const instanceCreateBody: BodyArbitraries = {
  schema: 'requests/instance-create',
  valid: (c) => fc.oneof(fromImage(c), ...(holds(c, 'backupId') ? [fromBackup(c)] : []), emptyInstance(c)),
  violations: [
    missing('P2.instance-create.region.required', emptyInstance, 'region'),
    missing('P2.instance-create.type.required', fromImage, 'type'),
    ...instanceLabelViolations(fromImage),
    // Ids with neither prefix in every body of one way; a prefix alone and the empty id in another.
    broken('P2.image.id.prefix', fromImage, { image: oneOf('debian12', 'Compute/debian12', 'public/debian12', 'images/compute/debian12', 'private') }),
    // (not "": it may be read as no image, blank-optional-absent)
    broken('P2.image.id.prefix', fromImage, { image: constant('compute/') }),
    missing('P2.instance-create.root-pass.required-with-image', fromImage, 'root_pass'),
    // Strong but short: a password also too weak would break the strength rule as well (and be refused for it).
    broken('P2.instance-create.root-pass.min-7', fromImage, { root_pass: () => strongPassword(3, 6) }),
    broken('P2.instance-create.root-pass.max-128', fromImage, { root_pass: () => strongPassword(129, 160) }),
    // Mutually exclusive: neither member alone is at fault.
    broken('P2.instance-create.image.exclusive-backup-id', fromImage, { backup_id: (c) => fc.constant(c.backupId) }, null),
    broken('P2.instance-create.script-id.exclusive-backup-id', fromBackup, { script_id: () => fc.integer({ min: 1, max: 100000 }) }, null),
    broken('P2.instance-create.script-id.requires-image', emptyInstance, { script_id: () => fc.integer({ min: 1, max: 100000 }) }, null),
    broken(
      'P2.instance-create.script-id.not-private-image',
      fromImage,
      {
        image: () => fc.integer({ min: 1, max: 10_000_000 }).map((id) => `private/${id}`),
        script_id: () => fc.integer({ min: 1, max: 100000 }),
      },
      null,
    ),
    ...interfaceViolations(fromImage, true),
    serverJudged('P2.instance-create.root-pass.strength', fromImage, { root_pass: () => weakPassword(7, 128) }),
    serverJudged('P2.instance-create.type.known', emptyInstance, { type: () => matching(/^[a-z0-9]{6,12}$/).map((id) => `no-such-type-${id}`) }),
  ],
};

// ------------------------------------------------------------------ instance update

// A day and a window a caller chooses: `Scheduling` (and null) are what the service shows until it has chosen one, and
// whether a caller may send them is not shown.
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const WINDOWS = ['W0', 'W2', 'W4', 'W6', 'W8', 'W10', 'W12', 'W14', 'W16', 'W18', 'W20', 'W22'];

/**
 * Alert thresholds, all five together: only the update's top-level members are said to be optional (whether alerts
 * may leave some out is not shown). 0 (disabled) often; upper ends stay inside what any type allows (cpu: 100 per
 * core, one core at least).
 */
const alerts = () =>
  fc.record({
    cpu: between(0, 100),
    io: between(0, 10000),
    network_in: between(0, 10000),
    network_out: between(0, 10000),
    transfer_quota: between(0, 100),
  });

/**
 * A backup schedule, its day and its window together: only the update's top-level members are said to be optional
 * (whether a schedule may be sent with one member is not shown).
 */
const backups = () =>
  optionalRecord({ schedule: optionalRecord({ day: fc.constantFrom(...DAYS), window: fc.constantFrom(...WINDOWS) }, ['day', 'window']) }, ['schedule']);

const instanceUpdate: BodyGen = (c) =>
  nonEmpty(
    optionalRecord({
      alerts: alerts(),
      backups: backups(),
      group: group(),
      label: instanceLabel(c),
      tags: tags(c),
      watchdog_enabled: fc.boolean(),
    }),
  );

/** An update carrying a whole schedule: the base of the bodies breaking one of its members, which then lack no other. */
const withSchedule: BodyGen = (c) => merged(instanceUpdate(c), fc.record({ backups: backups() }));

const instanceUpdateBody: BodyArbitraries = {
  schema: 'requests/instance-update',
  valid: instanceUpdate,
  violations: [
    broken('P2.instance.backups.schedule.day.enum', withSchedule, { 'backups.schedule.day': oneOf('Sun', 'Someday', 'Weekday') }),
    broken('P2.instance.backups.schedule.window.enum', withSchedule, { 'backups.schedule.window': oneOf('W1', 'W24', 'W', '10', 'Scheduled') }),
    ...instanceLabelViolations(instanceUpdate),
  ],
};

// ------------------------------------------------------------------ clone

/**
 * Which configs and disks to clone: absent (all configs), none, the context's profile, its disk as an extra (those
 * two where the context holds them).
 */
const cloneSelection = (c: BodyContext): fc.Arbitrary<Body> => {
  const profile = holds(c, 'configId');
  return fc.constantFrom<Body>(
    {},
    { configs: [] },
    ...(profile ? [{ configs: [c.configId] }] : []),
    { disks: [] },
    ...(profile
      ? [
          { configs: [], disks: [c.diskId] },
          { configs: [c.configId], disks: [] },
        ]
      : []),
  );
};

/**
 * To a new instance (no compute_id): region and type required. Always labelled: a clone's answer may be its job, and
 * only the label tells the instance made in the list (a clone without one is judged by P2.clone.label.default).
 */
const cloneToNew: BodyGen = (c) =>
  merged(
    optionalRecord({ region: fc.constant(c.region), type: instanceType(c), label: instanceLabel(c), backups_enabled: fc.boolean(), group: group() }, [
      'region',
      'type',
      'label',
    ]),
    cloneSelection(c),
  );

/**
 * Onto an existing instance: the second of the context (the source is the first). That instance's disks fill it,
 * so only a selection that clones no disk fits ("must have enough resources"): a body breaking one rule is then
 * refused for that rule alone.
 */
const cloneToExisting: BodyGen = (c) =>
  merged(
    optionalRecord({ compute_id: fc.constant(c.computeIds[1]!), group: group() }, ['compute_id']),
    fc.constantFrom<Body>({ configs: [] }, { configs: [], disks: [] }),
  );

const instanceCloneBody: BodyArbitraries = {
  schema: 'requests/instance-clone',
  valid: (c) => fc.oneof(cloneToNew(c), cloneToExisting(c)),
  violations: [
    missing('P2.instance-clone.region.required-for-new', cloneToNew, 'region'),
    missing('P2.instance-clone.type.required-for-new', cloneToNew, 'type'),
    // A clash with compute_id: a server may put either member at fault.
    { ...broken('P2.instance-clone.region.not-with-compute-id', cloneToExisting, { region: (c) => fc.constant(c.region) }), orFields: ['compute_id'] },
    { ...broken('P2.instance-clone.type.not-with-compute-id', cloneToExisting, { type: instanceType }), orFields: ['compute_id'] },
    ...instanceLabelViolations(cloneToNew),
  ],
};

// ------------------------------------------------------------------ snapshot, restore, boot, rescue, resize

const snapshotCreate: BodyGen = (c) => optionalRecord({ label: prefixedText(c, 1, 255) }, ['label']);

const snapshotCreateBody: BodyArbitraries = {
  schema: 'requests/instance-snapshot-create',
  valid: snapshotCreate,
  violations: [
    missing('P2.instance-snapshot-create.label.required', snapshotCreate, 'label'),
    broken('P2.instance-snapshot-create.label.min-1', snapshotCreate, { label: constant('') }),
    broken('P2.instance-snapshot-create.label.max-255', snapshotCreate, { label: () => tooLong(255) }),
  ],
};

/** Restore onto one of the run's instances (the backup is the context's, of the first). */
const backupRestore: BodyGen = (c) => optionalRecord({ compute_id: fc.constantFrom(...c.computeIds), overwrite: fc.boolean() }, ['compute_id']);

const backupRestoreBody: BodyArbitraries = {
  schema: 'requests/backup-restore',
  valid: backupRestore,
  violations: [missing('P2.backup-restore.compute-id.required', backupRestore, 'compute_id')],
};

const instanceBoot: BodyGen = (c) => optionalRecord({ config_id: fc.constant(c.configId) });

const instanceBootBody: BodyArbitraries = {
  schema: 'requests/instance-boot',
  valid: instanceBoot,
  violations: [
    // Ids this high are far beyond anything a run creates.
    serverJudged('P2.boot.config-id', instanceBoot, { config_id: () => fc.integer({ min: 2_000_000_000, max: 2_147_483_647 }) }),
  ],
};

/**
 * Rescue devices: sda..sdg only. sdh is left out even as null (the emulator rejects the slot name outright). devices is
 * always sent: "body: `devices` (device map with `sda` to `sdg`)" is not marked optional, as boot's config_id is, so
 * whether it may be left out is not shown (no body without it is judged either way).
 */
const instanceRescue: BodyGen = (c) => optionalRecord({ devices: deviceMap(c, RESCUE_SLOTS) }, ['devices']);

const instanceRescueBody: BodyArbitraries = {
  schema: 'requests/instance-rescue',
  valid: instanceRescue,
  violations: [
    broken('P2.instance-rescue.devices.sdh-reserved', instanceRescue, { 'devices.sdh': deviceSlot }),
    broken('P2.device-map.slot.one-type', instanceRescue, { 'devices.sdb': twoTypeSlot }),
  ],
};

const instanceResize: BodyGen = (c) => optionalRecord({ type: fc.constant(c.largerInstanceType), allow_auto_disk_resize: fc.boolean() }, ['type']);

const instanceResizeBody: BodyArbitraries = {
  schema: 'requests/instance-resize',
  valid: instanceResize,
  violations: [missing('P2.instance-resize.type.required', instanceResize, 'type')],
};

// ------------------------------------------------------------------ configuration profiles

const CONFIG_LABEL = { min: 1, max: 48 } as const;
const RUN_LEVELS = ['default', 'single', 'binbash'];

/**
 * Members common to create and update. kernel is left out: the context names no kernel ID (the document names
 * none either), and an unknown one is rejected; memory_limit too: its bounds are not shown (only its default, the
 * instance's RAM). Profiles belong to the context's instances, created in
 * `region`: vlan interfaces only when that region supports VLANs.
 */
function configMembers(c: BodyContext): Record<string, fc.Arbitrary<unknown>> {
  const helper = fc.boolean();
  return {
    label: prefixedText(c, CONFIG_LABEL.min, CONFIG_LABEL.max),
    comments: fc.option(stringOfLength(0, 40), { nil: null }),
    // Only devtmpfs_automount has a default: whether helpers may leave out the others is not shown.
    helpers: optionalRecord({ devtmpfs_automount: helper, distro: helper, modules_dep: helper, network: helper, updatedb_disabled: helper }, [
      'distro',
      'modules_dep',
      'network',
      'updatedb_disabled',
    ]),
    interfaces: interfaces(c, c.region === c.vlanRegion),
    root_device: fc.constantFrom(...SLOTS.map((slot) => `/dev/${slot}`)),
    run_level: fc.constantFrom(...RUN_LEVELS),
  };
}

/** In fullvirt mode only sda..sdd may name a device; sde..sdh are left out (a server may refuse them even as null). */
function configCreateIn(virtMode: 'paravirt' | 'fullvirt' | undefined): BodyGen {
  return (c) => {
    const devices = virtMode === 'fullvirt' ? deviceMap(c, FULLVIRT_SLOTS) : deviceMap(c);
    const mode: Record<string, fc.Arbitrary<unknown>> = virtMode ? { virt_mode: fc.constant(virtMode) } : {};
    return optionalRecord({ ...configMembers(c), devices, ...mode }, ['label', 'devices', ...Object.keys(mode)]);
  };
}

const configCreate: BodyGen = (c) => fc.oneof(configCreateIn(undefined)(c), configCreateIn('paravirt')(c), configCreateIn('fullvirt')(c));
const fullvirtConfig = configCreateIn('fullvirt');

/**
 * The slots a fullvirt body puts a device in, one violation each: both ends of "Slots `sde` to `sdh` are unavailable in
 * `fullvirt` mode" (a server off by one at either end refuses the others) and one inside it.
 */
const FULLVIRT_PROBED = ['sde', 'sdf', 'sdh'] as const;

/** A fullvirt profile body with a device in each probed slot in turn; the server may name virt_mode instead. */
function fullvirtSlotViolations(judged: typeof broken, valid: BodyGen): Violation[] {
  return FULLVIRT_PROBED.map((slot) => ({
    ...judged('P2.config.devices.fullvirt-sda-to-sdd', valid, { [`devices.${slot}`]: deviceSlot }),
    orFields: ['virt_mode'],
  }));
}

/** Violations both profile bodies share. */
function configViolations(valid: BodyGen): Violation[] {
  return [
    blank('P2.config.label.min-1', valid, 'label'),
    broken('P2.config.label.max-48', valid, { label: (c) => tooLong(CONFIG_LABEL.max).map((text) => c.labelPrefix + text.slice(c.labelPrefix.length)) }),
    broken('P2.config.run-level.enum', valid, { run_level: oneOf('multi', 'rescue', 'bash') }),
    broken('P2.device-map.slot.one-type', valid, { 'devices.sda': twoTypeSlot }),
    ...interfaceViolations(valid, false),
  ];
}

const configCreateBody: BodyArbitraries = {
  schema: 'requests/config-create',
  valid: configCreate,
  violations: [
    missing('P2.config-create.label.required', configCreate, 'label'),
    missing('P2.config-create.devices.required', configCreate, 'devices'),
    ...configViolations(configCreate),
    broken('P2.config.virt-mode.enum', configCreateIn('paravirt'), { virt_mode: oneOf('hvm', 'full', 'pv') }),
    ...fullvirtSlotViolations(broken, fullvirtConfig),
  ],
};

/** Update: every member optional; virt_mode left out (the members after run_level are "not shown" for update). */
const configUpdate: BodyGen = (c) => nonEmpty(optionalRecord({ ...configMembers(c), devices: deviceMap(c) }));
/**
 * An update of a fullvirt profile: its device map leaves out sde..sdh. No interfaces: the profile shares its instance
 * with others, whose labels a server may hold unique across the instance's profiles.
 */
const fullvirtUpdate: BodyGen = (c) => {
  const { interfaces: _interfaces, ...members } = configMembers(c);
  return optionalRecord({ ...members, devices: deviceMap(c, FULLVIRT_SLOTS) }, ['devices']);
};

const configUpdateBody: BodyArbitraries = {
  schema: 'requests/config-update',
  valid: configUpdate,
  violations: [
    ...configViolations(configUpdate),
    // The body cannot say the profile is fullvirt (virt_mode on update is not shown): the profile it goes to is.
    ...fullvirtSlotViolations(serverJudged, fullvirtUpdate),
  ],
};

// ------------------------------------------------------------------ images

/** Image labels: no bounds in the document; a short title. */
const imageLabel: ValueGen = (c) => prefixedText(c, 1, 50);

const imageCapture: BodyGen = (c) => optionalRecord({ disk_id: fc.constant(c.diskId), label: imageLabel(c), description: description() }, ['disk_id']);
const imageUpload: BodyGen = (c) => optionalRecord({ label: imageLabel(c), region: fc.constant(c.region), description: description() }, ['label', 'region']);
const imageUpdate: BodyGen = (c) =>
  // status is the upload's own (`pending_upload`): states move by capture, upload and time, and a server may refuse a
  // caller's move to another
  nonEmpty(optionalRecord({ description: fc.option(description(), { nil: null, freq: 4 }), label: imageLabel(c), status: fc.constant('pending_upload') }));

const imageCaptureBody: BodyArbitraries = {
  schema: 'requests/image-capture',
  valid: imageCapture,
  violations: [missing('P2.image-capture.disk-id.required', imageCapture, 'disk_id'), ...descriptionViolations(imageCapture)],
};

const imageUploadBody: BodyArbitraries = {
  schema: 'requests/image-upload',
  valid: imageUpload,
  violations: [
    missing('P2.image-upload.label.required', imageUpload, 'label'),
    missing('P2.image-upload.region.required', imageUpload, 'region'),
    ...descriptionViolations(imageUpload),
  ],
};

const imageUpdateBody: BodyArbitraries = {
  schema: 'requests/image-update',
  valid: imageUpdate,
  violations: [
    ...descriptionViolations(imageUpdate),
    broken('P2.image.status.enum', imageUpdate, { status: oneOf('deleted', 'pending', 'ready', 'uploading') }),
  ],
};

// ------------------------------------------------------------------ tags

const TAG_LABEL = { min: 3, max: 50 } as const;

/** Objects to tag: the context's own (no balancer or volume exists in it, so those lists stay empty). */
const tagCreate: BodyGen = (c) =>
  optionalRecord(
    {
      label: prefixedText(c, TAG_LABEL.min, TAG_LABEL.max, LOWER_ALNUM, CREATED_TAG),
      domains: fc.subarray([c.domainId]),
      computes: fc.subarray(c.computeIds),
      balancers: fc.constant([]),
      volumes: fc.constant([]),
    },
    ['label'],
  );

const tagCreateBody: BodyArbitraries = {
  schema: 'requests/tag-create',
  valid: tagCreate,
  violations: [
    missing('P2.tag-create.label.required', tagCreate, 'label'),
    broken('P2.tag.label.min-3', tagCreate, { label: () => stringOfLength(0, TAG_LABEL.min - 1, LOWER_ALNUM) }),
    broken('P2.tag.label.max-50', tagCreate, {
      label: (c) => tooLong(TAG_LABEL.max, LOWER_ALNUM).map((text) => c.labelPrefix + text.slice(c.labelPrefix.length)),
    }),
  ],
};

export const bodies: Record<string, BodyArbitraries> = Object.fromEntries(
  [
    instanceCreateBody,
    instanceUpdateBody,
    instanceCloneBody,
    snapshotCreateBody,
    backupRestoreBody,
    instanceBootBody,
    instanceRescueBody,
    instanceResizeBody,
    configCreateBody,
    configUpdateBody,
    imageCaptureBody,
    imageUploadBody,
    imageUpdateBody,
    tagCreateBody,
  ].map((body) => [body.schema, body]),
);
