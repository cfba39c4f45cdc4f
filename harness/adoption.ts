// How a spec file's fixtures tell what a create made, and find items in lists: the id of a create's answer only when
// the answer shows the resource (what a create answers is mostly not shown, and a job's id is no resource's), else the
// list item, found at once, within the consistency window, or while the target's clock runs (`harness/unlisted.ts`).
import type { CleanupLedger } from './cleanup.js';
import { SkipCheck, type Check } from './check.js';
import { describeExchange } from './error-bodies.js';
import { readAfterWrite, readOnClock } from './consistency.js';
import type { Exchange } from './http.js';
import { findListed, readPage } from './pages.js';
import { labelShown, type ResourceKind } from './resources.js';
import { isId, UnlistedCreates, type Unlisted } from './unlisted.js';

type Json = Record<string, unknown>;

/** Setup could not produce what a check needs: the check reports `error`, not `fail`. */
export class SetupError extends Error {
  override name = 'SetupError';
}

export abstract class Adoption {
  protected abstract readonly ledger: CleanupLedger;
  /** What the file tracked, by kind and id (`kind id`): the path it is deleted by. */
  private readonly tracked = new Map<string, string>();
  /** Creates whose resource neither the answer nor the list showed yet (`awaitListed`). */
  protected readonly unlisted = new UnlistedCreates(
    (entry, id) => this.track(entry.kind, id, entry.label, entry.parent),
    (kind, id) => this.tracks(kind, id),
  );

  /** Records a created resource for cleanup (see `Fixtures.track`). */
  abstract track(kind: ResourceKind, id: string | number, label?: string, parent?: string | number): void;

  /** Notes `id` of `kind` as tracked by the file, deleted by `deletePath`: a resource told by a tag alone is not taken for it. */
  protected noteTracked(kind: ResourceKind, id: string | number, deletePath: string): void {
    this.tracked.set(`${kind} ${String(id)}`, deletePath);
  }

  /**
   * Whether the file tracks `id` of `kind` and has not deleted it: a resource listed under an id the file deleted is
   * another, its id given again (not excluded by the documents), and may be one of the file's creates still awaited.
   */
  tracks(kind: ResourceKind, id: unknown): boolean {
    const deletePath = this.tracked.get(`${kind} ${String(id)}`);
    return deletePath !== undefined && this.ledger.isPending(deletePath);
  }

  /**
   * Tracks what a successful create made (deleted after the file): the id from the response when the response is the
   * resource made (`isIt`, by default `match`, holds for it; or `answersIt`: the documents show the create answering
   * the resource), else the id of the list item `match` finds. What a create answers is mostly not shown, and a job's
   * id is no resource's: a resource not listed yet is awaited (`awaitListed`), found by the clean-up.
   */
  async adopt(
    c: Check,
    exchange: Exchange,
    spec: {
      kind: ResourceKind;
      list: string;
      match?: (item: Json) => boolean;
      isIt?: (body: Json) => boolean;
      idKey?: string;
      parent?: string | number;
      answersIt?: boolean;
      /** The label sent, if any (a resource told by a tag alone is never this one). */
      label?: string;
    },
  ): Promise<void> {
    if (exchange.status < 200 || exchange.status >= 300) return;
    const key = spec.idKey ?? 'id';
    const body = (exchange.body && typeof exchange.body === 'object' ? exchange.body : {}) as Json;
    const { match } = spec;
    const isIt = spec.isIt ?? match;
    const answered = isId(body[key]) ? body[key] : undefined;
    let id = answered !== undefined && (isIt ? isIt(body) : spec.answersIt) ? answered : undefined;
    // What shows the resource: its label there tells it from another given its id again, where no label was sent.
    let shown: Json | undefined = id !== undefined ? body : undefined;
    if (id === undefined && match) {
      shown = await this.find(c, spec.list, match);
      id = shown?.[key] as string | number | undefined;
    }
    if (id === undefined && spec.answersIt) [id, shown] = [answered, body];
    if (isId(id)) this.track(spec.kind, id, spec.label ?? labelShown(spec.kind, shown), spec.parent);
    else if (match) {
      const { kind, list, parent, label } = spec;
      this.awaitListed({ kind, list, match, idKey: key, ...(parent !== undefined ? { parent } : {}), ...(label !== undefined ? { label } : {}) });
    }
  }

  /** Awaits a resource neither its create's answer nor its list showed: found by `listedOnClock`, or by the clean-up. */
  awaitListed(spec: Omit<Unlisted, 'mark' | 'idKey'> & { idKey?: string }): Unlisted {
    return this.unlisted.await({ ...spec, idKey: spec.idKey ?? 'id', mark: this.ledger.mark() });
  }

  /** The labels of the creates still awaited (`awaitListed`): a resource told by a tag alone is none of theirs. */
  awaitedLabels(): Set<string> {
    return this.unlisted.labels();
  }

  /** The id of what `awaitListed` awaits, read in its list while the target's clock runs (`readOnClock`), tracked once found. */
  async listedOnClock(c: Check, entry: Unlisted, steps: { stepSeconds: number; mostSeconds: number }): Promise<string | number | undefined> {
    const found = await readOnClock(
      c,
      () => this.findOnce(c, entry.list, this.unlisted.mine(entry)),
      (item) => item !== undefined,
      steps,
    );
    const id = found?.[entry.idKey];
    if (!isId(id)) return undefined;
    this.unlisted.settle(entry, id);
    return id;
  }

  /** The list item `match` finds: one expected there (made or seeded), so a miss is read again within the consistency window. */
  find(c: Check, path: string, match: (item: Json) => boolean): Promise<Json | undefined> {
    return readAfterWrite(
      c,
      () => this.findOnce(c, path, match),
      (found) => found !== undefined,
    );
  }

  /**
   * `find`, letting the target's clock run 10 minutes at a time for at most `minutes` while nothing matches: for what
   * "takes several minutes" and may be listed only once done (a database snapshot). Skips without the clock hook.
   */
  findOnClock(c: Check, path: string, match: (item: Json) => boolean, minutes: number): Promise<Json | undefined> {
    return readOnClock(
      c,
      () => this.findOnce(c, path, match),
      (found) => found !== undefined,
      { stepSeconds: 10 * 60, mostSeconds: minutes * 60 },
    );
  }

  /** Whether no item of the list matches (after a delete: an item still listed is read again within the window). */
  async gone(c: Check, path: string, match: (item: Json) => boolean): Promise<boolean> {
    return (
      (await readAfterWrite(
        c,
        () => this.findOnce(c, path, match),
        (found) => found === undefined,
      )) === undefined
    );
  }

  /**
   * The item `match` finds in a list, searched from both ends within the page cap (`findListed`: a new item is first
   * or last in either order, on a list of any length): what the list shows now (no waiting: for what must not be there yet).
   */
  async findOnce(c: Check, path: string, match: (item: Json) => boolean): Promise<Json | undefined> {
    return (await findListed(c, path, match)).found;
  }

  /**
   * The id of what a create made: the response's when it is that resource (`match` holds for it: an event's or a job's
   * id is no resource's), else the list item's, else the response's where the documents show the create answering the
   * resource (`answersIt`), else the list item's once the target's clock has run (a server may make the resource when
   * the job its create answered ends: not shown); `skip` when it never shows. With `kind`, tracked (and, while not
   * listed, awaited by the clean-up).
   */
  protected async idOf(
    c: Check,
    created: Json,
    list: string,
    match: (item: Json) => boolean,
    what: string,
    made: { kind?: ResourceKind; label?: string; answersIt?: boolean } = {},
  ): Promise<number | string> {
    let id = isId(created.id) && match(created) ? created.id : (await this.find(c, list, match))?.id;
    if (!isId(id) && made.answersIt) id = created.id;
    if (isId(id)) {
      if (made.kind) this.track(made.kind, id, made.label);
      return id;
    }
    // A list that answers no list (refused, not JSON) cannot show it later: the target is broken, not slow.
    const first = await readPage(c, list, 1);
    if (!Array.isArray((first.body as { data?: unknown } | undefined)?.data))
      throw new SetupError(`created ${what}, but its answer does not show it and ${list} answers no list (${describeExchange(first)})`);
    const hour = { stepSeconds: 10 * 60, mostSeconds: 60 * 60 };
    const { kind, label } = made;
    id = kind
      ? await this.listedOnClock(c, this.awaitListed({ kind, list, match, ...(label !== undefined ? { label } : {}) }), hour)
      : (
          await readOnClock(
            c,
            () => this.findOnce(c, list, match),
            (item) => item !== undefined,
            hour,
          )
        )?.id;
    if (isId(id)) return id;
    throw new SkipCheck(
      `created ${what}, but its answer does not show it and ${list} lists it in no 60 simulated minutes (what a create answers is not shown)`,
    );
  }
}
