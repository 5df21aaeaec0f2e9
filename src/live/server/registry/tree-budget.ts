/**
 * The byte budget of the rendered trees that sessions keep between events (docs/deployment.md#memory).
 *
 * A kept tree is a cache of view(model): a session without one re-renders it from the model on its
 * next event, which costs a render of the whole page (several times an event with a kept tree,
 * docs/deployment.md#memory), and stays correct. What a tree costs is
 * memory, in proportion to the page it renders, so the bound is in bytes, not in sessions: a
 * thousand sessions of a small form cost less than ten of a 2,000-row table.
 *
 * The budget keeps the holders in the order they last used their tree; when the total passes the
 * budget, the least recently used give their trees up. The sizes are estimates
 * (`estimateTreeBytes`), measured against the heap in bench/table.bench.ts.
 */
export { BYTES_PER_ELEMENT, BYTES_PER_FOLD, BYTES_PER_LAZY_PART, estimateTreeBytes } from "../session/tree-bytes.ts";

/**
 * The default budget: 256 MiB of kept trees, a quarter of a 1 GB heap, which leaves the rest to the
 * sessions' models, the requests under way and the collector's headroom.
 */
export const DEFAULT_TREE_BUDGET_BYTES = 256 * 1024 * 1024;

/** A holder's place in the budget's recency list, and the bytes of its tree. */
type Entry<Holder> = { readonly holder: Holder; bytes: number; older: Entry<Holder> | undefined; newer: Entry<Holder> | undefined };

/** What `use` returns when nobody has to give a tree up: one shared empty list, not one per event. */
const NONE: readonly never[] = Object.freeze([]);

export class TreeBudget<Holder> {
  /**
   * Each holder's entry in a list from the least to the most recently used. Every event of a
   * session moves its holder to the newest end: relinking the entry in place costs one look-up,
   * where taking the key out of a Map and putting it back (to move it to the Map's end) made the
   * Map shrink and grow its table on the way, at every event.
   */
  private readonly entries = new Map<Holder, Entry<Holder>>();
  private oldest: Entry<Holder> | undefined;
  private newest: Entry<Holder> | undefined;
  private total = 0;

  constructor(readonly limitBytes: number) {
    if (!(limitBytes > 0)) throw new RangeError("the tree budget must be a positive number of bytes");
  }

  /**
   * `holder` has just used its tree of about `bytes`: it becomes the most recently used. Returns
   * the holders that must give their trees up to bring the total within the budget, least recently
   * used first; never `holder` itself (its event is under way), even when its tree alone is larger
   * than the budget.
   */
  use(holder: Holder, bytes: number): readonly Holder[] {
    let entry = this.entries.get(holder);
    if (entry === undefined) {
      entry = { holder, bytes, older: undefined, newer: undefined };
      this.entries.set(holder, entry);
      this.append(entry);
    } else {
      this.total -= entry.bytes;
      entry.bytes = bytes;
      if (entry !== this.newest) {
        this.unlink(entry);
        this.append(entry);
      }
    }
    this.total += bytes;
    if (this.total <= this.limitBytes) return NONE;
    const released: Holder[] = [];
    while (this.total > this.limitBytes && this.oldest !== entry) {
      const oldest = this.oldest!;
      this.drop(oldest);
      released.push(oldest.holder);
    }
    return released;
  }

  /** `holder` no longer keeps a tree (dropped when quiet, or ended). */
  forget(holder: Holder): void {
    const entry = this.entries.get(holder);
    if (entry !== undefined) this.drop(entry);
  }

  get usedBytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(entry: Entry<Holder>): void {
    this.entries.delete(entry.holder);
    this.unlink(entry);
    this.total -= entry.bytes;
  }

  /** Puts a detached entry at the most recently used end. */
  private append(entry: Entry<Holder>): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest === undefined) this.oldest = entry;
    else this.newest.newer = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry<Holder>): void {
    if (entry.older === undefined) this.oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === undefined) this.newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }
}
