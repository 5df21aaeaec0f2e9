/**
 * `Ui.each(items, key, row)`: a keyed list whose rows cost what changed (docs/live-apps.md#lists).
 *
 * Each item becomes `row(item)`, keyed by `key(item)` (`Ui.keyed`). Within a live session, an item
 * that is the same value (`Object.is`) under the same key as in the previous render's list of the
 * same row function gets that render's row back: `row` is not called, and the id walk and the diff
 * take the row as one object (src/live/ids.ts, src/live/diff/diff.ts), whatever moved around it. A row
 * is a lazy part of its call (src/live/render-state/lazy-part.ts): between events the session keeps the row
 * function and the item, not the elements, and builds them again when an event reads inside the
 * row (a handler, an input, a resync). So `row` must depend on its item alone, as a `Ui.lazy`
 * function does, and be defined once, outside `view`.
 *
 * Finding a row's previous part: the parts of the previous list are read in order, the one at the
 * item's place first (the same item there is the same row: `key`, like `row`, must depend on the
 * item alone, so its key is not asked again); an item whose key is not there (rows inserted,
 * removed or moved) is looked up by key in an index of the previous list, made once for the render
 * that needs it. A row is built outside the session's render (as a part is built again), so a row
 * is built whole and its calls leave nothing in the session's render state
 * (src/live/render-state/each-rows.ts).
 *
 * Outside a session (a test, a static page), `each` simply builds every row.
 */
import { keyed } from "./node.ts";
import type { UntypedMessages } from "./messages.ts";
import type { UiElement } from "./types.ts";
import { viewRender } from "./view-render.ts";

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
  const render = viewRender();
  const build = row as unknown as (item: T) => UiElement;
  const rows = render === undefined
    ? items.map((item) => keyed(keyText(key(item)), rowElement(build(item))))
    : render.each({ items, key: key as (item: unknown) => ItemKey, row: build as (item: unknown) => UiElement });
  return rows as unknown as UiElement<M>[];
}

/** A row's key as text: a string or a number, checked. */
export function keyText(key: unknown): string {
  if (typeof key === "string") return key;
  if (typeof key === "number") return String(key);
  throw new TypeError(`Ui.each: a key must be a string or a number, not ${key === null ? "null" : typeof key}`);
}

/** What a row function returned, checked to be an element. */
export function rowElement(built: unknown): UiElement {
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
