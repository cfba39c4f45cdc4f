// Document 1, "Maintenance": what tells a maintenance entity is (or was) a compute instance. "Only compute instances
// appear as entities", but neither the values of `status` nor whether a record leaves the list once its maintenance is
// done, or once its instance is deleted, is shown: an entity whose instance view answers gone may be an instance
// deleted since. Its entity is judged by what it names (its url a path of the documents, its type the one the
// service's own instance entities carry), never by a value the documents do not give.
import type { Check } from '../../harness/check.js';
import type { Exchange } from '../../harness/http.js';
import { readPage } from '../../harness/pages.js';
import { answersGone } from '../../harness/resources.js';
import { findEndpoint } from '../../harness/responses.js';
import { succeeded as ok } from '../../harness/lists.js';

type Json = Record<string, unknown>;

const bodyOf = (exchange: Exchange): Json =>
  exchange.body && typeof exchange.body === 'object' && !Array.isArray(exchange.body) ? (exchange.body as Json) : {};
export const entityOf = (item: Json): Json => (item.entity && typeof item.entity === 'object' ? (item.entity as Json) : {});

/** The documents' compute instance paths (GET /v4/compute/instances/{computeId} and what is under it). */
const INSTANCES = '/v4/compute/instances';

export interface MaintenanceEntity {
  entity: Json;
  /** The instance view of its id. */
  view: Exchange;
}

/** Each listed item's entity with its instance view (one GET per distinct id). */
export async function withInstanceViews(c: Check, items: Json[]): Promise<MaintenanceEntity[]> {
  const views = new Map<string, Exchange>();
  const out: MaintenanceEntity[] = [];
  for (const item of items) {
    const entity = entityOf(item);
    const id = String(entity.id);
    let view = views.get(id);
    if (!view) views.set(id, (view = await c.get(`${INSTANCES}/${encodeURIComponent(id)}`)));
    out.push({ entity, view });
  }
  return out;
}

/** Whether an entity's instance view answers 2xx and its url names no other kind: an instance that exists now. */
const instanceNow = ({ entity, view }: MaintenanceEntity): boolean => ok(view) && !otherKindNamedBy(entity.url);

/** The ids of the listed instances that exist now, in the list's order. */
export const viewableIds = (entities: MaintenanceEntity[]): string[] => [...new Set(entities.filter(instanceNow).map(({ entity }) => String(entity.id)))];

/**
 * The documented GET endpoint (its path) an entity's url names when that is a path of the documents outside the
 * compute instances' (a MySQL cluster's, a volume's): the entity is of another kind. Undefined for a url naming no
 * documented path (one of another site, a dashboard's), which tells nothing.
 */
function otherKindNamedBy(url: unknown): string | undefined {
  if (typeof url !== 'string' || url === '') return undefined;
  let path: string;
  try {
    path = new URL(url, 'http://target.invalid/').pathname;
  } catch {
    return undefined;
  }
  const endpoint = findEndpoint(`GET ${path}`);
  return endpoint && !endpoint.path.startsWith(INSTANCES) ? endpoint.path : undefined;
}

/** Whether an event's action is the create or the delete of a compute instance: its entity is that instance. */
const INSTANCE_EVENT = new Set(['compute_create', 'compute_delete']);

/**
 * The `type` values the service's own compute instance entities carry: those of the maintenance entities whose
 * instance view answers 2xx (their url naming no other kind), else those of the events of an instance's create or
 * delete on the first and last pages of the events list (its order is not shown). Empty when neither shows one.
 */
export async function instanceEntityTypes(c: Check, entities: MaintenanceEntity[]): Promise<Set<unknown>> {
  const types = new Set(entities.filter(instanceNow).map(({ entity }) => entity.type));
  if (types.size) return types;
  const first = bodyOf(await readPage(c, '/v4/account/events', 1));
  const pages = typeof first.pages === 'number' ? first.pages : 1;
  const data = [...((first.data as Json[] | undefined) ?? [])];
  if (pages > 1) data.push(...((bodyOf(await readPage(c, '/v4/account/events', pages)).data as Json[] | undefined) ?? []));
  for (const event of data) if (INSTANCE_EVENT.has(String(event.action)) && entityOf(event).type !== undefined) types.add(entityOf(event).type);
  return types;
}

/**
 * Why a maintenance entity is not a compute instance, or undefined where nothing shows it: its url names another
 * kind's path (whatever its id's instance view answers: a cluster's id may be an instance's too), its instance view
 * answers neither 2xx nor gone, or (gone: perhaps an instance deleted since) its type is none of `instanceTypes` (when
 * the service showed any). `unjudged` is called for a gone entity nothing tells of. `absent`: what the target answers
 * for an id never made (`answersGone`), gone too.
 */
export function notAnInstance({ entity, view }: MaintenanceEntity, instanceTypes: Set<unknown>, unjudged: () => void, absent?: number): string | undefined {
  const viewed = `GET ${INSTANCES}/${String(entity.id)} answered ${view.status}`;
  const other = otherKindNamedBy(entity.url);
  if (other) return `its url names ${other}, a path of another kind (${viewed})`;
  if (ok(view)) return undefined;
  if (!answersGone(view, absent)) return viewed;
  if (instanceTypes.size && !instanceTypes.has(entity.type))
    return `${viewed}, and its type ${JSON.stringify(entity.type)} is none the target's compute instance entities carry (${[...instanceTypes].map((t) => JSON.stringify(t)).join(', ')})`;
  if (!instanceTypes.size) unjudged();
  return undefined;
}
