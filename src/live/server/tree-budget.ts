/**
 * The byte budget of the rendered trees that sessions keep between events (docs/deployment.md#memory).
 *
 * A kept tree is a cache of view(model): a session without one re-renders it from the model on its
 * next event, which about doubles that event's cost, and stays correct. What a tree costs is
 * memory, in proportion to the page it renders, so the bound is in bytes, not in sessions: a
 * thousand sessions of a small form cost less than ten of a 2,000-row table.
 *
 * The budget keeps the holders in the order they last used their tree (a Map keeps insertion
 * order); when the total passes the budget, the least recently used give their trees up. The
 * sizes are estimates (`estimateTreeBytes`), measured against the heap in bench/table.bench.ts.
 */
import { type LiveElement, type LiveTree } from "../tree.ts";

/**
 * The default budget: 256 MiB of kept trees, a quarter of a 1 GB heap, which leaves the rest to the
 * sessions' models, the requests under way and the collector's headroom.
 */
export const DEFAULT_TREE_BUDGET_BYTES = 256 * 1024 * 1024;

export class TreeBudget<Holder> {
  private readonly holders = new Map<Holder, number>();
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
  use(holder: Holder, bytes: number): Holder[] {
    const had = this.holders.get(holder);
    if (had !== undefined) {
      this.total -= had;
      this.holders.delete(holder);
    }
    this.holders.set(holder, bytes);
    this.total += bytes;
    if (this.total <= this.limitBytes) return [];
    const released: Holder[] = [];
    for (const [oldest, size] of this.holders) {
      if (this.total <= this.limitBytes || oldest === holder) break;
      this.holders.delete(oldest);
      this.total -= size;
      released.push(oldest);
    }
    return released;
  }

  /** `holder` no longer keeps a tree (dropped when quiet, or ended). */
  forget(holder: Holder): void {
    const had = this.holders.get(holder);
    if (had === undefined) return;
    this.total -= had;
    this.holders.delete(holder);
  }

  get usedBytes(): number {
    return this.total;
  }

  get size(): number {
    return this.holders.size;
  }
}

/**
 * About how many bytes of heap a session's kept tree costs: per element, the live element, its view
 * element, what its call is compared with (src/ui/element-log.ts), their arrays and attribute bags; per character
 * of text and attribute values, a byte. Calibrated against the heap of active sessions
 * (bench/table.bench.ts, memory).
 */
export const BYTES_PER_ELEMENT = 380;

/** One walk over the tree: its elements and the characters of their texts and attribute values. */
export function estimateTreeBytes(tree: LiveTree): number {
  let elements = 0;
  let chars = 0;
  const stack: LiveElement[] = [tree.root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    elements++;
    const attrs = el.attrs;
    for (const name in attrs) chars += (attrs[name] as string).length;
    for (const kid of el.kids) {
      if (kid.kind === "el") stack.push(kid);
      else if (kid.kind === "text") chars += kid.text.length;
      else chars += kid.html.length;
    }
  }
  return elements * BYTES_PER_ELEMENT + chars;
}
