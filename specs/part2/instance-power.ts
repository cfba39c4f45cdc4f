// An instance's power state as the file last left it: shut down, or at rest (no action of its own running). Status
// values are not shown, so what the file sent is what it knows: a shutdown it sent, a short time let run (a window on
// a target without the clock hook), and whether any write was accepted since (`writesNotRefusedSoFar`).
import type { Check } from '../../harness/check.js';
import { letShortlyRun, onceNotBusy, readAfterWrite } from '../../harness/consistency.js';
import { writesNotRefusedSoFar, type Exchange } from '../../harness/http.js';
import { succeeded as ok } from '../../harness/lists.js';
import { onTarget } from '../../harness/target-key.js';

export const INSTANCES = '/v4/compute/instances';

/**
 * What the file last did to each instance (shut it down, or put it at rest), with the thread's
 * `writesNotRefusedSoFar()` then: while that count stands, every write the file sent since was refused, and an
 * instance of the file is acted on by no other file (its fixtures are its own), so it is still so. On a target without
 * the clock hook this spares the violation checks of one endpoint (boot, rescue: one per rule broken) two consistency
 * windows each after the first, and a shutdown of an instance already offline a minute of sending it again.
 */
const lastDone = new Map<string, { state: 'shut down' | 'at rest'; count: number }>();
const stateOf = (c: Check, id: number) => {
  const done = lastDone.get(onTarget(c, id));
  return done?.count === writesNotRefusedSoFar() ? done.state : undefined;
};
const noteState = (c: Check, id: number, state: 'shut down' | 'at rest') => void lastDone.set(onTarget(c, id), { state, count: writesNotRefusedSoFar() });

/**
 * Shuts an instance down so that the next boot starts from offline: booting a running or booting instance is not
 * covered by the documents. "Running or queued actions must finish first": a refused shutdown is sent again while the
 * instance may be busy (`onceNotBusy`) and within the consistency window, unless nothing was accepted since the file
 * last shut it down or put it at rest (`lastDone`): it is then offline or shutting down, and a refusal says so. One
 * still refused is left so: what a shutdown of an instance already offline answers is not shown, and the action that
 * follows is judged on its own.
 * `minutes`: how long the instance may stay busy (the target's clock; a clone from it may run far longer than its own
 * actions: see `CLONE_BUSY_MINUTES`).
 */
export async function shutDown(c: Check, id: number, minutes?: number): Promise<void> {
  const send = () => c.post(`${INSTANCES}/${id}/shutdown`);
  const known = stateOf(c, id);
  // Nothing the file sent since its last shutdown of the instance, or since it put it at rest, was accepted: the
  // instance is offline, or shutting down. A refusal then says so (sending it again would wait out a minute for an
  // instance already offline), and a short time lets a shutdown under way finish.
  if (known) {
    if (ok(await send())) return noteState(c, id, 'shut down');
    if (known === 'shut down') await letShortlyRun(c);
    return noteState(c, id, 'at rest');
  }
  if (ok(await readAfterWrite(c, () => onceNotBusy(c, send, { minutes }), ok))) noteState(c, id, 'shut down');
}

/**
 * Sends once, and returns, a request the check expects refused for what instances hold (their disks against a type's
 * allocation, a target's free space, a profile it names), with `ids` (the instances it acts on) at rest: a short time
 * let run (`letShortlyRun`: their own creates done), each asked to shut down once, and a short time let run again (the
 * shutdowns done). The documents allow the same request refused for a busy or running instance too (resize: "no
 * running or queued actions"; a clone onto a target: "its running or queued actions must complete first"; a restore
 * onto a running target, a boot during a shutdown: not shown): sent at once, a refusal for those would stand for the
 * one the check judges. The shutdown's answer is not judged (an offline instance's may be refused, whether it may is
 * not shown), and not sent again: on a target without the clock hook this costs at most two consistency windows, not
 * minutes (one after the file's own shutdown, none while nothing was accepted since it put the instance at rest).
 */
export async function sendAtRest(c: Check, ids: number[], send: () => Promise<Exchange>): Promise<Exchange> {
  await putAtRest(c, ids);
  return send();
}

/** Puts `ids` at rest as `sendAtRest` does, for requests sent after it (bodies a property check sends). */
export async function putAtRest(c: Check, ids: number[]): Promise<void> {
  const states = ids.map((id) => stateOf(c, id));
  if (states.every((state) => state === 'at rest')) return;
  // Each one offline or shutting down: a short time lets the shutdowns finish.
  if (states.some((state) => state === undefined)) {
    await letShortlyRun(c);
    for (const id of ids) await c.post(`${INSTANCES}/${id}/shutdown`);
  }
  await letShortlyRun(c);
  for (const id of ids) noteState(c, id, 'at rest');
}
