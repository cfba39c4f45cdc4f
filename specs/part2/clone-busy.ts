// An instance busy with running clones under every reading of document 2, for the checks of what its running actions
// refuse (a resize; a clone onto it).
import { type Check } from '../../harness/check.js';
import { describeExchange } from '../../harness/error-bodies.js';
import { onceNotBusy } from '../../harness/consistency.js';
import { SetupError, type Fixtures } from '../../harness/fixtures.js';
import { cloneToNew, deployedProfiles, INSTANCES, newInstance, ok } from './compute-support.js';

/**
 * Sets a new instance cloning both ways: whether a running clone is an action of its source, of its target, or of both
 * is not shown (Clone body: "compute_id | … existing target instance; must have enough resources; its running or
 * queued actions must complete first"; "At most 5 clone operations from one source run concurrently"; Resize
 * preconditions: "no running or queued actions"), so it is the target of one and the source of another. It is made
 * without disks (`extra`: more of its create body); an instance deployed from an image, of the same type, is cloned
 * onto it, every disk (they fit a target of its type without disks: "must have enough resources"), once its profiles
 * show (`deployedProfiles`), sent again while either may still be busy with its create; then it is cloned to a new
 * instance, once. A refused clone from it (a server may take a running clone onto it for an action of its own) skips:
 * it would be busy under one reading only. Returns its id and the sources of the two clones (`whileCloning`'s `cloning`).
 */
export async function cloningBothWays(c: Check, fx: Fixtures, extra: Record<string, unknown> = {}): Promise<{ id: number; cloning: number[] }> {
  const busy = await newInstance(c, fx, extra);
  const feeder = await newInstance(c, fx, { image: true, ...(typeof extra.type === 'string' ? { type: extra.type } : {}) });
  await deployedProfiles(c, feeder.id);
  const onto = await onceNotBusy(c, () => c.post(`${INSTANCES}/${feeder.id}/clone`, { compute_id: busy.id }));
  if (!ok(onto)) throw new SetupError(`could not clone instance ${feeder.id} onto instance ${busy.id} (same type, no disks): ${describeExchange(onto)}`);
  const from = await cloneToNew(c, fx, busy.id, {}, { once: true });
  if (!ok(from.exchange))
    c.skip(
      `a clone from instance ${busy.id}, sent while a clone onto it ran, was refused (${describeExchange(from.exchange)}): it is busy as a clone's target only, which not every reading makes an action of it`,
    );
  return { id: busy.id, cloning: [feeder.id, busy.id] };
}
