// How a valid request's create is adopted (tracked for deletion): by the member of its body that tells the resource made
// (what a create answers is mostly not shown: its answer's id is taken only when the answer is that resource).
import { succeeded } from '../../harness/lists.js';
import type { ResourceKind } from '../../harness/resources.js';
import { addressesOf, RANGES, routeTargetOf } from '../part3/ip-addresses-support.js';
import type { Recipe } from './valid-requests.js';

type Json = Record<string, unknown>;
type Adopt = NonNullable<Recipe['adopt']>;

/**
 * Adopts what a create under a parent made (records, profiles, devices): listed under the request path,
 * `/…/{parent}/<children>`; `isIt` tells a response that is the resource made when the resource does not show `key`
 * (a firewall device shows no id sent).
 */
export function adoptChild(kind: ResourceKind, key: string, isIt?: (body: Json) => boolean): Adopt {
  return (c, fx, request, exchange) => {
    const wanted = (request.json as Json | undefined)?.[key];
    const parent = decodeURIComponent(request.path.split('/').at(-2)!);
    return fx.adopt(c, exchange, { kind, list: request.path, parent, ...matching(key, wanted), ...(isIt ? { isIt } : {}) });
  };
}

/** Adopts what a create made, found by `key` of the request body in `list`. */
export function adoptBy(kind: ResourceKind, list: string, key: string, idKey = 'id'): Adopt {
  return (c, fx, request, exchange) => {
    const wanted = (request.json as Json | undefined)?.[key];
    return fx.adopt(c, exchange, { kind, list, idKey, ...matching(key, wanted) });
  };
}

/**
 * The resource a create made is told by the member `key` it was sent with, as sent; nothing to tell it by when the
 * request did not send it.
 */
const matching = (key: string, wanted: unknown) => (wanted === undefined ? {} : { match: (item: Json) => shows(item[key], wanted) });

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
 * Adopts the IPv6 range a create made: its answer's `range` when it shows one, else the listed range routing to the
 * address the request named (`route_target`) or to the instance's SLAAC address (`compute_id`): a range is not said to
 * show the instance it was made for.
 */
export const adoptRange: Adopt = async (c, fx, request, exchange) => {
  const sent = (request.json ?? {}) as Json;
  const answered = typeof (exchange.body as Json | undefined)?.range === 'string';
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
