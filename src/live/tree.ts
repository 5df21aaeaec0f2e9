/**
 * The live tree: a view tree with ids assigned (src/live/ids.ts), the form render and diff work
 * on. Id segments, keys and injected style nodes are computed once per render, so the diff that
 * runs on every event only compares.
 *
 * A live element is, most of the time, the view element itself: the id walk writes its seg and kids
 * into it the first time it places it (src/live/ids.ts), so a kept page holds one object per
 * element. Copies, injected styles and elements placed before elsewhere are objects of their own,
 * of the same shape (`liveElement`).
 *
 * An element stores its id segment, not its whole id: the id is `<parent id>.<seg>`, and the walks
 * that need ids (render, diff, lookups) go down from the root and join the segments of their path
 * only where an id is written out. Building every id string in every render cost a large share of
 * the per-render work and most of its garbage (bench/diff.bench.ts; the figure is in
 * bench/RESULTS.md), for ids of which an event writes a handful.
 */
import {
  type ElementExtras,
  elementExtras,
  type Handlers,
  type MessageRecord,
  NO_CHILDREN,
  type UiElement,
  type UiElementFields,
  type UiNode,
  type UiRaw,
  type UiText,
} from "../ui/node.ts";
import { childId, type EventKind, ID_SEPARATOR, type Pass } from "../protocol/mod.ts";
import { Part } from "./render-state/lazy-part.ts";
import type { RenderProbe } from "./probe.ts";

/** The char code of the separator between an id's segments (docs/protocol.md#id-grammar). */
const SEPARATOR_CODE = ID_SEPARATOR.charCodeAt(0);

/**
 * An element of a rendered live tree, with its id: a view element the id walk placed, its seg and
 * kids written, or an element the walk made with the same fields (`liveElement`).
 */
export interface LiveElement extends UiElementFields {
  /** Always "el". */
  readonly kind: "el";
  /** The lowercase tag. */
  readonly tag: string;
  /**
   * The id relative to the parent element in the DOM: the element's id (docs/protocol.md#node-ids) is
   * `<parent id>.<seg>`, and the root's is its seg, "r" (see `childId`). Child matching compares
   * segs, so it works under a renamed ancestor.
   */
  readonly seg: string;
  /** The sanitised key, or undefined (docs/protocol.md#keys). */
  readonly key: string | undefined;
  /** Rendered attributes except svc-id, which derives from the id (docs/protocol.md#derived-ids). */
  readonly attrs: Readonly<Record<string, string>>;
  /** DOM children: view children, with each child's injected styles just before it. */
  readonly kids: readonly LiveNode[];
  /**
   * The element's handlers (undefined for none, and for an injected style), which its message
   * attributes render. What can be derived (whether a kid is raw HTML) is not stored: every
   * session keeps a tree, and every field is paid per element (docs/deployment.md#memory).
   */
  readonly handlers: Handlers | undefined;
  /** For an injected style, its pass (`extras.pass`); undefined for most elements. */
  readonly extras: ElementExtras | undefined;
}

/** A node of a rendered live tree. */
export type LiveNode = LiveElement | UiText | UiRaw;

/**
 * A uniquely keyed element or an injected style: its id has no index. Read from the seg, which
 * says so (`#tag:key`, docs/protocol.md#id-grammar), rather than kept in a field of every element.
 */
export function isIndexFree(el: LiveElement): boolean {
  return el.seg.charCodeAt(0) === HASH_CODE || passOf(el) !== undefined;
}

/** The pass of an injected style node; undefined for any other element. */
export function passOf(el: LiveElement): Pass | undefined {
  return el.extras?.pass;
}

/** The char code that starts an index-free seg. */
const HASH_CODE = "#".charCodeAt(0);

/** Whether the element has handlers (child matching compares it). */
export function hasHandlerId(el: LiveElement): boolean {
  return el.handlers !== undefined;
}

/** Whether a kid is raw HTML (such children are only ever replaced as a whole, docs/protocol.md#patches html). */
export function hasRawKid(el: LiveElement): boolean {
  for (const kid of el.kids) if (kid.kind === "raw") return true;
  return false;
}

/**
 * A copy of `el` holding `kids` (the diff's kept tree, src/live/diff/diff.ts). A lazy part is never
 * copied: it builds its own kids again when read, a copy would hold them for good, and the next
 * render hands back the part itself (src/live/render-state/lazy-part.ts).
 */
export function withKids(el: LiveElement, kids: readonly LiveNode[]): LiveElement {
  if (el instanceof Part) return el;
  const copy: UiElement = liveElement(el, el.seg, kids, el.extras?.pass);
  // The copy stands for the call `el` stands for: it keeps that call and its view children, so the
  // next render's same call gets the copy back (src/live/render-state/element-log.ts) and the fold pass can write
  // its calls (src/live/render-state/fold/fold-tree.ts). Not when `el` has extras: style props, or a subtree
  // with injected styles (noted `live: null` by the id walk, src/live/ids.ts), whose CSS names
  // whole ids and must be placed afresh; such a copy is built again by the next render.
  if (el.extras === undefined) {
    (copy as { children: readonly UiNode[] }).children = el.children;
    copy.call = el.call;
  }
  return copy as LiveElement;
}

/**
 * A live element that is not a view element: a copy, an injected style, or the node of a view
 * element the id walk could not make its own (src/live/ids.ts). Written with every field of a view
 * element, in the order src/ui/node.ts writes them, so all element objects have one shape.
 */
export function liveElement(face: ElementFace, seg: string, kids: readonly LiveNode[], pass?: Pass): LiveElement {
  return {
    kind: "el",
    tag: face.tag,
    attrs: face.attrs,
    handlers: face.handlers,
    children: NO_CHILDREN,
    key: face.key,
    call: undefined,
    seg,
    kids,
    extras: elementExtras(undefined, pass, undefined),
  };
}

/** What a live element is besides its place, kids and pass: its tag, key, attributes and handlers. */
export type ElementFace = Pick<LiveElement, "tag" | "key" | "attrs" | "handlers">;

/** The element's first child's text, or "" (the content of style, script, textarea, title). */
export function textOf(el: LiveElement): string {
  const first = el.kids[0];
  return first !== undefined && first.kind === "text" ? first.text : "";
}

/** A rendered view with ids assigned: what the diff compares (docs/protocol.md#node-ids). */
export interface LiveTree {
  /** Always "tree". */
  readonly kind: "tree";
  /** The root element, whose id is "r". */
  readonly root: LiveElement;
}

export { childId } from "../protocol/mod.ts";

/**
 * The element with this id, found by walking down the id's own path rather than through an index
 * of every id: an event names a handful of ids, and a map of all ids per render cost more than the
 * diff itself (each id string hashed, hence flattened; 1.3 ms of 2 ms for 2,000 handlers). An id is
 * `<parent id>.<seg>`, and an injected style's seg `<owner seg>.~<pass>` sits beside its owner in
 * the parent's kids (src/live/ids.ts), so at each level the rest of the wanted id either is one
 * kid's seg or starts with the seg, followed by ".", of the one kid it lies below.
 *
 * `probe`: the test hook that counts the kids a look-up looks at (`looked`, src/live/probe.ts), so
 * that a test can show the bookkeeping of an event follows the ids it names, not the page or what a
 * tab did before (tests/live-server/input-bookkeeping.test.ts).
 */
export function findElement(tree: LiveTree, id: string, probe?: RenderProbe): LiveElement | undefined {
  let el: LiveElement = tree.root;
  if (id === el.seg) return el;
  if (!id.startsWith(el.seg) || id.charCodeAt(el.seg.length) !== SEPARATOR_CODE) return undefined;
  let at = el.seg.length + 1; // where the rest of the id starts
  for (;;) {
    let below: LiveElement | undefined;
    // An unkeyed or shared-key seg starts with the child's index among the view children, and the
    // kid sits there, or further on by the injected styles before it: looked at first, so a row of
    // a long list is found without scanning its siblings.
    const hinted = kidAtIndex(el, id, at, probe) ?? kidAtLastPlace(el, id, at, probe);
    if (hinted !== undefined) {
      const end = at + hinted.seg.length;
      if (end === id.length) return hinted;
      below = hinted;
    } else {
      const kids = el.kids;
      for (let k = 0; k < kids.length; k++) {
        if (probe !== undefined) probe.looked++;
        const kid = kids[k] as LiveNode;
        if (kid.kind !== "el") continue;
        const seg = kid.seg;
        if (!id.startsWith(seg, at)) continue;
        const end = at + seg.length;
        if (end === id.length) {
          notePlace(seg, k);
          return kid;
        }
        if (below === undefined && id.charCodeAt(end) === SEPARATOR_CODE) {
          below = kid;
          notePlace(seg, k);
        }
      }
    }
    if (below === undefined) return undefined;
    at += below.seg.length + 1;
    el = below;
  }
}

/**
 * Where a keyed kid (`#tag:key`, no index in its seg) was last found among its siblings, by its
 * seg: a keyed row of a long list is looked up again and again (its handler, its input's reports,
 * the pruning of stored input seqs) and mostly stays where it was, and its seg alone does not say
 * where that is. Shared by every tree, since rows of one page have the same segs in every session;
 * a stale place is only a miss, checked against the kid's seg. Bounded: cleared when full.
 */
const LAST_PLACE = new Map<string, number>();
const LAST_PLACE_LIMIT = 65_536;

function notePlace(seg: string, at: number): void {
  if (seg.charCodeAt(0) !== HASH_CODE) return;
  if (LAST_PLACE.size >= LAST_PLACE_LIMIT) LAST_PLACE.clear();
  LAST_PLACE.set(seg, at);
}

/**
 * The kid of `el` whose seg is the keyed seg that starts `id` at `at` (up to the next "." or the
 * end), found at the place the last scan found it; undefined otherwise (the caller scans). An id
 * that goes on with an injected style's pass (`.~pass`) is left to the scan, which tells the style
 * from its owner.
 */
function kidAtLastPlace(el: LiveElement, id: string, at: number, probe: RenderProbe | undefined): LiveElement | undefined {
  if (id.charCodeAt(at) !== HASH_CODE) return undefined;
  const dot = id.indexOf(ID_SEPARATOR, at);
  const end = dot < 0 ? id.length : dot;
  if (dot >= 0 && id.charCodeAt(dot + 1) === TILDE_CODE) return undefined;
  const seg = id.slice(at, end);
  const place = LAST_PLACE.get(seg);
  if (place === undefined) return undefined;
  if (probe !== undefined) probe.looked++;
  const kid = el.kids[place];
  return kid !== undefined && kid.kind === "el" && kid.seg === seg ? kid : undefined;
}

const TILDE_CODE = "~".charCodeAt(0);

/** How far past its index a kid is looked for: injected styles before it move it, a few at most. */
const HINT_REACH = 8;

/**
 * The kid of `el` whose seg starts `id` at `at` and ends there or at a ".", when that seg starts
 * with an index (`<index>#<tag>…`) and the kid is within HINT_REACH of it; else undefined (the
 * caller scans). A style seg (`<owner seg>.~<pass>`) also starts with its owner's index, and is the
 * owner's sibling just before it: the longer match, the style, is taken when the id names it.
 */
function kidAtIndex(el: LiveElement, id: string, at: number, probe: RenderProbe | undefined): LiveElement | undefined {
  let index = 0;
  let k = at;
  for (let c = id.charCodeAt(k); c >= 48 && c <= 57; c = id.charCodeAt(++k)) index = index * 10 + (c - 48);
  if (k === at || id.charCodeAt(k) !== 35 /* # */) return undefined;
  const kids = el.kids;
  let found: LiveElement | undefined;
  for (let i = index, end = Math.min(kids.length, index + 1 + HINT_REACH); i < end; i++) {
    if (probe !== undefined) probe.looked++;
    const kid = kids[i] as LiveNode;
    if (kid.kind !== "el" || !id.startsWith(kid.seg, at)) continue;
    const stop = at + kid.seg.length;
    if (stop === id.length) return kid;
    if (id.charCodeAt(stop) === SEPARATOR_CODE) found ??= kid;
  }
  return found;
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
 *
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * const tree = Live.assignIds(Ui.h("ul", {}, Ui.keyed("a", Ui.h("li", { onClick: ["Pick", 1] }, "Apples"))));
 * console.log(Live.handlerFor(tree, "r.#li:a", "click")); // the message Pick with the argument 1
 * console.log(Live.handlerFor(tree, "r.#li:gone", "click")); // undefined
 * ```
 */
export function handlerFor(tree: LiveTree, handlerId: string, kind: EventKind): MessageRecord | undefined {
  return handlersOf(tree, handlerId)?.[kind];
}
