/**
 * `Ui.lazy(fn, ...args)`: a part of the view that is built again only when its arguments change
 * (Elm's Html.Lazy, React's memo).
 *
 * Within a live session, each render remembers, per function and in call order, the elements its
 * lazy calls returned and the arguments they were built from. A call whose function and arguments
 * are the same (`Object.is`, one by one) as a call of the previous render gets that render's
 * element back without running `fn`; the id walk and the diff then skip it as one object
 * (src/live/ids.ts, src/live/diff/diff.ts). An event that changes one field of a form rebuilds that
 * field only. `Ui.html` templates (src/ui/template.ts) keep their calls in the same memo, per
 * template, with a rule of their own for comparing values.
 *
 * `fn` must depend on its arguments alone (not on a closure over the model, nor on the clock): a
 * call with equal arguments is not run again. Pass a function defined once, outside `view`: an
 * arrow written inline in `view` is a new function on every render and never matches.
 *
 * Memory: a session keeps, beside its rendered tree, the arguments and view elements of its last
 * render's template and `Ui.h` calls (the last in src/ui/element-log.ts) and the calls of its lazy
 * parts, which keep their arguments rather than their elements (src/ui/lazy-part.ts); all are
 * dropped with the tree (a quiet session, src/live/server/session/session.ts), and never shared with
 * another session. Outside a session (rendering a view directly) `lazy` simply calls `fn`.
 */
import type { RenderProbe } from "./probe.ts";
import type { UntypedMessages } from "./messages.ts";
import { ElementLog } from "./element-log.ts";
import { type LazyFn, LazyPart, Part, releaseBeforeRender } from "./lazy-part.ts";
import { ListMemo } from "./list-memo.ts";
import type { UiElement } from "./types.ts";

/**
 * One memoised call of a render: its arguments as the rule kept them, its element, and the parts a
 * template built it from (src/ui/template.ts), which the next call of the template may reuse where
 * their values did not change.
 */
export type MemoEntry = {
  readonly args: readonly unknown[];
  readonly element: UiElement;
  readonly parts: readonly UiElement[] | undefined;
};

/** What a memoised call builds on a miss: its element, and a template's parts. */
export type Built = { readonly element: UiElement; readonly parts?: readonly UiElement[] };

/**
 * The build of a miss, given the key (a lazy function, a template), the call's arguments and the
 * previous call of the key nearest to it. One function per kind of call, made once: a call that
 * hits allocates nothing.
 */
export type MemoBuild = (key: object, args: readonly unknown[], previous: MemoEntry | undefined) => Built;

/**
 * How a kind of memoised call compares and keeps its arguments: `Ui.lazy` compares them with
 * `Object.is` and keeps them as they are; a template (src/ui/template.ts) compares plain data by
 * value and keeps a copy of it.
 */
export type ArgRule = {
  readonly same: (kept: readonly unknown[], args: readonly unknown[]) => boolean;
  readonly keep: (args: readonly unknown[]) => readonly unknown[];
};

/**
 * How far from its expected place a call's previous entry is looked for: rows inserted or removed
 * above, up to this many at once, still find theirs; farther moves rebuild (a miss costs one call
 * of `fn`, never a wrong element).
 */
const SEARCH = 8;

/**
 * The calls of one key (a lazy function, a template) in the previous render and in the render
 * under way. The two lists swap at each commit, so a steady view allocates no new lists.
 */
type Calls = {
  previous: MemoEntry[];
  current: MemoEntry[];
  /**
   * Where the previous render's entries sit relative to this render's calls, as found by the last
   * hit: a row inserted above a list of rows shifts the rest by one.
   */
  shift: number;
};

/**
 * One session's memo: the lazy and template results of its previous render, and those of the
 * render under way, per key in call order; and the log of its `Ui.h` and `Ui.keyed` calls. Its map
 * is made by its first call, and its log by its first render.
 */
export class LazyMemo {
  /** `probe`: the test hook that counts what this session's renders visit (src/ui/probe.ts). */
  constructor(readonly probe?: RenderProbe) {}

  private calls: Map<object, Calls> | undefined;
  /** The `Ui.h` and `Ui.keyed` calls of the render (src/ui/element-log.ts), made by the first render. */
  private log: ElementLog | undefined;
  /** The rows of the render's `Ui.each` lists (src/ui/list-memo.ts), made by the first list. */
  private rows: ListMemo | undefined;

  /** The log of this memo's `Ui.h` and `Ui.keyed` calls. */
  elements(): ElementLog {
    return (this.log ??= new ElementLog());
  }

  /** The rows of this memo's `Ui.each` lists. */
  lists(): ListMemo {
    return (this.rows ??= new ListMemo());
  }

  /**
   * The element of the previous render's call of `key` (a lazy function, a template) whose
   * arguments are the same by `rule`, or a new one from `build`. On a miss, `build` is given the
   * previous call of `key` nearest to where this call is expected (the same row of a list, the
   * same template, with other values), if there is one.
   */
  lookup(key: object, args: readonly unknown[], build: MemoBuild, rule: ArgRule): UiElement {
    const all = (this.calls ??= new Map());
    let calls = all.get(key);
    if (calls === undefined) all.set(key, calls = { previous: NO_ENTRIES, current: [], shift: 0 });
    const used = calls.current;
    const old = calls.previous;
    // The place the last hit predicts: in a steady view, every call's entry is there.
    const predicted = used.length + calls.shift;
    if (predicted < old.length) {
      const entry = old[predicted]!;
      if (rule.same(entry.args, args)) {
        used.push(entry);
        return entry.element;
      }
    }
    return this.search(key, calls, args, build, rule);
  }

  /** A call whose entry is not at its predicted place: places ever farther from it, up to SEARCH, then a build. */
  private search(key: object, calls: Calls, args: readonly unknown[], build: MemoBuild, rule: ArgRule): UiElement {
    const used = calls.current;
    const old = calls.previous;
    const i = used.length;
    const shift = calls.shift;
    let nearest: MemoEntry | undefined = i + shift >= 0 && i + shift < old.length ? old[i + shift] : undefined;
    for (let d = 1; d <= SEARCH; d = d > 0 ? -d : 1 - d) {
      const at = i + shift + d;
      if (at < 0 || at >= old.length) continue;
      const entry = old[at]!;
      if (rule.same(entry.args, args)) {
        calls.shift = at - i;
        used.push(entry);
        return entry.element;
      }
      nearest ??= entry;
    }
    const built = build(key, args, nearest);
    used.push({ args: rule.keep(args), element: built.element, parts: built.parts });
    return built.element;
  }

  /** A render finished: its results are the ones the next render may reuse. */
  commit(): void {
    this.log?.commit();
    this.rows?.commit();
    if (this.calls === undefined) return;
    for (const [key, calls] of this.calls) {
      // A key this render did not call has nothing the next render could reuse.
      if (calls.current.length === 0) {
        this.calls.delete(key);
        continue;
      }
      const spare = calls.previous === NO_ENTRIES ? [] : calls.previous;
      spare.length = 0;
      calls.previous = calls.current;
      calls.current = spare;
      calls.shift = 0;
    }
  }

  /** A render failed: what it built is forgotten, the previous render's results stay. */
  abandon(): void {
    this.log?.abandon();
    this.rows?.abandon();
    if (this.calls === undefined) return;
    for (const [key, calls] of this.calls) {
      if (calls.previous === NO_ENTRIES) this.calls.delete(key);
      calls.current.length = 0;
      calls.shift = 0;
    }
  }
}

const NO_ENTRIES: MemoEntry[] = [];

/** `Ui.lazy`'s rule: the same arguments one by one (`Object.is`), kept as they are. */
const BY_IDENTITY: ArgRule = {
  same(a, b) {
    if (a.length !== b.length) return false;
    for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) return false;
    return true;
  },
  keep: (args) => args,
};

/**
 * A lazy call's build: its function (the key) called with its arguments, as a part that keeps the
 * call rather than the element between events (src/ui/lazy-part.ts). A function that returns a
 * part already (another lazy call) gives that part.
 */
const BUILD_LAZY: MemoBuild = (fn, args) => {
  const built = checked((fn as (...args: unknown[]) => unknown)(...args));
  return { element: built instanceof Part ? built : new LazyPart(fn as LazyFn, args, rebuildPart, built) };
};

/**
 * A part's element built again from its call (when something reads a part that released it), with
 * no session render active, so that its calls are not taken for calls of a render under way. A
 * `Ui.each` row is built this way the first time too (src/ui/each.ts).
 */
export const rebuildPart = (fn: LazyFn, args: readonly unknown[]): UiElement =>
  withRenderState(undefined, undefined, () => checked((fn as (...args: readonly unknown[]) => unknown)(...args)));

function checked(result: unknown): UiElement {
  if (typeof result !== "object" || result === null || (result as UiElement).kind !== "el") {
    throw new TypeError("Ui.lazy: the function must return an element (Ui.h, Ui.keyed)");
  }
  return result as UiElement;
}

/** The memo of the render under way, if a session is rendering, and its log of `Ui.h` calls. */
let active: LazyMemo | undefined;
let activeLog: ElementLog | undefined;

/** The memo of the render under way, or undefined outside a session's render. */
export function activeMemo(): LazyMemo | undefined {
  return active;
}

/**
 * The log of the `Ui.h` and `Ui.keyed` calls of the render under way, or undefined outside a
 * session's render: read by every call, so it is held here rather than asked of the memo.
 */
export function activeElementLog(): ElementLog | undefined {
  return activeLog;
}

/**
 * Runs `view` as one render with `memo` (a session's). The memo takes the render's lazy results
 * only when it completes; a throwing view leaves the previous ones in place. Lazy parts built or
 * read since the last render, in any session, first drop what they built, but within an event
 * those the event read before its render (src/ui/lazy-part.ts enterEvent).
 */
export function renderWithMemo<T>(memo: LazyMemo, view: () => T): T {
  releaseBeforeRender();
  const log = memo.elements();
  return withRenderState(memo, log, () => {
    log.begin();
    try {
      const result = view();
      memo.commit();
      return result;
    } catch (error) {
      memo.abandon();
      throw error;
    }
  });
}

/** Runs `fn` outside any session's render (a `Ui.each` row's build, src/ui/each.ts), and puts back the render under way. */
export function outsideRender<T>(fn: () => T): T {
  return withRenderState(undefined, undefined, fn);
}

/** Runs `fn` with `memo` and `log` as the render under way (none, for undefined), and puts back the outer ones. */
function withRenderState<T>(memo: LazyMemo | undefined, log: ElementLog | undefined, fn: () => T): T {
  const outer = active;
  const outerLog = activeLog;
  active = memo;
  activeLog = log;
  try {
    return fn();
  } finally {
    active = outer;
    activeLog = outerLog;
  }
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
  const build = fn as unknown as (...args: Args) => UiElement;
  return (active === undefined ? checked(build(...args)) : active.lookup(build, args, BUILD_LAZY, BY_IDENTITY)) as unknown as UiElement<M>;
}
