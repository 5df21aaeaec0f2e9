/**
 * One session's render state: what its previous render built, which its next render's calls are
 * compared with, and what the render under way has built so far. It answers the view builders'
 * calls while the session's view runs (src/ui/view-render.ts): a call that is the same as a call
 * of the previous render gets that render's element back, so that the id walk and the diff skip
 * it as one object (src/live/ids.ts, src/live/diff/diff.ts).
 *
 * - `Ui.lazy(fn, ...args)` and `Ui.html` templates: per function (or template), in call order,
 *   the arguments and the element of each call. A `Ui.lazy` call whose function and arguments are
 *   the same (`Object.is`, one by one) as a call of the previous render gets its element back
 *   without running `fn`; a template compares its values as data (src/ui/template.ts).
 * - `Ui.h` and `Ui.keyed`: the log of their calls (element-log.ts).
 * - `Ui.each`: the rows of each list (each-rows.ts, list-memo.ts).
 *
 * `fn` must depend on its arguments alone (docs/live-apps.md#unchanged-parts-are-not-built-again).
 *
 * Memory: a session keeps, beside its rendered tree, the arguments and view elements of its last
 * render's template and `Ui.h` calls (the last in element-log.ts) and the calls of its lazy parts,
 * which keep their arguments rather than their elements (lazy-part.ts); all are dropped with the
 * tree (a quiet session, src/live/server/session/session.ts), and never shared with another
 * session. Outside a session (rendering a view directly) the builders build every call.
 */
import type { RenderProbe } from "../probe.ts";
import type { Attrs } from "../../ui/attrs.ts";
import type { Child, UiElement } from "../../ui/types.ts";
import {
  type ArgRule,
  type EachCall,
  type MemoBuild,
  type MemoCall,
  type MemoEntry,
  type ViewRender,
  withViewRender,
} from "../../ui/view-render.ts";
import { ElementLog } from "./element-log.ts";
import { checkedPart, type LazyFn, LazyPart, Part, releaseBeforeRender } from "./lazy-part.ts";
import { ListMemo } from "./list-memo.ts";
import { rowsOf } from "./each-rows.ts";

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
 * One session's render state: the lazy and template results of its previous render, and those of
 * the render under way, per key in call order; the log of its `Ui.h` and `Ui.keyed` calls; the rows
 * of its `Ui.each` lists. Its map is made by its first call, its log and rows by their first use.
 */
export class RenderState implements ViewRender {
  /** `probe`: the test hook that counts what this session's renders visit (src/live/probe.ts). */
  constructor(readonly probe?: RenderProbe) {}

  private calls: Map<object, Calls> | undefined;
  /** The `Ui.h` and `Ui.keyed` calls of the render (element-log.ts), made by the first render. */
  private log: ElementLog | undefined;
  /** The rows of the render's `Ui.each` lists (list-memo.ts), made by the first list. */
  private rows: ListMemo | undefined;

  /** The log of this state's `Ui.h` and `Ui.keyed` calls. */
  elements(): ElementLog {
    return (this.log ??= new ElementLog());
  }

  /** The rows of this state's `Ui.each` lists. */
  lists(): ListMemo {
    return (this.rows ??= new ListMemo());
  }

  /** `Ui.h`: the log's element (element-log.ts). */
  element(tag: string, attrs: Attrs | null | undefined, children: Child[]): UiElement {
    return this.log!.element(tag, attrs, children);
  }

  /** `Ui.keyed`: the log's element (element-log.ts). */
  keyed(key: string, node: UiElement): UiElement {
    return this.log!.keyed(key, node);
  }

  /** `Ui.each`: the list's rows, the previous render's where an item is unchanged (each-rows.ts). */
  each(call: EachCall): UiElement[] {
    return rowsOf(this.lists(), call, this.probe);
  }

  /** `Ui.lazy`: the previous render's part of the same call, or a new one. */
  lazy(fn: (...args: readonly unknown[]) => UiElement, args: readonly unknown[]): UiElement {
    return this.memo({ key: fn, args, build: BUILD_LAZY, rule: BY_IDENTITY });
  }

  /**
   * The element of the previous render's call of `call.key` (a lazy function, a template) whose
   * arguments are the same by `call.rule`, or a new one from `call.build`. On a miss, the build is
   * given the previous call of the key nearest to where this call is expected (the same row of a
   * list, the same template, with other values), if there is one.
   */
  memo(call: MemoCall): UiElement {
    const all = (this.calls ??= new Map());
    let calls = all.get(call.key);
    if (calls === undefined) all.set(call.key, calls = { previous: NO_ENTRIES, current: [], shift: 0 });
    const used = calls.current;
    const old = calls.previous;
    // The place the last hit predicts: in a steady view, every call's entry is there.
    const predicted = used.length + calls.shift;
    if (predicted < old.length) {
      const entry = old[predicted]!;
      if (call.rule.same(entry.args, call.args)) {
        used.push(entry);
        return entry.element;
      }
    }
    return search(calls, call);
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

/** A call whose entry is not at its predicted place: places ever farther from it, up to SEARCH, then a build. */
function search(calls: Calls, call: MemoCall): UiElement {
  const used = calls.current;
  const old = calls.previous;
  const i = used.length;
  const shift = calls.shift;
  let nearest: MemoEntry | undefined = i + shift >= 0 && i + shift < old.length ? old[i + shift] : undefined;
  for (let d = 1; d <= SEARCH; d = d > 0 ? -d : 1 - d) {
    const at = i + shift + d;
    if (at < 0 || at >= old.length) continue;
    const entry = old[at]!;
    if (call.rule.same(entry.args, call.args)) {
      calls.shift = at - i;
      used.push(entry);
      return entry.element;
    }
    nearest ??= entry;
  }
  const built = call.build(call.key, call.args, nearest);
  used.push({ args: call.rule.keep(call.args), element: built.element, parts: built.parts });
  return built.element;
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
 * call rather than the element between events (lazy-part.ts). A function that returns a part
 * already (another lazy call) gives that part.
 */
const BUILD_LAZY: MemoBuild = (fn, args) => {
  const built = checkedPart((fn as (...args: unknown[]) => unknown)(...args));
  return { element: built instanceof Part ? built : new LazyPart(fn as LazyFn, args, built) };
};

/**
 * Runs `view` as one render of `state` (a session's). The state takes the render's results only
 * when it completes; a throwing view leaves the previous ones in place. Lazy parts built or read
 * since the last render, in any session, first drop what they built, but within an event those the
 * event read before its render (lazy-part.ts enterEvent).
 */
export function renderWith<T>(state: RenderState, view: () => T): T {
  releaseBeforeRender();
  const log = state.elements();
  return withViewRender(state, () => {
    log.begin();
    try {
      const result = view();
      state.commit();
      return result;
    } catch (error) {
      state.abandon();
      throw error;
    }
  });
}
