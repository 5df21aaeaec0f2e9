/**
 * `Ui.typed<Messages>()`: the view builders with an app's message map fixed, so that a helper
 * written anywhere (a row function outside `view`) is checked against the map without a type
 * annotation of its own, and `msg` checks a TSX handler's message where it is written
 * (docs/live-apps.md#typed-messages). The builders are the
 * same functions as `Ui`'s; only their types differ, so nothing here changes what a view builds.
 */
import type { JsonValue } from "../json.ts";
import type { Attrs } from "./attrs.ts";
import type { CheckedMessage, FormFields, HtmlHole, MessageMap } from "./messages.ts";
import type { Child, UiElement, UiRaw, UiText } from "./types.ts";
import { each, type ItemKey } from "./each.ts";
import { lazy } from "./lazy.ts";
import { h, keyed, raw, text } from "./node.ts";
import { html } from "./template.ts";

/**
 * The arguments a handler may write for a message whose arguments are `A`: all of them (an
 * `onClick`), or all but the last when the client adds the last one (a control's value for
 * `onInput` and `onChange`, the form's fields for `onSubmit`).
 */
export type HandlerArgs<A> = A extends readonly unknown[] ?
    | A
    | (A extends readonly [...infer P, infer V] ? string extends V ? P : boolean extends V ? P : FormFields extends V ? P : never
      : never)
  : readonly never[];

/** The builders of `Ui`, typed by the message map `M`; `Ui.typed<M>()` returns them. */
export interface TypedUi<M> {
  /** `Ui.h`: an element whose handler props must name messages of `M`, with arguments of their types. */
  h(tag: string, attrs?: Attrs<M> | null, ...children: Child<M>[]): UiElement<M>;
  /** `Ui.keyed`: the element with its key. */
  keyed(key: string | number, node: UiElement<M>): UiElement<M>;
  /** `Ui.each`: a keyed list whose rows follow `M`. */
  each<T>(items: readonly T[], key: (item: T) => ItemKey, row: (item: T) => UiElement<M>): UiElement<M>[];
  /** `Ui.lazy`: a part built again only when its arguments change. */
  lazy<Args extends unknown[]>(fn: (...args: Args) => UiElement<M>, ...args: Args): UiElement<M>;
  /** `Ui.html`: a template whose holes' messages must be messages of `M`. */
  html(strings: TemplateStringsArray, ...values: HtmlHole<M, UiElement<M> | UiText | UiRaw>[]): UiElement<M>;
  /** `Ui.raw`: markup written to the page as it is. */
  raw(html: string): UiRaw;
  /** `Ui.text`: a text node. */
  text(value: string | number): UiText;
  /**
   * A handler's message, checked against `M` wherever it is written: its name and the arguments
   * the handler gives (all of them, or all but the value or the fields the client adds). For TSX,
   * whose handler props TypeScript cannot check against an app's own map, and which take only
   * these in a project that declares no `Register`: `<button onClick={ui.msg("Remove", item.id)}>`.
   */
  msg<K extends keyof M & string, const A extends HandlerArgs<M[K]>>(
    name: K,
    ...args: A
  ): (A extends readonly [] ? K : readonly [K, ...A]) & CheckedMessage;
}

/** A handler's message from its name and arguments: the name alone when there are none. */
function msg(name: string, ...args: JsonValue[]): string | readonly [string, ...JsonValue[]] {
  return args.length === 0 ? name : [name, ...args];
}

const TYPED_UI = Object.freeze({ h, keyed, each, lazy, html, raw, text, msg });

/**
 * The view builders with the app's message map `M` fixed: `h`, `each`, `html` and the rest check
 * every handler against `M` wherever they are called, in `view` or in a helper outside it, with no
 * annotation on the helper. `msg` writes a checked message for a TSX handler prop.
 *
 * @returns `Ui`'s own builders, typed by `M`
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * type Todo = { id: number; text: string; done: boolean };
 * type Messages = { Toggle: [id: number, checked: boolean]; Remove: [id: number] };
 * const ui = Ui.typed<Messages>();
 *
 * // Checked against Messages: ["Remvoe", t.id] or a string id would not compile.
 * const todoRow = (t: Todo) =>
 *   ui.h("li", {},
 *     ui.h("input", { type: "checkbox", checked: t.done, onChange: ["Toggle", t.id] }),
 *     ui.h("button", { onClick: ["Remove", t.id] }, "✕"));
 *
 * export const app = Live.app<Todo[], Messages>({
 *   init: () => [],
 *   update: (todos, msg, args) => {
 *     switch (msg) {
 *       case "Toggle": return todos.map((t) => (t.id === args[0] ? { ...t, done: args[1] } : t));
 *       case "Remove": return todos.filter((t) => t.id !== args[0]);
 *       default: return Live.unhandled(msg);
 *     }
 *   },
 *   view: (todos) => ui.h("ul", {}, ui.each(todos, (t) => t.id, todoRow)),
 * });
 * ```
 */
export function typed<M extends MessageMap<M>>(): TypedUi<M> {
  return TYPED_UI as unknown as TypedUi<M>;
}
