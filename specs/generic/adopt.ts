// How a valid request's create is adopted (tracked for deletion): by the member of its body that tells the resource made
// (what a create answers is mostly not shown: its answer's id is taken only when the answer is that resource).
import { rangeMadeBy } from '../../harness/account-limits.js';
import { noteDeviceAdd, showsDeviceOf } from '../../harness/devices.js';
import { sameDomainName } from '../../harness/domain-names.js';
import { succeeded } from '../../harness/lists.js';
import type { ResourceKind } from '../../harness/resources.js';
import { addressesOf, RANGES, routeTargetOf } from '../part3/ip-addresses-support.js';
import type { Recipe } from './valid-requests.js';

type Json = Record<string, unknown>;
type Adopt = NonNullable<Recipe['adopt']>;

/**
 * How a create's answer is told to be the resource made, beside showing `key` as sent. `answersIt`: the documents show
 * the create answering the resource (a cluster, an OAuth client, a transfer, an upload, a tag), so its id is the
 * resource's; `isIt`: an answer that is the resource whatever it shows; `shows`, members of the request an answer that
 * is the resource shows as sent (a job shows none: an instance's region and type, a record's type); `byForm`, when
 * `key` was not sent, an answer that is the resource by its form; `same`, whether `key` as shown is the value sent,
 * where one value may be written several ways (a domain's name: `sameDomainName`). Nothing else tells it: a job's id
 * is no resource's.
 */
interface Telling {
  answersIt?: true;
  same?: (shown: unknown, sent: unknown) => boolean;
  isIt?: (body: Json) => boolean;
  shows?: string[];
  byForm?: (body: Json) => boolean;
}

/**
 * Adopts what a create under a parent made (records, profiles, devices): listed under the request path,
 * `/…/{parent}/<children>`; `isIt` tells a response that is the resource made when the resource does not show `key`
 * (a firewall device shows no id sent).
 */
export function adoptChild(kind: ResourceKind, key: string, telling: Telling = {}): Adopt {
  return (c, fx, request, exchange) => {
    const parent = decodeURIComponent(request.path.split('/').at(-2)!);
    return fx.adopt(c, exchange, { kind, list: request.path, parent, ...matching(key, (request.json ?? {}) as Json, telling) });
  };
}

/** Adopts what a create made, found by `key` of the request body in `list`. */
export function adoptBy(kind: ResourceKind, list: string, key: string, idKey = 'id', telling: Telling = {}): Adopt {
  return (c, fx, request, exchange) => fx.adopt(c, exchange, { kind, list, idKey, ...matching(key, (request.json ?? {}) as Json, telling) });
}

/**
 * A firewall device (what its add answers is not shown: the firewall, say): the answer's id where the answer is the
 * instance's device, else the listed device's (`harness/devices.ts`: as every reading of a device agrees).
 */
export const adoptDevice: Adopt = async (c, fx, request, exchange) => {
  const [parent, instanceId] = [request.path.split('/').at(-2)!, (request.json as Json | undefined)?.id];
  await noteDeviceAdd(c, parent, instanceId, exchange);
  const shows = showsDeviceOf(c, parent, instanceId);
  return fx.adopt(c, exchange, { kind: 'firewall-device', list: request.path, parent, isIt: shows, match: shows });
};

/** An instance is told by the label sent, else by the region and type sent shown in the answer (a clone's or create's job shows neither). */
export const adoptInstance = adoptBy('instance', '/v4/compute/instances', 'label', 'id', { shows: ['region', 'type'] });

/** A domain (a create, an import, a clone): told by the name sent, case and a final period aside. */
export const adoptDomain = adoptBy('domain', '/v4/domains', 'domain', 'id', { same: sameDomainName });

/** A tag: its create answers `{label}`. */
export const adoptTag = adoptBy('tag', '/v4/tags', 'label', 'label', { answersIt: true });

/** A captured image is told by the label sent, else by its id's form (a private image's begins with `private/`; a job's would not). */
export const adoptCapture = adoptBy('image', '/v4/images', 'label', 'id', { byForm: (body) => typeof body.id === 'string' && body.id.startsWith('private/') });

/**
 * The resource a create made is told by the member `key` it was sent with, as sent (and its label or a domain's name
 * kept for the clean-up); without it, by what `telling` says of the answer alone.
 */
function matching(key: string, sent: Json, { answersIt, isIt, shows: members, byForm, same = shows }: Telling) {
  const wanted = sent[key];
  const match = wanted === undefined ? undefined : (item: Json) => same(item[key], wanted);
  const showsSent = (body: Json) => !!members?.every((member) => sent[member] !== undefined && shows(body[member], sent[member]));
  const told = (body: Json) => !!match?.(body) || showsSent(body) || (wanted === undefined && !!byForm?.(body));
  return {
    ...(answersIt ? { answersIt } : {}),
    ...(match ? { match } : {}),
    ...((key === 'label' || key === 'domain') && typeof wanted === 'string' ? { label: wanted } : {}),
    ...(isIt || match || members || byForm ? { isIt: isIt ?? told } : {}),
  };
}

/**
 * Whether `shown` is what was `sent`: the same scalar, an array of as many items each shown in any order, an object
 * showing each member sent (a transfer's entities; members the documents do not show may come with them).
 */
function shows(shown: unknown, sent: unknown): boolean {
  if (Array.isArray(sent)) return Array.isArray(shown) && shown.length === sent.length && sent.every((item) => shown.some((one) => shows(one, item)));
  if (sent !== null && typeof sent === 'object')
    return (
      shown !== null &&
      typeof shown === 'object' &&
      !Array.isArray(shown) &&
      Object.entries(sent).every(([member, value]) => shows((shown as Json)[member], value))
    );
  return shown === sent;
}

/**
 * Adopts the IPv6 range a create made: its answer's `range` when it shows one, else the range the create was found to
 * make (`createRangeFound`, the recipe's `sentAgain`), else the listed range routing to the address the request named
 * (`route_target`) or to the instance's SLAAC address (`compute_id`): a range is not said to show the instance it was
 * made for.
 */
export const adoptRange: Adopt = async (c, fx, request, exchange) => {
  const sent = (request.json ?? {}) as Json;
  const answered = typeof (exchange.body as Json | undefined)?.range === 'string';
  const made = rangeMadeBy(exchange);
  if (!answered && made) return fx.adopt(c, exchange, { kind: 'ipv6-range', list: RANGES, idKey: 'range', match: made });
  const routedTo =
    answered || !succeeded(exchange)
      ? undefined
      : typeof sent.route_target === 'string'
        ? routeTargetOf(sent)
        : typeof sent.compute_id === 'number'
          ? ((await addressesOf(c, sent.compute_id)).slaac ?? undefined)
          : undefined;
  const match = routedTo ? { match: (item: Json) => routeTargetOf(item) === routedTo } : {};
  return fx.adopt(c, exchange, { kind: 'ipv6-range', list: RANGES, idKey: 'range', isIt: (body) => typeof body.range === 'string', ...match });
};
