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
import { Part } from "../../../ui/lazy-part.ts";
import { FoldPart } from "../../../ui/fold/fold-part.ts";
import { type LiveElement, type LiveTree } from "../../tree.ts";

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

/**
 * About how many bytes of heap a session's kept tree costs: per element, the live element, its view
 * element, what its call is compared with (src/ui/element-log.ts), their arrays and attribute bags; per character
 * of text and attribute values, a byte. Calibrated against the heap of active sessions
 * (bench/table.bench.ts, memory).
 */
export const BYTES_PER_ELEMENT = 290;

/**
 * About how many bytes of heap a lazy part that keeps its call costs (src/ui/lazy-part.ts): the
 * part, its arguments and its entry in the session's memo (calibrated as above). Its arguments'
 * own data is the model's, which the estimate does not count for any element.
 */
export const BYTES_PER_LAZY_PART = 350;

/**
 * About how many bytes of heap a fold costs (src/ui/fold/fold-part.ts) besides its values: the
 * part, its list of values and its entry in the session memo's list; each value a slot, and each
 * character of a string value a byte (calibrated as above). Its shape is shared with every fold of
 * the same calls and is not counted.
 */
export const BYTES_PER_FOLD = 360;
const BYTES_PER_FOLD_VALUE = 8;

/** About how many bytes a fold's values cost: a slot each, and their strings' characters. */
function foldBytes(fold: FoldPart): number {
  let bytes = BYTES_PER_FOLD;
  for (const value of fold.values) bytes += BYTES_PER_FOLD_VALUE + (typeof value === "string" ? value.length : 0);
  return bytes;
}

/**
 * One walk over the tree: its elements and the characters of their texts and attribute values. A
 * lazy part that keeps its call only is counted as one, without building its subtree, and a fold
 * by its values.
 */
export function estimateTreeBytes(tree: LiveTree): number {
  let elements = 0;
  let parts = 0;
  let folds = 0;
  let chars = 0;
  const stack: LiveElement[] = [tree.root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    elements++;
    const attrs = el.attrs;
    for (const name in attrs) chars += (attrs[name] as string).length;
    for (const kid of el.kids) {
      if (kid instanceof FoldPart) folds += foldBytes(kid);
      else if (kid instanceof Part && kid.compact) parts++;
      else if (kid.kind === "el") stack.push(kid);
      else if (kid.kind === "text") chars += kid.text.length;
      else chars += kid.html.length;
    }
  }
  return elements * BYTES_PER_ELEMENT + parts * BYTES_PER_LAZY_PART + folds + chars;
}
