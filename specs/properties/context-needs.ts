// What each document's generated bodies name on the target (BodyContext), made or found before its property file's
// first check. A file makes only what its bodies name: an instance backup, a snapshot on a real server that may take
// minutes, is made for the compute bodies that restore or deploy one, not for the domain, firewall or account bodies,
// whose checks then do not wait on it or fail with it.
import { SAMPLE_CONTEXT } from '../../arbitraries/context.js';
import type { BodyContext } from '../../arbitraries/types.js';
import type { Endpoint } from '../../rules/endpoints.js';

interface ContextNeeds {
  /** The file's instances (`computeIds`, `ipv4s`, the first one's `slaac`): one, or a pair (an assignment swaps two). */
  instances?: 1 | 2;
  /** A configuration profile and the disk it boots from, of the first instance (`configId`, `diskId`). */
  profile?: true;
  /** A backup of the first instance (`backupId`). */
  backup?: true;
  /** An available public image (`publicImage`). */
  publicImage?: true;
  /** A MySQL engine and a node type for it (`databaseEngine`, `databaseNodeType`). */
  database?: true;
  /** A domain of the file's (`domainId`). */
  domain?: true;
}

/** The members of the context each need makes; the run's configuration and the label prefix are always there. */
export const MEMBERS_MADE: { [need in keyof ContextNeeds]-?: Array<keyof BodyContext> } & { always: Array<keyof BodyContext> } = {
  always: ['region', 'vlanRegion', 'instanceType', 'largerInstanceType', 'labelPrefix'],
  instances: ['computeIds', 'ipv4s', 'slaac'],
  profile: ['configId', 'diskId'],
  backup: ['backupId'],
  publicImage: ['publicImage'],
  database: ['databaseEngine', 'databaseNodeType'],
  domain: ['domainId'],
};

/** By document: what its property file (`specs/properties/<document>.spec.ts`) makes for its bodies. */
export const CONTEXT_NEEDS: Record<Endpoint['document'], ContextNeeds> = {
  // entity transfers name an instance; cluster creates an engine and a node type
  part1: { instances: 1, database: true },
  // creates deploy an image or a backup, clones and boots name profiles and disks, tags name instances and a domain
  part2: { instances: 2, profile: true, backup: true, publicImage: true, domain: true },
  // firewall devices and IP assignments name the pair of instances and their addresses
  part3: { instances: 2 },
};

/** Where `madeOnly`'s context answers with what its file could not make (`throwIfUnmade`). */
const UNMADE = Symbol('members the file could not make');

/**
 * `context` as a document's generators see it: reading a member its file does not make throws, naming what to add;
 * reading one its file could not make (`unmade`: what making it threw) throws that again, so that only the checks
 * whose bodies name it skip or report it (`holds` tells a generator it is not there).
 */
export function madeOnly(
  context: Partial<BodyContext>,
  document: Endpoint['document'],
  unmade: ReadonlyMap<keyof BodyContext, unknown> = new Map(),
): BodyContext {
  return new Proxy(context as BodyContext, {
    get(target, member, receiver) {
      if (member === UNMADE) return unmade;
      if (unmade.has(member as keyof BodyContext)) throw unmade.get(member as keyof BodyContext);
      if (typeof member === 'string' && member in SAMPLE_CONTEXT && !(member in target))
        throw new Error(`specs/properties/${document}.spec.ts makes no ${member} for its bodies: add it to CONTEXT_NEEDS in specs/properties/context-needs.ts`);
      return Reflect.get(target, member, receiver) as unknown;
    },
    has: (target, member) => !unmade.has(member as keyof BodyContext) && Reflect.has(target, member),
  });
}

/** Throws what making a member of `context` threw, if any did not get made (`madeOnly`): a body may lack a member for it. */
export function throwIfUnmade(context: BodyContext): void {
  const unmade = (context as unknown as Record<typeof UNMADE, ReadonlyMap<keyof BodyContext, unknown> | undefined>)[UNMADE];
  const [first] = unmade?.values() ?? [];
  if (first !== undefined) throw first;
}
