/**
 * `Ui.lazy(fn, ...args)`: a part of the view that is built again only when its arguments change
 * (Elm's Html.Lazy, React's memo).
 *
 * Within a live session, the session's render state (src/live/render-state/render-state.ts)
 * remembers, per function and in call order, the elements its lazy calls returned and the
 * arguments they were built from. A call whose function and arguments are the same (`Object.is`,
 * one by one) as a call of the previous render gets that render's element back without running
 * `fn`; the id walk and the diff then skip it as one object (src/live/ids.ts,
 * src/live/diff/diff.ts). An event that changes one field of a form rebuilds that field only.
 * `Ui.html` templates (src/ui/template.ts) keep their calls in the same memo, per template, with a
 * rule of their own for comparing values.
 *
 * `fn` must depend on its arguments alone (not on a closure over the model, nor on the clock): a
 * call with equal arguments is not run again. Pass a function defined once, outside `view`: an
 * arrow written inline in `view` is a new function on every render and never matches.
 *
 * Memory: a session keeps, beside its rendered tree, the arguments and view elements of its last
 * render's template and `Ui.h` calls (the last in src/live/render-state/element-log.ts) and the
 * calls of its lazy parts, which keep their arguments rather than their elements
 * (src/live/render-state/lazy-part.ts); all are dropped with the tree (a quiet session,
 * src/live/server/session/session.ts), and never shared with another session. Outside a session
 * (rendering a view directly) `lazy` simply calls `fn`.
 */
import type { UntypedMessages } from "./messages.ts";
import type { UiElement } from "./types.ts";
import { viewRender } from "./view-render.ts";

function checked(result: unknown): UiElement {
  if (typeof result !== "object" || result === null || (result as UiElement).kind !== "el") {
    throw new TypeError("Ui.lazy: the function must return an element (Ui.h, Ui.keyed)");
  }
  return result as UiElement;
}

/**
 * `Ui.lazy(fn, ...args)`: `fn(...args)`, except that in a session a call with the same function
 * and the same arguments (by `Object.is`) as in the previous render gets that render's part back
 * without running `fn` (docs/live-apps.md#unchanged-parts-are-not-built-again). `fn` must depend on
 * its arguments alone and be defined once, outside the view.
 *
 * @param fn builds the part from the arguments
 * @param args the arguments, compared one by one with the previous render's
 * @returns the part's element
 * @example
 * ```ts
 * import { Ui } from "svc-live";
 *
 * const row = (id: number, text: string) => Ui.keyed(id, Ui.h("li", {}, text));
 * const view = (todos: { id: number; text: string }[]) => Ui.h("ul", {}, todos.map((t) => Ui.lazy(row, t.id, t.text)));
 * ```
 */
export function lazy<Args extends unknown[], M = UntypedMessages>(fn: (...args: Args) => UiElement<M>, ...args: Args): UiElement<M> {
  if (typeof fn !== "function") throw new TypeError("Ui.lazy: expects a function, then its arguments");
  const build = fn as unknown as (...args: readonly unknown[]) => UiElement;
  const render = viewRender();
  return (render === undefined ? checked(build(...args)) : render.lazy(build, args)) as unknown as UiElement<M>;
}
