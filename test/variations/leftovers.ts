// What a variation's run left on its emulator, tracked by its clean-up ledger or not: the collections a run makes
// things in, listed before the run and again after it (once a simulated week has let every deletion that runs a while
// end), and compared (the safety self-tests' `snapshot` and `newSince`). The ledger's judgement sees only what the run
// tracked; this sees what it made and lost track of.
import { api, newSince, snapshot, type Snapshot } from '../safety/support.js';

const WEEK_S = 7 * 24 * 3600;

/** The target's collections before a run. */
export const heldOn = (url: string, token: string): Promise<Snapshot> => snapshot(api(url, token));

/** What the target lists now that it did not list `before`, once a simulated week has passed. */
export async function leftSince(before: Snapshot, url: string, token: string): Promise<string[]> {
  const client = api(url, token);
  await client.call('POST', '/__control/clock', { advance_seconds: WEEK_S });
  return newSince(client, before);
}
