// Several documented reads of one state (a firewall's rules: GET …/rules and the `rules` member of the firewall's
// view): a check judges the state on every read that answers it, and has nothing to judge (`skip`) when none does.
// A read that is not served is evidence about its own endpoint's `serves` rule, not about the state.
import type { Check } from './check.js';
import { readAfterWrite } from './consistency.js';
import type { Exchange } from './http.js';
import { unservedRule } from './judge.js';

export interface Read<T> {
  /** How the report names the read, e.g. `GET /v4/networking/firewalls/7/rules`. */
  what: string;
  path: string;
  /** The state in a successful answer's body, or undefined when the body does not show it. */
  pick: (body: unknown) => T | undefined;
}

export interface Answer<T> {
  what: string;
  value: T;
  exchange: Exchange;
}

const answered = <T>(read: Read<T>, exchange: Exchange): T | undefined =>
  exchange.status >= 200 && exchange.status < 300 ? read.pick(exchange.body) : undefined;

/**
 * Reads the state through each of `reads`, each again within the consistency window until `settled` holds (a read
 * that is not served is not waited for), and returns the answers that show it; `skip` when none does.
 */
export async function readEvery<T>(c: Check, reads: readonly Read<T>[], settled: (value: T | undefined) => boolean = () => true): Promise<Answer<T>[]> {
  const answers: Answer<T>[] = [];
  for (const read of reads) {
    const exchange = await readAfterWrite(
      c,
      () => c.get(read.path),
      (view) => unservedRule(view) !== undefined || settled(answered(read, view)),
    );
    const value = answered(read, exchange);
    if (value !== undefined) answers.push({ what: read.what, value, exchange });
  }
  if (!answers.length)
    c.skip(
      `none of the documented reads shows the state (${reads.map((read) => read.what).join('; ')}): nothing to judge (an endpoint that is not served fails its own rule)`,
    );
  return answers;
}
