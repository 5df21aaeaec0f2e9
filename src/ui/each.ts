/**
 * `Ui.each(items, key, row)`: a keyed list whose rows cost what changed (docs/live-apps.md#lists).
 *
 * Each item becomes `row(item)`, keyed by `key(item)` (`Ui.keyed`). Within a live session, an item
 * that is the same value (`Object.is`) under the same key as in the previous render's list of the
 * same row function gets that render's row back: `row` is not called, and the id walk and the diff
 * take the row as one object (src/live/ids.ts, src/live/diff/diff.ts), whatever moved around it. A row
 * is a lazy part of its call (src/ui/lazy-part.ts): between events the session keeps the row
 * function and the item, not the elements, and builds them again when an event reads inside the
 * row (a handler, an input, a resync). So `row` must depend on its item alone, as a `Ui.lazy`
 * function does, and be defined once, outside `view`.
 *
 * Finding a row's previous part: the parts of the previous list are read in order, the one at the
 * item's place first (the same item there is the same row: `key`, like `row`, must depend on the
 * item alone, so its key is not asked again); an item whose key is not there (rows inserted,
 * removed or moved) is looked up by key in an index of the previous list, made once for the render
 * that needs it. A row is built outside the session's render (as a part is built again), so a row
 * is built whole and its calls leave nothing in the session's memo.
 *
 * Outside a session (a test, a static page), `each` simply builds every row.
 */
import { KEY_ATTR, sanitizeKey } from "../protocol/mod.ts";
import { activeMemo, type LazyMemo, outsideRender, rebuildPart } from "./lazy.ts";
import { type LazyFn, LazyPart } from "./lazy-part.ts";
import type { ListRows } from "./list-memo.ts";
import type { RenderProbe } from "./probe.ts";
import { keyed, keyedRoot } from "./node.ts";
import type { UntypedMessages } from "./messages.ts";
import type { UiElement } from "./types.ts";

/** What `key` may return: a row's key (docs/live-apps.md#keys). */
export type ItemKey = string | number;

/**
 * `Ui.each(items, key, row)`: `row(item)` keyed by `key(item)` for each item; in a session, the
 * row of an item that is the same value as in the previous render, with the same `row`, is neither
 * built nor compared again (docs/live-apps.md#lists). Define `row` once, outside `view`.
 *
 * @param items the list's items, in the order of its rows
 * @param key the row's key, from its item alone (ids: numbers or strings)
 * @param row builds one row from its item alone
 * @returns the keyed rows, to place among an element's children
 * @example
 * ```ts
 * import { Ui } from "svc-live";
 *
 * type Todo = { id: number; text: string };
 * const todoRow = (t: Todo) => Ui.h("li", {}, t.text, Ui.h("button", { onClick: ["Remove", t.id] }, "x"));
 * const view = (todos: Todo[]) => Ui.h("ul", {}, Ui.each(todos, (t) => t.id, todoRow));
 * ```
 */
export function each<T, M = UntypedMessages>(
  items: readonly T[],
  key: (item: T) => ItemKey,
  row: (item: T) => UiElement<M>,
): UiElement<M>[] {
  if (!Array.isArray(items)) throw new TypeError("Ui.each: expects an array of items, a key function and a row function");
  if (typeof key !== "function" || typeof row !== "function") {
    throw new TypeError("Ui.each: expects an array of items, a key function and a row function");
  }
  const memo = activeMemo();
  const build = row as unknown as (item: T) => UiElement;
  const rows = memo === undefined
    ? items.map((item) => keyed(keyText(key(item)), rowElement(build(item))))
    : rowsOf(memo, items, key, build as LazyFn);
  return rows as unknown as UiElement<M>[];
}

const NO_ROWS: ListRows = { parts: [], items: [] };

/** The parts of one list: the previous render's where an item is unchanged, new ones elsewhere. */
function rowsOf<T>(session: LazyMemo, items: readonly T[], key: (item: T) => ItemKey, row: LazyFn): LazyPart[] {
  const memo = session.lists();
  const previousList = memo.previous(row) ?? NO_ROWS;
  const previous = previousList.parts;
  // The previous items, compared with this render's one dense array against another: reading
  // each part's item would touch an object per row of the list (bench/table.bench.ts).
  const previousItems = previousList.items;
  const out = new Array<LazyPart>(items.length);
  // Which previous parts this list took: an item listed twice takes its part once.
  const taken = previous.length === 0 ? undefined : new Uint8Array(previous.length);
  let byKey: Map<string, number> | undefined;
  // Where the previous parts sit relative to the items, as the last look-up by key found.
  let shift = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as T;
    let at = i + shift;
    // The item at its expected place, as in a steady list: its key, a function of the item, is too.
    if (at < previous.length && taken![at] === 0 && Object.is(previousItems[at], item)) {
      taken![at] = 1;
      out[i] = previous[at]!;
      continue;
    }
    const k = keyText(key(item));
    if (taken !== undefined && (at >= previous.length || partKey(previous[at]!) !== k)) {
      byKey ??= indexByKey(previous);
      const found = byKey.get(k);
      if (found !== undefined) shift = found - i;
      at = found ?? -1;
    }
    const part = taken !== undefined && at >= 0 && at < previous.length ? previous[at]! : undefined;
    if (part !== undefined && taken![at] === 0 && Object.is(previousItems[at], item)) {
      taken![at] = 1;
      out[i] = part;
    } else out[i] = newRow(row, item, k, session.probe);
  }
  memo.record(row, { parts: out, items: items.slice() });
  return out;
}

/** A new row: `row(item)` built outside the session's render, as a part of its call keyed by `k`. */
function newRow(row: LazyFn, item: unknown, k: string, probe: RenderProbe | undefined): LazyPart {
  if (probe !== undefined) probe.built++;
  const args = [item];
  const built = rowElement(outsideRender(() => (row as (item: unknown) => unknown)(item)));
  const { attrs, key } = isEmpty(built.attrs) ? keyedBare(k) : keyedRoot(k, built);
  return new LazyPart(row, args, rebuildPart, built, attrs, key);
}

function isEmpty(attrs: Readonly<Record<string, string>>): boolean {
  for (const _ in attrs) return false;
  return true;
}

/**
 * The root attributes and key of a row whose element has no attributes of its own (a `tr` of
 * cells, the usual row), keyed by `k`: one object per key, shared by the rows of that key in every
 * session, rather than one per row kept (docs/deployment.md#memory). Bounded: cleared when full.
 */
const BARE_KEYED = new Map<string, { readonly attrs: Readonly<Record<string, string>>; readonly key: string | undefined }>();
const BARE_KEYED_LIMIT = 65_536;
const NO_KEY = { attrs: Object.freeze({}), key: undefined };

function keyedBare(k: string): { readonly attrs: Readonly<Record<string, string>>; readonly key: string | undefined } {
  if (k === "") return NO_KEY;
  let keyed = BARE_KEYED.get(k);
  if (keyed === undefined) {
    if (BARE_KEYED.size >= BARE_KEYED_LIMIT) BARE_KEYED.clear();
    keyed = { attrs: Object.freeze({ [KEY_ATTR]: k }), key: sanitizeKey(k) };
    BARE_KEYED.set(k, keyed);
  }
  return keyed;
}

/** The key a part of a list was made with ("" for none). */
function partKey(part: LazyPart): string {
  return part.attrs[KEY_ATTR] ?? "";
}

/** The previous parts' places by key, the first of each. */
function indexByKey(previous: readonly LazyPart[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let j = previous.length - 1; j >= 0; j--) index.set(partKey(previous[j]!), j);
  return index;
}

function keyText(key: unknown): string {
  if (typeof key === "string") return key;
  if (typeof key === "number") return String(key);
  throw new TypeError(`Ui.each: a key must be a string or a number, not ${key === null ? "null" : typeof key}`);
}

function rowElement(built: unknown): UiElement {
  if (typeof built !== "object" || built === null || (built as UiElement).kind !== "el") {
    throw new TypeError("Ui.each: the row function must return an element (Ui.h, Ui.html, JSX)");
  }
  return built as UiElement;
}

/** The props of `<Each>`: the items, their key (`by`: `key` is JSX's own prop) and the row function. */
export type EachProps<T> = {
  /** The items, one row each, in order. */
  readonly items: readonly T[];
  /** An item's key: unique in the list and stable across renders (an id, not a position). */
  readonly by: (item: T) => ItemKey;
  /** The row of one item: called only for an item that is new or changed. */
  readonly row: (item: T) => UiElement;
};

/**
 * `<Each items={todos} by={(t) => t.id} row={TodoRow} />`: `Ui.each` written in JSX
 * (docs/live-apps.md#lists). A row is built again only when its item changed.
 *
 * @example
 * ```ts
 * import { Each, Ui } from "svc-live";
 *
 * type Todo = { id: number; text: string };
 * const TodoRow = (t: Todo) => Ui.h("li", {}, t.text);
 * // In TSX: <ul><Each items={todos} by={(t) => t.id} row={TodoRow} /></ul>
 * const list = (todos: Todo[]) => Ui.h("ul", {}, Each({ items: todos, by: (t) => t.id, row: TodoRow }));
 * ```
 */
export function Each<T>(props: EachProps<T>): UiElement[] {
  return each(props.items, props.by, props.row);
}
