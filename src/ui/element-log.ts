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
 * (src/live/ids.ts, src/live/diff.ts), as they skip static parts built once. This is what
 * LiveView's change tracking or a template compiler (src/ui/template.ts) knows from the markup,
 * found here from the values, with no change to the app.
 *
 * The log. Each render writes a list of records, one per call in call order, each one flat array:
 *
 *   [tag, element, n, key 1, value 1, …, key n, value n, child 1, child 2, …]
 *
 * `tag` is the call's tag info (or KEYED for `Ui.keyed`, whose record is its key and element). The
 * values are a copy of the bag's values as data (src/ui/same-value.ts), so a bag mutated in place is
 * seen as changed; the children are flattened as `Ui.h` flattens them (nested arrays spread; null,
 * booleans and empty texts dropped; texts as strings, numbers as their text; elements and raw HTML
 * as themselves). A call is the same as a record when the tag is, the bag holds the same keys in
 * the same order with the same values, and the children are the same items (elements by
 * identity). A hit is therefore always what a build would give; anything else is built.
 *
 * The next render reads the list from the start, with a cursor: a steady view's calls meet their
 * records one after another. A call that misses looks a few records ahead (a row removed above),
 * and otherwise is built while the cursor stays (a row inserted above, or a changed call, whose
 * next call then finds its own record just ahead). On a busy server the previous render's log has
 * left the processor's caches by the next event: a hit reads the list in order and one array for
 * its record, and writes one reference; records of several small objects, in per-tag lists found
 * through a map, cost more than building the element.
 */
import { type Attrs, CHILDREN_PROP } from "./attrs.ts";
import type { Child, UiElement, UiNode } from "./types.ts";
import { keptCopy, sameValue } from "./same-value.ts";

/** Where a record's parts are. */
const TAG = 0, ELEMENT = 1, ATTR_COUNT = 2, ATTRS = 3;

/** How many records ahead of the cursor a call that misses looks for its own. */
const LOOK_AHEAD = 16;

/** The tag slot of a `Ui.keyed` call's record: `[KEYED, element, key, inner element]`. */
const KEYED = {};
const KEYED_KEY = 2, KEYED_NODE = 3;

type CallRecord = unknown[];

/** Builds a call's element on a miss. */
export type BuildElement<Tag> = (tag: Tag, attrs: Attrs | null | undefined, children: Child[]) => UiElement;

export class ElementLog {
  /** The previous render's records, and where the next call's record is expected. */
  private previous: CallRecord[] = [];
  private cursor = 0;
  /** The records of the render under way. */
  private current: CallRecord[] = [];

  /** The element of `h(tag, attrs, ...children)`: the previous render's, when its call was the same. */
  element<Tag extends object>(tag: Tag, attrs: Attrs | null | undefined, children: Child[], build: BuildElement<Tag>): UiElement {
    const log = this.previous;
    for (let at = this.cursor, end = this.searchEnd(); at < end; at++) {
      const record = log[at]!;
      if (record[TAG] === tag && sameRecord(record, attrs, children)) return this.reuse(record, at);
    }
    const element = build(tag, attrs, children);
    // Written after the build: it throws on bad input, and then nothing is recorded.
    const record: CallRecord = [tag, element, 0];
    let n = 0;
    // The same for-in as `sameRecord`, so the two read the same keys.
    if (attrs !== null && attrs !== undefined) {
      for (const key in attrs) {
        if (key === CHILDREN_PROP) continue; // a JSX bag's children are the call's children
        record.push(key, keptCopy((attrs as { [key: string]: unknown })[key]));
        n++;
      }
    }
    record[ATTR_COUNT] = n;
    // `build` may have written into `children` (texts as text nodes), which flatten alike.
    recordChildren(children, record);
    this.current.push(record);
    return element;
  }

  /** The element of `keyed(key, node)`: the previous render's, for the same key and node. */
  keyed(key: string, node: UiElement, build: (key: string, node: UiElement) => UiElement): UiElement {
    const log = this.previous;
    for (let at = this.cursor, end = this.searchEnd(); at < end; at++) {
      const record = log[at]!;
      if (record[TAG] === KEYED && record[KEYED_KEY] === key && record[KEYED_NODE] === node) return this.reuse(record, at);
    }
    const element = build(key, node);
    this.current.push([KEYED, element, key, node]);
    return element;
  }

  /** A render finished: its records are the ones the next render reads. */
  commit(): void {
    const spare = this.previous;
    this.previous = this.current;
    spare.length = 0;
    this.current = spare;
    this.cursor = 0;
  }

  /** A render failed: its records are dropped, the previous render's stay. */
  abandon(): void {
    this.current.length = 0;
    this.cursor = 0;
  }

  /** Where the search for a call's record stops: the record at the cursor and LOOK_AHEAD after it. */
  private searchEnd(): number {
    return Math.min(this.previous.length, this.cursor + 1 + LOOK_AHEAD);
  }

  /** Takes the record at `at` into this render's log, moves the cursor past it; its element. */
  private reuse(record: CallRecord, at: number): UiElement {
    this.current.push(record);
    this.cursor = at + 1;
    return record[ELEMENT] as UiElement;
  }
}

/** Whether the record is of a call with these attributes and children (its tag matched). */
function sameRecord(record: CallRecord, attrs: Attrs | null | undefined, children: readonly Child[]): boolean {
  let i = ATTRS;
  const attrsEnd = i + 2 * (record[ATTR_COUNT] as number);
  // for-in with the bag's own keys read back is the engine's fast path for a bag of any shape.
  if (attrs !== null && attrs !== undefined) {
    for (const key in attrs) {
      if (key === CHILDREN_PROP) continue;
      if (i === attrsEnd || record[i] !== key) return false;
      const value = (attrs as { [key: string]: unknown })[key], was = record[i + 1];
      if (value !== was && !sameValue(was, value)) return false;
      i += 2;
    }
  }
  if (i !== attrsEnd) return false;
  return childrenEnd(record, children, i) === record.length;
}

/** What `childrenEnd` answers when the children differ from the record's. */
const DIFFERENT = -1;

/**
 * Where the record's children read from `at` end when they are the same items as `children`
 * (nested arrays read in place), or DIFFERENT.
 */
function childrenEnd(record: CallRecord, children: readonly Child[], at: number): number {
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (Array.isArray(child)) {
      at = childrenEnd(record, child as readonly Child[], at);
      if (at === DIFFERENT) return DIFFERENT;
      continue;
    }
    const item = childItem(child as Child);
    if (item === undefined) continue;
    const was = record[at++];
    if (item === was) continue;
    // Raw HTML built again with the same markup; anything else differs.
    if (typeof item !== "object" || item.kind !== "raw" || typeof was !== "object" || was === null) return DIFFERENT;
    if ((was as UiNode).kind !== "raw" || (was as { html: string }).html !== item.html) return DIFFERENT;
  }
  return at;
}

function recordChildren(children: readonly Child[], record: CallRecord): void {
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (Array.isArray(child)) recordChildren(child as readonly Child[], record);
    else {
      const item = childItem(child as Child);
      if (item !== undefined) record.push(item);
    }
  }
}

/** A child as a record holds it: a non-empty string, an element or raw node; undefined when it vanishes. */
function childItem(child: Child): string | UiNode | undefined {
  if (child === null || child === undefined || child === true || child === false || child === "") return undefined;
  if (typeof child === "string") return child;
  if (typeof child === "number") return String(child);
  const node = child as UiNode;
  return node.kind === "text" ? (node.text === "" ? undefined : node.text) : node;
}
