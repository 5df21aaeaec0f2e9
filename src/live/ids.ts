/**
 * Structural node ids (docs/protocol.md#node-ids): assignment and parsing.
 *
 * Grammar (the spec's, with one extension for tags):
 *
 * ```
 * id       = "r" *( "." segment ) [ "." style ]
 * segment  = index "#" tag                  ; unkeyed element
 *          / "#" tag ":" key                ; key unique among same-tag siblings
 *          / index "#" tag ":" key          ; key shared by same-tag siblings
 * style    = "~" pass                       ; injected style of the element the prefix names
 * index    = 1*DIGIT                        ; position among the view children, text included
 * tag      = LOWER [ *( LOWER / DIGIT / "-" ) ( LOWER / DIGIT ) ]
 * key      = 1*( ALPHA / DIGIT / "-" / "_" )
 * pass     = "mq" / "pc" / "tr" / "anim"
 * ```
 *
 * Tag extension: the spec's tag is "letters only", which cannot name `h1`…`h6` or custom elements
 * (`my-widget`). A tag here is a lowercase letter, then lowercase letters, digits and hyphens, not
 * ending in a hyphen. Ids stay unambiguous because a tag still never holds `.`, `#`, `:` or `~`:
 * `.` ends a segment, `#` starts the tag, `:` ends it, so a left-to-right split on `.` and a match
 * of each segment against the rules above parses any id in one pass. Every spec-conforming id is
 * still valid, and `r.` prefix selectors keep working (docs/protocol.md#versioning).
 *
 * Assignment:
 * - key priority: a non-empty `svc-key`; else a non-empty `name` on input, textarea, select, form,
 *   button, fieldset; else none. Sanitising replaces every code point outside ASCII letters,
 *   digits, `-` and `_` by `_`. Uniqueness is judged on the sanitised key among same-tag siblings.
 * - index: the position among the element's view children; text and raw HTML children count.
 * - an element's injected styles are DOM siblings placed just before it (a void `input` cannot hold
 *   a `<style>`), with ids `<owner>.~<pass>`; the root's own styles are its first children. Styles
 *   do not count in the index.
 */
import { elementExtras, NAME_KEYED_TAGS, type UiElement, type UiNode } from "../ui/node.ts";
import { Part, type Placement } from "./render-state/lazy-part.ts";
import type { FoldPart } from "./render-state/fold/fold-part.ts";
import { passCss } from "../ui/styles.ts";
import { NONE_SHARED, sharedByScan, sharedKeysOf } from "./shared-keys.ts";
import { childId, ID_SEPARATOR, type Pass, PASSES, ROOT_ID } from "../protocol/mod.ts";
import { type ElementFace, type LiveElement, liveElement, type LiveNode, type LiveTree } from "./tree.ts";
import type { RenderProbe } from "./probe.ts";

export { NAME_KEYED_TAGS };

export { sanitizeKey } from "../protocol/mod.ts";

/**
 * The sanitised key of an element, or undefined (docs/protocol.md#keys; set by the builders).
 *
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * const row = Ui.keyed("order 17", Ui.h("li", {}, "Order 17"));
 * console.log(Live.keyOf(row)); // "order_17": a key keeps only letters, digits, - and _
 * ```
 */
export function keyOf(el: UiElement): string | undefined {
  return el.key;
}

/**
 * Assigns ids to a view tree: one walk, done once per render. A root that is a lazy part is
 * walked as the element it built, which the part then keeps. The ids are the ones the page's
 * elements carry (docs/protocol.md#node-ids); `Live.render` and `Live.diff` assign them for you.
 *
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * const tree = Live.assignIds(Ui.h("ul", {}, Ui.keyed("a", Ui.h("li", {}, "Apples"))));
 * console.log(tree.root.kids[0]); // the <li>, whose segment is "#li:a"
 * ```
 */
export function assignIds(root: UiElement): LiveTree {
  return new IdWalk(undefined).tree(root);
}

/**
 * One walk of a view tree: the segs from the root down to the element being resolved (`path[0]`
 * is "r"; an element keeps only its seg, src/live/tree.ts, and a whole id is joined from here only
 * for an element with injected styles, whose CSS names its owner's id), the injected style nodes
 * it built so far (a subtree that made none may be reused, see `reusedOrResolved`), and the test
 * hook that counts the elements it resolves (src/live/probe.ts).
 */
export class IdWalk {
  private readonly path: string[] = [];
  private stylesMade = 0;

  constructor(private readonly probe: RenderProbe | undefined) {}

  /** The live tree of `root`, ids assigned (see `assignIds`). */
  tree(root: UiElement): LiveTree {
    if (root instanceof Part) root = root.keptView();
    const rootStyles = root.extras?.passes?.map((p) => this.styleNode("", p.pass, passCss(p, ROOT_ID)));
    return { kind: "tree", root: this.resolve(root, ROOT_ID, rootStyles, 0) };
  }

  /**
   * The live element for `el` and, recursively, its children. `leading`: nodes that go before the
   * children (the root's own injected styles). `depth`: the element's place in `path`.
   */
  resolve(el: UiElement, seg: string, leading: LiveNode[] | undefined, depth: number): LiveElement {
    if (this.probe !== undefined) this.probe.walked++;
    const children = el.children;
    // A render allocates per element, and the garbage collector pays for every byte (bench/diff,
    // 10,000 nodes): an element without element children (a leaf, a cell of text) shares its view
    // children as its kids, and other kids arrays are allocated at their final size (growing one
    // from [] reserves 17 slots at the first push).
    let size = children.length + (leading?.length ?? 0);
    let elements = 0;
    let keyed = 0;
    let firstKeyed = -1;
    for (let i = 0; i < children.length; i++) {
      const child = children[i] as UiNode;
      if (child.kind === "el") {
        elements++;
        if (child.key !== undefined && keyed++ === 0) firstKeyed = i;
        size += child.extras?.passes?.length ?? 0;
      }
    }
    // No element among them: the view children are texts and raw HTML only, which are live nodes as they are.
    if (elements === 0 && leading === undefined) {
      return liveElementOf(el, seg, children as readonly LiveNode[]);
    }
    this.path[depth] = seg;
    const kids = new Array<LiveNode>(size);
    let w = 0;
    if (leading !== undefined) { for (const node of leading) kids[w++] = node; }
    // A lone keyed child (an input in its wrapper, the usual case) is unique without comparing keys,
    // and so are the rows of a `Ui.each` list whose keys it found all different (src/live/render-state/list-memo.ts).
    const shared = keyed <= SCAN_KEYS ? undefined : sharedKeysOf(children, firstKeyed, keyed);
    for (let i = 0; i < children.length; i++) {
      const child = children[i] as UiNode;
      if (child.kind !== "el") {
        kids[w++] = child;
        continue;
      }
      const k = child.key;
      const unique = k !== undefined &&
        (keyed === 1 || shared === NONE_SHARED || (shared === undefined ? !sharedByScan(children, i, child.tag, k) : shared[i] === 0));
      const passes = child.extras?.passes;
      // A uniquely keyed child placed before under the seg it gets now (a row of a kept list) is
      // taken as it is, without joining its seg again: one string per row of a long list per render.
      if (unique && passes === undefined) {
        const cached = lastLive(child);
        if (cached !== undefined && isUniqueKeyedSeg(cached.seg)) {
          kids[w++] = cached;
          continue;
        }
      }
      const childSeg = k === undefined ? unkeyedSeg(i, child.tag) : unique ? `#${child.tag}:${k}` : `${i}#${child.tag}:${k}`;
      if (passes) {
        const ownerId = childId(this.path.slice(0, depth + 1).join(ID_SEPARATOR), childSeg);
        for (const p of passes) kids[w++] = this.styleNode(childSeg + ID_SEPARATOR, p.pass, passCss(p, ownerId));
      }
      kids[w++] = this.reusedOrResolved(child, childSeg, depth + 1);
    }
    return liveElementOf(el, seg, sameAsChildren(kids, children) ? (children as readonly LiveNode[]) : kids);
  }

  /**
   * A view element the view handed back again (built once outside `view`, or memoised) keeps the
   * live element built from it last time when it sits under the same seg: its segs are relative to
   * its parent, so the subtree is the same wherever that is, and the diff skips a pair that is one
   * object. Not when the subtree holds injected styles, whose CSS names whole ids.
   */
  private reusedOrResolved(child: UiElement, seg: string, depth: number): LiveElement {
    const cached = lastLive(child);
    if (cached !== undefined && cached.seg === seg) return cached;
    const stylesBefore = this.stylesMade;
    const live = child instanceof Part ? this.placePart(child, seg, depth) : this.resolve(child, seg, undefined, depth);
    remember(child, live, this.stylesMade !== stylesBefore);
    return live;
  }

  /**
   * A lazy part under `seg`: the element it built, walked as any other, gives the part its live
   * children, and the part stands in the tree for that element (src/live/render-state/lazy-part.ts), so that it can
   * drop them and place them again later (`placeDetached`).
   */
  private placePart(part: Part, seg: string, depth: number): LiveElement {
    const stylesBefore = this.stylesMade;
    const kids = this.resolve(part.view(), seg, undefined, depth).kids as readonly UiNode[];
    return part.placedAt(seg, kids, this.stylesMade !== stylesBefore ? STYLED : UNSTYLED) as LiveElement;
  }

  /** An injected style: a sibling of its owner (`ownerSeg` is the owner's seg and "."), or a first child of the root (""). */
  private styleNode(ownerSeg: string, pass: Pass, css: string): LiveElement {
    this.stylesMade++;
    return liveElement(STYLE_FACE, `${ownerSeg}~${pass}`, [{ kind: "text", text: css }], pass);
  }
}

/**
 * Whether every kid is its view child itself (each a view element that is its own live element, or
 * a text): then the element's kids are its view children, and no second list is kept.
 */
function sameAsChildren(kids: readonly LiveNode[], children: readonly UiNode[]): boolean {
  if (kids.length !== children.length) return false;
  for (let i = 0; i < kids.length; i++) if ((kids[i] as unknown) !== children[i]) return false;
  return true;
}

/**
 * Whether the seg of the live element last built from a keyed child is the seg of a uniquely keyed
 * element, `#<tag>:<key>`, rather than `<index>#<tag>:<key>` (a key its siblings share): that live
 * element was built from this child, of this tag and key, so its seg is the one the child gets now
 * exactly when it starts with "#". Comparing the tag and key again cost a fifth of an event on a
 * 2,000-row list (bench/table.bench.ts).
 */
function isUniqueKeyedSeg(seg: string): boolean {
  return seg.charCodeAt(0) === HASH;
}

const HASH = "#".charCodeAt(0);

/**
 * A fold made of the kept subtree `live` (src/live/render-state/fold/fold-tree.ts), placed where that subtree is:
 * under its seg, with its live children until the fold releases them.
 */
export function placeFold(fold: FoldPart, live: LiveElement): FoldPart {
  return fold.placedAt(live.seg, live.kids as readonly UiNode[], UNSTYLED) as FoldPart;
}

/**
 * The live children of a part's element built again, under the part's seg, outside any walk: its
 * subtree holds no injected styles (a part with some keeps its children), so the path above it is
 * not needed; it is a walk of its own, so a walk under way keeps its state.
 */
function placeDetached(view: UiElement, seg: string): readonly UiNode[] {
  return new IdWalk(undefined).resolve(view, seg, undefined, 0).kids as readonly UiNode[];
}

/** What an injected style node is besides its seg, kids and pass. */
const STYLE_FACE: ElementFace = { tag: "style", key: undefined, attrs: Object.freeze({}), handlers: undefined };

/** A part placed with injected styles among its children, or without. */
const STYLED: Placement = { styled: true, placeKids: placeDetached };
const UNSTYLED: Placement = { styled: false, placeKids: placeDetached };

/**
 * The live element last built from `child`: the one its extras note, if they note one (null: none
 * to reuse); else the element itself, once placed in place (its seg written); else none.
 */
function lastLive(child: UiElement): LiveElement | undefined {
  const noted = child.extras?.live;
  // Only this walk writes the note, and it writes live elements (see `remember`).
  if (noted !== undefined) return (noted ?? undefined) as LiveElement | undefined;
  return child.seg === undefined ? undefined : (child as LiveElement);
}

/**
 * Notes the live element built from a view element. The usual case, the element placed in place
 * as its own live element, needs no note (its seg says it); another object is noted in its extras,
 * and so is a subtree with injected styles (null: resolved again each render). An app may have
 * frozen a view constant, which then keeps nothing, and is walked again on every render.
 */
function remember(child: UiElement, live: LiveElement, styled: boolean): void {
  const extras = child.extras;
  const note = styled ? null : (live as unknown) === child ? undefined : live;
  if (note === extras?.live) return;
  try {
    child.extras = elementExtras(extras?.passes, extras?.pass, note);
  } catch {
    // Frozen: it keeps nothing.
  }
}

/**
 * The live element of `el` under `seg`: `el` itself, the first time it is placed (its live fields
 * written in), so a kept page holds one object per element rather than a view element and a live
 * one beside it (docs/deployment.md#memory); a new one when `el` was placed before (under
 * another seg, or with injected styles whose CSS named other ids) or is frozen.
 */
function liveElementOf(el: UiElement, seg: string, kids: readonly LiveNode[]): LiveElement {
  if (el.seg === undefined && placedInPlace(el, seg, kids)) return el as LiveElement;
  return liveElement(el, seg, kids);
}

/** Writes the live fields into a view element never placed before; false when it is frozen. */
function placedInPlace(el: UiElement, seg: string, kids: readonly LiveNode[]): boolean {
  try {
    el.seg = seg;
    el.kids = kids as readonly UiNode[];
    return true;
  } catch {
    return false; // an app's frozen view constant
  }
}

/**
 * Unkeyed segments (`<index>#<tag>`) are shared between renders: built once, and the same string
 * each time, so comparing the segs of two renders is one pointer check. Bounded.
 */
const SEGS = new Map<string, string[]>();
const SEG_LIMIT = 65_536;
/** How many segs SEGS holds. */
const SEGS_HELD = { count: 0 };

function unkeyedSeg(index: number, tag: string): string {
  let list = SEGS.get(tag);
  const known = list?.[index];
  if (known !== undefined) return known;
  const seg = `${index}#${tag}`;
  if (SEGS_HELD.count < SEG_LIMIT) {
    if (list === undefined) SEGS.set(tag, list = []);
    list[index] = seg;
    SEGS_HELD.count++;
  }
  return seg;
}

/** Up to this many keyed siblings, uniqueness is checked by a scan instead of building sets. */
const SCAN_KEYS = 16;

/** One parsed id: the last segment and the id it hangs from. */
export type ParsedId =
  | { readonly kind: "root" }
  | {
    readonly kind: "element";
    /** The id of the element's parent. */
    readonly parent: string;
    /** Its position among its parent's children, or undefined for a keyed element. */
    readonly index: number | undefined;
    /** Its tag name. */
    readonly tag: string;
    /** Its key, or undefined. */
    readonly key: string | undefined;
  }
  | { readonly kind: "style"; readonly owner: string; readonly pass: Pass };

const TAG_RE = "[a-z](?:[a-z0-9-]*[a-z0-9])?";
const SEGMENT = new RegExp(`^(?:(\\d+)#(${TAG_RE})(?::([A-Za-z0-9_-]+))?|#(${TAG_RE}):([A-Za-z0-9_-]+))$`);

/**
 * Parses a node id (docs/protocol.md#id-grammar): the root, an element under its parent (by
 * position, or by key), or an injected style; undefined when it does not conform.
 *
 * @example
 * ```ts
 * import { Live } from "svc-live";
 *
 * const id = Live.parseId("r.#li:r2");
 * if (id?.kind === "element") console.log(id.parent, id.tag, id.key); // r li r2
 * console.log(Live.parseId("not an id")); // undefined
 * ```
 */
export function parseId(id: string): ParsedId | undefined {
  if (id === ROOT_ID) return { kind: "root" };
  const parts = id.split(ID_SEPARATOR);
  if (parts[0] !== ROOT_ID || parts.length < 2) return undefined;
  for (let i = 1; i < parts.length - 1; i++) if (!SEGMENT.test(parts[i] as string)) return undefined;
  const last = parts[parts.length - 1] as string;
  const parent = parts.slice(0, -1).join(ID_SEPARATOR);
  if (last.startsWith("~")) {
    const pass = last.slice(1) as Pass;
    return PASSES.includes(pass) ? { kind: "style", owner: parent, pass } : undefined;
  }
  const m = SEGMENT.exec(last);
  if (m === null) return undefined;
  if (m[2] !== undefined) return { kind: "element", parent, index: Number(m[1]), tag: m[2], key: m[3] };
  return { kind: "element", parent, index: undefined, tag: m[4] as string, key: m[5] };
}
