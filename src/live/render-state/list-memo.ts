/**
 * What a session keeps of its `Ui.each` lists between renders (src/ui/each.ts): for each row
 * function, the rows of each of its lists in the previous render, in call order, and those of the
 * render under way. The lists swap at each commit, as the lazy memo's calls do (src/ui/lazy.ts).
 */
import type { LazyPart } from "./lazy-part.ts";

/**
 * One `Ui.each` call's rows: its parts, in the order of its items, and a copy of the items, which
 * the next render compares with its own, one dense array against another, without reading a part.
 */
export type ListRows = {
  readonly parts: readonly LazyPart[];
  readonly items: readonly unknown[];
};

type Lists = { previous: ListRows[]; current: ListRows[] };

const NO_LISTS: ListRows[] = [];

export class ListMemo {
  private readonly calls = new Map<object, Lists>();

  /** The rows of the previous render's list of `row` at the place in call order this render has reached. */
  previous(row: object): ListRows | undefined {
    const lists = this.calls.get(row);
    return lists === undefined ? undefined : lists.previous[lists.current.length];
  }

  /** Notes the rows of this render's next list of `row`. */
  record(row: object, rows: ListRows): void {
    let lists = this.calls.get(row);
    if (lists === undefined) this.calls.set(row, lists = { previous: NO_LISTS, current: [] });
    lists.current.push(rows);
  }

  /** A render finished: its lists are the ones the next render reads; a row function it did not call is forgotten. */
  commit(): void {
    for (const [row, lists] of this.calls) {
      if (lists.current.length === 0) this.calls.delete(row);
      else {
        lists.previous = lists.current;
        lists.current = [];
      }
    }
  }

  /** A render failed: its lists are dropped, the previous render's stay. */
  abandon(): void {
    for (const [row, lists] of this.calls) {
      if (lists.previous === NO_LISTS) this.calls.delete(row);
      else lists.current = [];
    }
  }
}
