// How a valid request's create is adopted (tracked for deletion): by the member of its body that tells the resource made
// (what a create answers is mostly not shown: its answer's id is taken only when the answer is that resource).
import type { ResourceKind } from '../../harness/resources.js';
import type { Recipe } from './valid-requests.js';

type Json = Record<string, unknown>;
type Adopt = NonNullable<Recipe['adopt']>;

/**
 * Adopts what a create under a parent made (records, profiles, devices): listed under the request path,
 * `/…/{parent}/<children>`; `isIt` as for `adoptBy`.
 */
export function adoptChild(kind: ResourceKind, key: string, isIt?: (body: Json) => boolean): Adopt {
  return (c, fx, request, exchange) => {
    const wanted = (request.json as Json | undefined)?.[key];
    const parent = decodeURIComponent(request.path.split('/').at(-2)!);
    return fx.adopt(c, exchange, { kind, list: request.path, parent, ...matching(key, wanted), ...(isIt ? { isIt } : {}) });
  };
}

/**
 * Adopts what a create made, found by `key` of the request body in `list`; `isIt` tells a response that is the
 * resource made when the resource does not show `key` (an IPv6 range shows no compute_id).
 */
export function adoptBy(kind: ResourceKind, list: string, key: string, idKey = 'id', isIt?: (body: Json) => boolean): Adopt {
  return (c, fx, request, exchange) => {
    const wanted = (request.json as Json | undefined)?.[key];
    return fx.adopt(c, exchange, { kind, list, idKey, ...matching(key, wanted), ...(isIt ? { isIt } : {}) });
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
