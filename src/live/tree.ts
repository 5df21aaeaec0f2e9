/**
 * The live tree: a view tree with ids assigned (src/live/ids.ts), the form render and diff work
 * on. Id segments, keys and injected style nodes are computed once per render, so the diff that
 * runs on every event only compares.
 *
 * An element stores its id segment, not its whole id: the id is `<parent id>.<seg>`, and the walks
 * that need ids (render, diff, lookups) go down from the root and join the segments of their path
 * only where an id is written out. Building every id string in every render cost about a third of
 * the per-render work and most of its garbage (bench/diff.bench.ts, 10,000 nodes), for ids of which
 * an event writes a handful.
 */
import type { Handlers, MessageRecord, UiRaw, UiText } from "../ui/node.ts";
import type { Flat } from "./flat.ts";
import { childId, type EventKind, type Pass } from "../protocol/mod.ts";

export interface LiveElement {
  readonly kind: "el";
  readonly tag: string;
  /**
   * The id relative to the parent element in the DOM: the element's id (§Node id) is
   * `<parent id>.<seg>`, and the root's is its seg, "r" (see `childId`). Child matching compares
   * segs, so it works under a renamed ancestor.
   */
  readonly seg: string;
  /** The sanitised key, or undefined (§Node id, key priority). */
  readonly key: string | undefined;
  /** A uniquely keyed element or an injected style: its id has no index. */
  readonly indexFree: boolean;
  /** Rendered attributes except svc-id and data-svc-hid, which derive from the id. */
  readonly attrs: Readonly<Record<string, string>>;
  /** DOM children: view children, with each child's injected styles just before it. */
  readonly kids: readonly LiveNode[];
  /** The `name` and `type` attributes (child matching compares them, §Child matching order). */
  readonly name: string | undefined;
  readonly type: string | undefined;
  /**
   * The element's handlers (undefined for none, and for an injected style); with them it carries a
   * data-svc-hid attribute. Only these are kept of the view element, so a session's kept tree does
   * not hold the whole view tree as well. What can be derived (whether a kid is raw HTML) is not
   * stored: every session keeps a tree, and every field is paid per element (bench/live.bench.ts,
   * memory).
   */
  readonly handlers: Handlers | undefined;
  /** The pass, for an injected style. */
  readonly pass: Pass | undefined;
}

export type LiveNode = LiveElement | UiText | UiRaw;

/** Whether the element has handlers, hence a data-svc-hid attribute. */
export function hasHandlerId(el: LiveElement): boolean {
  return el.handlers !== undefined;
}

/** Whether a kid is raw HTML (such children are only ever replaced as a whole, §Patch html). */
export function hasRawKid(el: LiveElement): boolean {
  for (const kid of el.kids) if (kid.kind === "raw") return true;
  return false;
}

export interface LiveTree {
  readonly kind: "tree";
  readonly root: LiveElement;
  /**
   * The tree's content, flat (src/live/flat.ts): what lets the diff find an unchanged subtree
   * without walking it. A session's trees have one (up to a size); others do not.
   */
  readonly flat: Flat | undefined;
}

export { childId } from "../protocol/mod.ts";

/**
 * The element with this id, found by walking down the id's own path rather than through an index
 * of every id: an event names a handful of ids, and a map of all ids per render cost more than the
 * diff itself (each id string hashed, hence flattened; 1.3 ms of 2 ms for 2,000 handlers). An id is
 * `<parent id>.<seg>`, and an injected style's seg `<owner seg>.~<pass>` sits beside its owner in
 * the parent's kids (src/live/ids.ts), so at each level the rest of the wanted id either is one
 * kid's seg or starts with the seg, followed by ".", of the one kid it lies below.
 */
export function findElement(tree: LiveTree, id: string): LiveElement | undefined {
  let el: LiveElement = tree.root;
  if (id === el.seg) return el;
  if (!id.startsWith(el.seg) || id.charCodeAt(el.seg.length) !== 46 /* . */) return undefined;
  let at = el.seg.length + 1; // where the rest of the id starts
  for (;;) {
    let below: LiveElement | undefined;
    for (const kid of el.kids) {
      if (kid.kind !== "el") continue;
      const seg = kid.seg;
      if (!id.startsWith(seg, at)) continue;
      const end = at + seg.length;
      if (end === id.length) return kid;
      if (below === undefined && id.charCodeAt(end) === 46) below = kid;
    }
    if (below === undefined) return undefined;
    at += below.seg.length + 1;
    el = below;
  }
}

/** Calls `visit` with every element of the tree and its id, depth first, parents before children. */
export function forEachElement(tree: LiveTree, visit: (el: LiveElement, id: string) => void): void {
  const walk = (el: LiveElement, id: string): void => {
    visit(el, id);
    for (const kid of el.kids) if (kid.kind === "el") walk(kid, childId(id, kid.seg));
  };
  walk(tree.root, tree.root.seg);
}

/** The handlers of the element with this id in this render, if it has any. */
export function handlersOf(tree: LiveTree, handlerId: string): Handlers | undefined {
  return findElement(tree, handlerId)?.handlers;
}

/**
 * The message a posted `handlerId` and event kind dispatch in this render, or undefined when the
 * node is gone or does not listen to that event (a stale click after a re-render).
 */
export function handlerFor(tree: LiveTree, handlerId: string, kind: EventKind): MessageRecord | undefined {
  return handlersOf(tree, handlerId)?.[kind];
}
