// Request-body validation helpers. Each throws ApiError(400, reason, field) where `field` is the dot path of the
// member at fault (`rules.inbound.3.ports`); `opts.path` is the dot path of the object being read.
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Store } from './store.js';
import { ApiError, type RequestContext } from './types.js';
import { varied } from '../variations/index.js';

export interface StringOpts {
  min?: number;
  max?: number;
  pattern?: RegExp;
  /** Reason used when `pattern` does not match (default: a generic "does not have the required format"). */
  patternReason?: string;
  enum?: readonly string[];
  nullable?: boolean;
  path?: string;
}

export interface IntOpts {
  min?: number;
  max?: number;
  enum?: readonly number[];
  nullable?: boolean;
  path?: string;
}

export interface ArrayOpts {
  min?: number;
  max?: number;
  nullable?: boolean;
  path?: string;
}

export interface PathOpts {
  nullable?: boolean;
  path?: string;
}

export function fail(reason: string, field: string | null = null, status = 400): never {
  throw new ApiError(status, reason, field);
}

/** `path.key`, or `key` at the top level. */
export function fieldPath(path: string | undefined | null, key: string | number): string {
  return path ? `${path}.${key}` : String(key);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

export function asObject(value: unknown, field: string | null = null): Record<string, unknown> {
  if (!isPlainObject(value)) {
    fail(field ? `${field} must be a JSON object.` : 'The request body must be a JSON object.', field);
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Variations of how a request is read, for the request being handled (set by the server before each handler runs; the
 * readers below have no store). lenient-scalars: null for a member that takes none is read as absent, a number or a
 * boolean as its text, a string of digits as the integer and "true" / "false" as the boolean. enums-any-case: an enum
 * string is matched whatever its letter case and read as the listed spelling. lenient-arrays: a string, number or
 * boolean given for an array is read as an array of that one item. blank-optional-absent: "" for an optional string
 * member that cannot be empty is read as absent.
 */
const readings = { lenientScalars: false, enumsAnyCase: false, lenientArrays: false, blankOptionalAbsent: false };

export function readRequestsWith(choices: typeof readings): void {
  Object.assign(readings, choices);
}

/**
 * An IPv4 address as a request writes it: a dotted quad, or under ipv4-loose-forms also a classic inet_aton form
 * (1.2.3, 01.2.3.4, 0x7f.1) that many address parsers take.
 */
export function isIpv4Text(store: Store, s: string): boolean {
  return isIPv4(s) || (varied(store, 'ipv4-loose-forms') && ipaddr.IPv4.isValid(s));
}

/** Reads o[key]: undefined when absent; null when null and allowed; otherwise hands it to `check`. */
function read<T>(
  o: Record<string, unknown>,
  key: string,
  opts: { nullable?: boolean; path?: string } | undefined,
  required: boolean,
  what: string,
  check: (v: unknown, field: string) => T,
): T | null | undefined {
  const field = fieldPath(opts?.path, key);
  let v = Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
  if (v === null && readings.lenientScalars && !opts?.nullable) v = undefined;
  if (v === undefined) {
    if (required) fail(`${field} is required.`, field);
    return undefined;
  }
  if (v === null) {
    if (opts?.nullable) return null;
    fail(`${field} must be ${what}, not null.`, field);
  }
  return check(v, field);
}

function checkString(v: unknown, field: string, opts: StringOpts | undefined): string {
  if (readings.lenientScalars && (typeof v === 'number' || typeof v === 'boolean')) v = String(v);
  if (typeof v !== 'string') fail(`${field} must be a string, not ${describe(v)}.`, field);
  const text = opts?.enum && readings.enumsAnyCase ? listedSpelling(opts.enum, v) : v;
  if (opts?.enum && !opts.enum.includes(text)) fail(`${field} must be one of: ${opts.enum.join(', ')}.`, field);
  const len = opts?.min !== undefined || opts?.max !== undefined ? codePoints(text) : 0;
  if (opts?.min !== undefined && len < opts.min) {
    fail(`${field} must be at least ${opts.min} character${opts.min === 1 ? '' : 's'} long.`, field);
  }
  if (opts?.max !== undefined && len > opts.max) fail(`${field} must be at most ${opts.max} characters long.`, field);
  if (opts?.pattern && !opts.pattern.test(text)) {
    fail(opts.patternReason ?? `${field} does not have the required format.`, field);
  }
  return text;
}

function takesBlank(opts: StringOpts | undefined): boolean {
  try {
    checkString('', '', opts);
    return true;
  } catch {
    return false;
  }
}

/** The enum value `v` is in another letter case, or `v` itself. */
function listedSpelling(listed: readonly string[], v: string): string {
  return listed.find((value) => value.toLowerCase() === v.toLowerCase()) ?? v;
}

/** Length in Unicode code points (what a person counts as characters), not UTF-16 units. */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function checkInt(v: unknown, field: string, opts: IntOpts | undefined): number {
  if (readings.lenientScalars && typeof v === 'string' && /^-?\d{1,15}$/.test(v)) v = Number(v);
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(`${field} must be an integer, not ${describe(v)}.`, field);
  if (!Number.isSafeInteger(v)) fail(`${field} is out of range.`, field);
  if (opts?.enum && !opts.enum.includes(v)) fail(`${field} must be one of: ${opts.enum.join(', ')}.`, field);
  if (opts?.min !== undefined && v < opts.min) fail(`${field} must be at least ${opts.min}.`, field);
  if (opts?.max !== undefined && v > opts.max) fail(`${field} must be at most ${opts.max}.`, field);
  return v;
}

function checkArray(v: unknown, field: string, opts: ArrayOpts | undefined): unknown[] {
  if (readings.lenientArrays && ['string', 'number', 'boolean'].includes(typeof v)) v = [v];
  if (!Array.isArray(v)) fail(`${field} must be an array, not ${describe(v)}.`, field);
  if (opts?.min !== undefined && v.length < opts.min) {
    fail(`${field} must have at least ${opts.min} item${opts.min === 1 ? '' : 's'}.`, field);
  }
  if (opts?.max !== undefined && v.length > opts.max) fail(`${field} must have at most ${opts.max} items.`, field);
  return v;
}

type Nullable<O, T> = O extends { nullable: true } ? T | null : O extends { nullable: boolean } ? T | null : T;

export function optString<O extends StringOpts>(o: Record<string, unknown>, key: string, opts?: O): Nullable<O, string> | undefined {
  if (readings.blankOptionalAbsent && o[key] === '' && !takesBlank(opts)) return undefined;
  return read(o, key, opts, false, 'a string', (v, f) => checkString(v, f, opts)) as Nullable<O, string> | undefined;
}

export function reqString<O extends StringOpts>(o: Record<string, unknown>, key: string, opts?: O): Nullable<O, string> {
  return read(o, key, opts, true, 'a string', (v, f) => checkString(v, f, opts)) as Nullable<O, string>;
}

export function optInt<O extends IntOpts>(o: Record<string, unknown>, key: string, opts?: O): Nullable<O, number> | undefined {
  return read(o, key, opts, false, 'an integer', (v, f) => checkInt(v, f, opts)) as Nullable<O, number> | undefined;
}

export function reqInt<O extends IntOpts>(o: Record<string, unknown>, key: string, opts?: O): Nullable<O, number> {
  return read(o, key, opts, true, 'an integer', (v, f) => checkInt(v, f, opts)) as Nullable<O, number>;
}

function checkBool(v: unknown, field: string): boolean {
  if (readings.lenientScalars && (v === 'true' || v === 'false')) v = v === 'true';
  if (typeof v !== 'boolean') fail(`${field} must be true or false, not ${describe(v)}.`, field);
  return v;
}

export function optBool<O extends PathOpts>(o: Record<string, unknown>, key: string, opts?: O): Nullable<O, boolean> | undefined {
  return read(o, key, opts, false, 'a boolean', checkBool) as Nullable<O, boolean> | undefined;
}

export function reqBool<O extends PathOpts>(o: Record<string, unknown>, key: string, opts?: O): Nullable<O, boolean> {
  return read(o, key, opts, true, 'a boolean', checkBool) as Nullable<O, boolean>;
}

export function optArray<O extends ArrayOpts>(o: Record<string, unknown>, key: string, opts?: O): Nullable<O, unknown[]> | undefined {
  return read(o, key, opts, false, 'an array', (v, f) => checkArray(v, f, opts)) as Nullable<O, unknown[]> | undefined;
}

export function reqArray<O extends ArrayOpts>(o: Record<string, unknown>, key: string, opts?: O): Nullable<O, unknown[]> {
  return read(o, key, opts, true, 'an array', (v, f) => checkArray(v, f, opts)) as Nullable<O, unknown[]>;
}

function checkObject(v: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(v)) fail(`${field} must be a JSON object, not ${describe(v)}.`, field);
  return v;
}

export function optObject<O extends PathOpts>(o: Record<string, unknown>, key: string, opts?: O): Nullable<O, Record<string, unknown>> | undefined {
  return read(o, key, opts, false, 'an object', checkObject) as Nullable<O, Record<string, unknown>> | undefined;
}

export function reqObject<O extends PathOpts>(o: Record<string, unknown>, key: string, opts?: O): Nullable<O, Record<string, unknown>> {
  return read(o, key, opts, true, 'an object', checkObject) as Nullable<O, Record<string, unknown>>;
}

/**
 * A `tags` member: strings of 3..50 characters (the tag label limits), duplicates removed. Document 2 reserves
 * instance tags to unrestricted users (`unrestrictedOnly`: 403 otherwise); other kinds say nothing.
 */
export function tagList(ctx: RequestContext, o: Record<string, unknown>, opts: { unrestrictedOnly?: boolean } = {}): string[] | undefined {
  const key = 'tags';
  const arr = optArray(o, key);
  if (arr === undefined) return undefined;
  if (opts.unrestrictedOnly && ctx.principal?.restricted) fail('Only unrestricted users may add or modify tags', key, 403);
  const out: string[] = [];
  arr.forEach((v, i) => {
    if (typeof v !== 'string' || codePoints(v) < 3 || codePoints(v) > 50) fail('Each tag must be a string of 3..50 characters', `${key}.${i}`);
    const normalised = varied(ctx.store, 'tags-normalised');
    if (normalised && !/^[A-Za-z0-9 ._:-]+$/.test(v)) fail('A tag may hold letters, digits, spaces and . _ : - only', `${key}.${i}`);
    const tag = normalised ? v.toLowerCase() : v;
    if (!out.includes(tag)) out.push(tag);
  });
  return out;
}
