// Instance request fields several handlers read: label, region, type, root password, integer id lists.
import type { InstanceType, Region, Store } from '../../core/store.js';
import type { Principal } from '../../core/types.js';
import { fail, optArray, optString, reqString } from '../../core/validate.js';
import { hasGlobalGrant } from '../../core/permissions.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { conflictStatus } from '../../variations/responses.js';
import { labels } from './model.js';

// Begins and ends with an alphanumeric; only alphanumerics and - _ .; no two of - _ . in a row.
const INSTANCE_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9]|[-_.](?=[A-Za-z0-9]))*$/;
/** Under the variation labels-unicode-alphanumerics: any letter or digit. */
const UNICODE_INSTANCE_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}]|[-_.](?=[\p{L}\p{N}]))*$/u;
/** The label patterns of the faults breaking one label rule each (chars, begin-end, doubled separators). */
const FAULTY_LABELS = {
  'P2.instance.label.chars': /^[^-_.](?:[^-_.]|[-_.](?=[^-_.]))*$/u,
  'P2.instance.label.begin-end-alphanumeric': /^[-_.]?[A-Za-z0-9](?:[A-Za-z0-9]|[-_.](?=[A-Za-z0-9]))*[-_.]?$/,
  'P2.instance.label.no-doubled-separators': /^[A-Za-z0-9](?:[A-Za-z0-9]|[-_.]+(?=[A-Za-z0-9]))*$/,
} as const;

export function instanceLabel(o: Record<string, unknown>, store: Store, exceptId: number | null): string | undefined {
  const faultyPattern = (Object.keys(FAULTY_LABELS) as (keyof typeof FAULTY_LABELS)[]).find((id) => faulty(store, id));
  const label = optString(o, 'label', {
    min: faulty(store, 'P2.instance.label.min-3') ? 1 : 3,
    max: faulty(store, 'P2.instance.label.max-64') ? 200 : 64,
    pattern: faultyPattern ? FAULTY_LABELS[faultyPattern] : unicodeLabels(store) ? UNICODE_INSTANCE_LABEL : INSTANCE_LABEL,
    patternReason:
      'Label must begin and end with a letter or digit and contain only letters, digits, dashes, underscores and periods, with no two dashes, underscores or periods in a row',
  });
  if (label !== undefined && labelTaken(store, label, exceptId))
    fail(`Label "${label}" is already used by another instance; choose a unique label`, 'label', conflictStatus(store));
  return label;
}

/** Labels take any letter or digit (labels-unicode-alphanumerics; default-label-unicode gives such labels itself). */
const unicodeLabels = (store: Store) => varied(store, 'labels-unicode-alphanumerics') || varied(store, 'default-label-unicode');

function labelTaken(store: Store, label: string, exceptId: number | null): boolean {
  const owner = labels(store).get(label.toLowerCase());
  return owner !== undefined && owner !== exceptId;
}

export function defaultLabel(store: Store, region: string, id: number): string {
  // Under the variations: a default at the edge of the 3..64 characters, in another format; one with a non-ASCII letter.
  let label = faulty(store, 'P2.instance.label.default-assigned')
    ? `${region}--${id}`
    : varied(store, 'default-label-64')
      ? `instance-${String(id).padStart(55, '0')}`
      : varied(store, 'default-label-unicode')
        ? `nœud-${id}`
        : `${region}-${id}`;
  for (let n = 2; labelTaken(store, label, null); n++) label = `${region}-${id}-${n}`;
  return label;
}

export function regionOf(store: Store, o: Record<string, unknown>, key = 'region'): Region {
  const id = reqString(o, key);
  const region = store.regions.find((r) => r.id === id);
  if (!region) fail(`Unknown region "${id}"; use one of ${store.regions.map((r) => r.id).join(', ')}`, key);
  return region;
}

export function typeOf(store: Store, o: Record<string, unknown>, key = 'type'): InstanceType {
  const id = reqString(o, key);
  const type = store.instanceTypes.find((t) => t.id === id);
  if (!type) fail(`Unknown instance type "${id}"; use one of ${store.instanceTypes.map((t) => t.id).join(', ')}`, key);
  return type;
}

export function intList(o: Record<string, unknown>, key: string, opts: { path?: string } = {}): number[] | undefined {
  const arr = optArray(o, key, opts);
  if (arr === undefined || arr === null) return undefined;
  const field = opts.path ? `${opts.path}.${key}` : key;
  return arr.map((v, i) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) fail('Must be an integer ID', `${field}.${i}`);
    return v;
  });
}

/**

/**
 * Root password strength (the document's "internally calculated strength score"): at least three of the four
 * character classes lower case, upper case, digit, other.
 */
export function passwordIsStrong(p: string): boolean {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(p)).length >= 3;
}

/** The reason a weak root password is refused with: the documents' words, others saying the same (a variation), or none of it (a fault). */
function weakPasswordReason(store: Store): string {
  if (faulty(store, 'P1.errors.reason.weak-password')) return 'root_pass is invalid.';
  if (varied(store, 'weak-password-worded-otherwise')) return 'Password is too weak: use a longer one with more kinds of characters.';
  if (varied(store, 'weak-password-worded-complexity')) return 'Password does not meet the complexity requirements.';
  return 'Root password does not meet the strength requirement: use at least three of lower case letters, upper case letters, digits and symbols';
}

export function rootPass(store: Store, o: Record<string, unknown>, required: boolean): string | undefined {
  const bounds = { min: faulty(store, 'P2.instance-create.root-pass.min-7') ? 1 : 7, max: faulty(store, 'P2.instance-create.root-pass.max-128') ? 256 : 128 };
  const pass =
    required && !faulty(store, 'P2.instance-create.root-pass.required-with-image') ? reqString(o, 'root_pass', bounds) : optString(o, 'root_pass', bounds);
  if (
    pass !== undefined &&
    !(varied(store, 'password-length-policy') && pass.length >= 10) &&
    !(passwordIsStrong(pass) && !(varied(store, 'password-score-long') && pass.length < 20)) &&
    !faulty(store, 'P2.instance-create.root-pass.strength')
  ) {
    fail(weakPasswordReason(store), 'root_pass');
  }
  return pass;
}

/** Refuses a principal without the add_computes grant (no grant gates anything under the fault of P1.auth.grants.gate). */
export function requireAddComputes(store: Store, p: Principal | null): void {
  if (!hasGlobalGrant(p, 'add_computes') && !faulty(store, 'P1.auth.grants.gate'))
    fail('You need the add_computes grant to create compute instances', null, 403);
}
