// The valid view of an item of a windowed list (events "from the last 90 days", logins "in the last 90 days"): the
// newest item, never the first listed. No item order is shown: a list showing the oldest first puts first the item
// next to leave the window, which a clock moved meanwhile (by another spec file) takes out of it.
import type { Check } from '../../harness/check.js';
import type { Fixtures } from '../../harness/fixtures.js';
import { listItems, timeOf } from '../../harness/lists.js';
import { MissingCapability } from '../../harness/target.js';
import type { Recipe } from './valid-requests.js';

/** Each spec file's pick per list, read once and again only when its view was refused. */
const picks = new WeakMap<Fixtures, Map<string, Promise<string>>>();

/** The id of the item of `list` whose `member` (a date-time) is the latest; `fresh` reads the list again. */
function newestId(c: Check, fx: Fixtures, list: string, member: string, fresh = false): Promise<string> {
  const ofFile = picks.get(fx) ?? picks.set(fx, new Map()).get(fx)!;
  let pick = fresh ? undefined : ofFile.get(list);
  if (!pick) {
    pick = (async () => {
      // The newest item is first or last in either order: a list longer than the page cap is read on its ends.
      const items = await listItems(c, list, undefined, { ends: true });
      const dated = items.filter((item) => timeOf(item[member]) !== undefined && item.id !== undefined);
      const newest = dated.reduce<Record<string, unknown> | undefined>(
        (best, item) => (!best || timeOf(item[member])! > timeOf(best[member])! ? item : best),
        undefined,
      );
      if (!newest) throw new MissingCapability(`${list} lists no item with a ${member}`);
      return String(newest.id);
    })();
    ofFile.set(list, pick);
    pick.catch(() => ofFile.delete(list));
  }
  return pick;
}

/**
 * The view of the newest item of a windowed list. Refused, the item is picked again from the list as it is now (it
 * may have left the window meanwhile) and, when that is another item, its view is sent once more.
 */
export const newestInWindow = (list: string, member: string): Recipe => ({
  build: async (c, fx) => ({ path: `${list}/${await newestId(c, fx, list, member)}` }),
  afterRefusal: async (c, fx, request) => {
    const again = `${list}/${await newestId(c, fx, list, member, true)}`;
    if (again === request.path) return false;
    request.path = again;
    return true;
  },
});
