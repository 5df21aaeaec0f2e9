/**
 * `Ui.h` and `Ui.keyed` within a live session's render: a call that would build what the same call
 * built in the previous render gets that render's element back (the session memo, src/ui/lazy.ts).
 *
 * Why: a view written with `Ui.h` builds its whole page on every render, and the id walk and the
 * diff then compare every element of it with the previous render, although an event changes a
 * line or two. Children are built before their parents, so when a call's tag, attributes and
 * children are those of its previous call, its children are already the previous render's
 * objects, and the element is too: the unchanged parts of a page become the previous render's
 * objects from the leaves up, and the id walk and the diff skip each as one object
 * (src/live/ids.ts, src/live/diff/diff.ts), as they skip static parts built once. This is what
 * LiveView's change tracking or a template compiler (src/ui/template.ts) knows from the markup,
 * found here from the values, with no change to the app.
 *
 * The log. Each render writes the list of the elements its calls returned, in call order. What a
 * call is compared with is kept on its element (`UiElement.call`, src/live/render-state/call-record.ts). A call is
 * the same as a logged element when the tag is, the bag holds the same keys in the same order with
 * the same values, and the children are what the build made of them. A hit is therefore always
 * what a build would give; anything else is built.
 *
 * Between events a session keeps its page folded (src/live/render-state/fold/fold-tree.ts): the list the next
 * render reads is then the kept page's calls, where each fold stands for the calls of its subtree
 * (src/live/render-state/fold/fold-part.ts). A call meeting a fold is compared with the fold's next record, and
 * gets a stand-in for that record's element, or the fold itself for the fold's root.
 *
 * The next render reads the list from the start, with a cursor: a steady view's calls meet their
 * elements one after another. A call that misses looks a few elements ahead (a row removed above),
 * and otherwise is built while the cursor stays (a row inserted above, or a changed call, whose
 * next call then finds its own element just ahead).
 */
import type { Attrs } from "../../ui/attrs.ts";
import type { Child, UiElement } from "../../ui/types.ts";
import { elementOf, keyedElement } from "../../ui/node.ts";
import { KEYED, recordCall, sameCall } from "./call-record.ts";
import { FoldPart, isRecordRef, resolved, resolvedChildren, TapeRef } from "./fold/fold-part.ts";
import { type ElementCall, type KeyedCall, matchElementCall, matchKeyedCall, TapeCursor } from "./fold/tape-read.ts";

/** How many elements ahead of the cursor a call that misses looks for its own. */
const LOOK_AHEAD = 16;

/** The list of a log between renders: frozen, so that a call logged outside a render (a bug) throws rather than writing into it. */
const NO_ELEMENTS = Object.freeze([]) as unknown as (UiElement | undefined)[];

export class ElementLog {
  /** The previous render's elements (the first `previousCount` of the list), and where the next call's element is expected. */
  private previous: (UiElement | undefined)[] = [];
  private previousCount = 0;
  private cursor = 0;
  /** When the entry at the cursor is a fold: the record the next call is expected to match. */
  private sub = 0;
  /**
   * The elements of the render under way, the first `currentCount` of the list: made at the start
   * of a render as long as the previous one's, because a list grown call by call would be copied
   * again and again on a page of thousands of calls; and dropped at its end, so that a session
   * between events keeps one list.
   */
  private current: (UiElement | undefined)[] = NO_ELEMENTS;
  private currentCount = 0;
  /** The call a look-up is under way for, in one object of the log rather than one per call (no app code runs while it is read). */
  private readonly query: Query = {
    kind: ELEMENT_QUERY,
    tag: "",
    attrs: undefined,
    children: NO_QUERY_CHILDREN,
    key: "",
    node: undefined,
  };
  /** Where a comparison with a fold's record is (src/live/render-state/fold/tape-read.ts). */
  private readonly tape = new TapeCursor(isRecordRef);

  /** A render starts. */
  begin(): void {
    this.current = listFor(this.previousCount);
    this.currentCount = 0;
    this.cursor = 0;
    this.sub = 0;
  }

  /**
   * The element of `h(tag, attrs, ...children)`: the previous render's, when its call was the same.
   * The tag is compared as the call wrote it with the element's (lowercase, checked) tag: a view's
   * tags are lowercase literals, the same string each time, so a hit needs no look-up of the tag;
   * a tag written otherwise never hits, and is built (and checked) each time.
   */
  element(tag: string, attrs: Attrs | null | undefined, children: Child[]): UiElement {
    // The element or record at the cursor first: in a steady view, every call's is there.
    const cursor = this.cursor;
    const query = this.query;
    query.kind = ELEMENT_QUERY;
    query.tag = tag;
    query.attrs = attrs;
    query.children = children;
    let hit: UiElement | undefined;
    if (cursor < this.previousCount) {
      const entry = this.previous[cursor]!;
      if (entry instanceof FoldPart) {
        const record = this.sub;
        if (matchElementCall(this.tape, entry, record, query)) hit = this.foldHit(entry, cursor, record);
      } else if (entry.tag === tag && sameCall(entry, attrs, children)) hit = this.reuse(entry, cursor);
    }
    // The cursor's own place was tried above.
    if (hit === undefined && this.previousCount !== 0) hit = this.find(AFTER_CURSOR);
    query.attrs = undefined;
    query.children = NO_QUERY_CHILDREN;
    if (hit !== undefined) return hit;
    // Stand-ins for a fold's elements among the children are the elements they stand for (src/live/render-state/fold/fold-part.ts).
    const element = elementOf(tag, attrs, resolvedChildren(children));
    recordCall(element, attrs, children);
    this.current[this.currentCount++] = element;
    return element;
  }

  /** The element of `keyed(key, node)`: the previous render's, for the same key and node. */
  keyed(key: string, node: UiElement): UiElement {
    const query = this.query;
    query.kind = KEYED_QUERY;
    query.key = key;
    query.node = node;
    const hit = this.previousCount === 0 ? undefined : this.find(AT_CURSOR);
    query.node = undefined;
    if (hit !== undefined) return hit;
    const inner = resolved(node);
    const element = keyedElement(key, inner);
    element.call = [KEYED, key, inner];
    this.current[this.currentCount++] = element;
    return element;
  }

  /**
   * The previous render's element of the call in the query: the one the cursor expects first, then
   * up to LOOK_AHEAD places after it (the rest of the fold it is in, then the entries after).
   * `from` AFTER_CURSOR: the caller compared the cursor's place already, and it did not match.
   */
  private find(from: FindFrom): UiElement | undefined {
    const triedCursor = from === AFTER_CURSOR;
    const log = this.previous;
    const cursor = this.cursor;
    if (cursor >= this.previousCount) return undefined;
    let probes = LOOK_AHEAD + 1;
    const entry = log[cursor]!;
    if (entry instanceof FoldPart) {
      // The cursor's record, then the records after it in the same fold.
      for (let record = this.sub + (triedCursor ? 1 : 0); record < entry.calls && probes > 0; record++, probes--) {
        if (this.matchRecord(entry, record)) return this.foldHit(entry, cursor, record);
      }
    } else if (!triedCursor && this.sameAsQuery(entry)) return this.reuse(entry, cursor);
    else probes--;
    for (let at = cursor + 1; at < this.previousCount && probes > 0; at++, probes--) {
      const next = log[at]!;
      if (next instanceof FoldPart) {
        // Another fold's calls start at its first record.
        if (this.matchRecord(next, 0)) return this.foldHit(next, at, 0);
      } else if (this.sameAsQuery(next)) return this.reuse(next, at);
    }
    return undefined;
  }

  /**
   * A call matched record `record` of `fold` (the log's entry `at`): the fold itself for its root's
   * record, which ends it; else a stand-in, the cursor on the next record.
   */
  private foldHit(fold: FoldPart, at: number, record: number): UiElement {
    if (record === fold.calls - 1) return this.reuse(fold, at);
    this.cursor = at;
    this.sub = record + 1;
    return new TapeRef(fold, record);
  }

  /**
   * The list the next render reads, in place of this render's: the elements of the page a session
   * keeps, some of them folds (src/live/render-state/fold/fold-tree.ts), in the order the view calls them.
   */
  replacePrevious(list: UiElement[]): void {
    this.previous = list;
    this.previousCount = list.length;
    this.cursor = 0;
    this.sub = 0;
  }

  /** A render finished: its elements are the ones the next render reads. */
  commit(): void {
    this.previous = this.current;
    this.previousCount = this.currentCount;
    this.current = NO_ELEMENTS;
    this.currentCount = 0;
    this.cursor = 0;
    this.sub = 0;
  }

  /** A render failed: its elements are dropped, the previous render's stay. */
  abandon(): void {
    this.current = NO_ELEMENTS;
    this.currentCount = 0;
    this.cursor = 0;
  }

  /** Whether the previous render's element `el` is what the queried call builds. */
  private sameAsQuery(el: UiElement): boolean {
    const query = this.query;
    if (query.kind === ELEMENT_QUERY) return el.tag === query.tag && sameCall(el, query.attrs, query.children);
    const call = el.call;
    return call !== undefined && call[0] === KEYED && call[1] === query.key && call[2] === query.node;
  }

  /** Whether the queried call is record `record` of `fold`'s tape (src/live/render-state/fold/tape-read.ts). */
  private matchRecord(fold: FoldPart, record: number): boolean {
    const query = this.query;
    return query.kind === ELEMENT_QUERY
      ? matchElementCall(this.tape, fold, record, query)
      : matchKeyedCall(this.tape, fold, record, query as KeyedCall);
  }

  /** Takes the element at `at` into this render's log, moves the cursor past it; the element. */
  private reuse(el: UiElement, at: number): UiElement {
    this.current[this.currentCount++] = el;
    this.cursor = at + 1;
    this.sub = 0;
    return el;
  }
}

/** What the log is asked for: a `Ui.h` call or a `Ui.keyed` call. */
const ELEMENT_QUERY = 0, KEYED_QUERY = 1;

/** The call a look-up is under way for: a `Ui.h` call's fields, or a `Ui.keyed` call's. */
type Query = {
  kind: typeof ELEMENT_QUERY | typeof KEYED_QUERY;
  tag: string;
  attrs: ElementCall["attrs"];
  children: ElementCall["children"];
  key: string;
  node: UiElement | undefined;
};
const NO_QUERY_CHILDREN: Child[] = [];

/** Where a look-up starts: at the cursor's own place, or after it (the caller compared that place already). */
type FindFrom = typeof AT_CURSOR | typeof AFTER_CURSOR;
const AT_CURSOR = "at cursor";
const AFTER_CURSOR = "after cursor";

/**
 * The list a render writes its elements into: as long as the previous render's, because a list
 * grown call by call would be copied again and again on a page of thousands of calls.
 */
function listFor(count: number): (UiElement | undefined)[] {
  return new Array(count);
}
