/**
 * What a session keeps of its `Ui.each` lists between renders (src/ui/each.ts): for each row
 * function, the rows of each of its lists in the previous render, in call order, and those of the
 * render under way. The lists swap at each commit, as the lazy memo's calls do (src/ui/lazy.ts).
 */
import type { LazyPart } from "./lazy-part.ts";

/**
 * One `Ui.each` call's rows: its parts, in the order of its items; a copy of the items, which the
 * next render compares with its own, one dense array against another, without reading a part;
 * and whether the parts' keys are all different, which spares the id walk from comparing them
 * (`uniqueKeysOf`).
 */
export type ListRows = {
  readonly parts: readonly LazyPart[];
  readonly items: readonly unknown[];
  readonly uniqueKeys: boolean;
};

type Lists = { previous: ListRows[]; current: ListRows[] };

const NO_LISTS: ListRows[] = [];

/**
 * The lists whose keys are all different, by their first part: the id walk finds a list among an
 * element's children by its first keyed child (src/live/ids.ts). Weak: a part gone is forgotten.
 */
const UNIQUE_LISTS = new WeakMap<LazyPart, ListRows>();

/** Notes a list whose parts' keys are all different, for `uniqueKeysOf`. */
export function noteUniqueKeys(list: ListRows): void {
  if (list.uniqueKeys && list.parts.length > 0) UNIQUE_LISTS.set(list.parts[0]!, list);
}

/**
 * Whether the keyed children among `children`, `keyed` of them from index `first` on, are a list
 * of `Ui.each` whose keys were found all different when it was made: the same parts, in the same
 * order, and no other keyed child. Checked object by object, so a list put together by other code
 * never passes for one. A part's key does not change, so its list's keys are still different.
 */
export function uniqueKeysOf(children: readonly unknown[], first: number, keyed: number): boolean {
  const list = UNIQUE_LISTS.get(children[first] as LazyPart);
  if (list === undefined || list.parts.length !== keyed || first + keyed > children.length) return false;
  const parts = list.parts;
  for (let i = 0; i < keyed; i++) if (children[first + i] !== parts[i]) return false;
  return true;
}

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
