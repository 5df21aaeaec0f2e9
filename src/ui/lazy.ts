/**
 * `Ui.lazy(fn, ...args)`: a part of the view that is built again only when its arguments change
 * (Elm's Html.Lazy, React's memo).
 *
 * Within a live session, each render remembers, per function, the elements its lazy calls
 * returned and the arguments they were built from. A call whose function and arguments are the
 * same (`Object.is`, one by one) as a call of the previous render gets that render's element back
 * without running `fn`; the id walk and the diff then skip it as one object (src/live/ids.ts,
 * src/live/diff.ts). An event that changes one field of a form rebuilds that field only.
 *
 * `fn` must depend on its arguments alone (not on a closure over the model, nor on the clock): a
 * call with equal arguments is not run again. Pass a function defined once, outside `view`: an
 * arrow written inline in `view` is a new function on every render and never matches.
 *
 * Memory: a session keeps, beside its rendered tree, the arguments and view elements of its last
 * render's lazy calls; they are dropped with the tree (a quiet session, src/live/server/session.ts),
 * and never shared with another session. Outside a session (rendering a view directly) `lazy`
 * simply calls `fn`.
 */
import type { UiElement } from "./node.ts";

type Entry = { readonly args: readonly unknown[]; readonly element: UiElement };

/**
 * How far from its expected place a call's previous entry is looked for: rows inserted or removed
 * above, up to this many at once, still find theirs; farther moves rebuild (a miss costs one call
 * of `fn`, never a wrong element).
 */
const SEARCH = 8;

/**
 * One session's memo: the lazy results of its previous render, and those of the render under way.
 * Its maps are made by the first lazy call, so a view without any costs nothing per render.
 */
export class LazyMemo {
  private previous: Map<Function, Entry[]> | undefined;
  private current: Map<Function, Entry[]> | undefined;
  /**
   * Where the previous render's entries of a function sit relative to this render's calls of it,
   * as found by the last hit: a row inserted above a list of lazy rows shifts the rest by one.
   */
  private shift: Map<Function, number> | undefined;

  lookup(fn: Function, args: readonly unknown[]): UiElement {
    const current = (this.current ??= new Map());
    let used = current.get(fn);
    if (used === undefined) current.set(fn, (used = []));
    const old = this.previous?.get(fn);
    const i = used.length;
    if (old !== undefined) {
      const shifts = (this.shift ??= new Map());
      const shift = shifts.get(fn) ?? 0;
      // The place the last hit predicts first, then places ever farther from it, up to SEARCH.
      for (let d = 0; d <= SEARCH; d = d > 0 ? -d : 1 - d) {
        const at = i + shift + d;
        const entry = old[at];
        if (entry !== undefined && sameArgs(entry.args, args)) {
          if (d !== 0) shifts.set(fn, at - i);
          used.push(entry);
          return entry.element;
        }
      }
    }
    const element = checked(fn(...args));
    used.push({ args, element });
    return element;
  }

  /** A render finished: its lazy results are the ones the next render may reuse. */
  commit(): void {
    this.previous = this.current;
    this.current = undefined;
    this.shift = undefined;
  }

  /** A render failed: what it built is forgotten, the previous render's results stay. */
  abandon(): void {
    this.current = undefined;
    this.shift = undefined;
  }
}

function sameArgs(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) return false;
  return true;
}

function checked(result: unknown): UiElement {
  if (typeof result !== "object" || result === null || (result as UiElement).kind !== "el") {
    throw new TypeError("Ui.lazy: the function must return an element (Ui.h, Ui.keyed)");
  }
  return result as UiElement;
}

/** The memo of the render under way, if a session is rendering. */
let active: LazyMemo | undefined;

/**
 * Runs `view` as one render with `memo` (a session's). The memo takes the render's lazy results
 * only when it completes; a throwing view leaves the previous ones in place.
 */
export function renderWithMemo<T>(memo: LazyMemo, view: () => T): T {
  const outer = active;
  active = memo;
  try {
    const result = view();
    memo.commit();
    return result;
  } catch (error) {
    memo.abandon();
    throw error;
  } finally {
    active = outer;
  }
}

/** `Ui.lazy(fn, ...args)`: `fn(...args)`, or the element an earlier render got from the same call. */
export function lazy<Args extends unknown[]>(fn: (...args: Args) => UiElement, ...args: Args): UiElement {
  if (typeof fn !== "function") throw new TypeError("Ui.lazy: expects a function, then its arguments");
  return active === undefined ? checked(fn(...args)) : active.lookup(fn, args);
}
