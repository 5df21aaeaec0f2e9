/**
 * What a `Ui.h` or `Ui.keyed` call keeps on its element (`UiElement.call`), and how a later call is
 * compared with it: the session memo's rule (src/live/render-state/element-log.ts has the why), shared with the
 * folds, whose tapes are written from these records (src/live/render-state/fold/).
 *
 *   - `Ui.h`: the attribute bag's keys and values, as data (src/ui/same-value.ts), so a bag mutated
 *     in place is seen as changed: `[key 1, value 1, …, key n, value n]`, the one shared empty list
 *     for no attributes. The children are compared with the element's own children, as the build
 *     flattens them.
 *   - An element whose build changes its children (a `select` with a `value`, a text-only tag such
 *     as `textarea`) keeps the call's children too, after the attributes and a CHILDREN mark.
 *   - `Ui.keyed`: `[KEYED, key, inner element]`.
 */
import { type Attrs, CHILDREN_PROP, handlerKind } from "../../ui/attrs.ts";
import { HandlerMessage } from "../../ui/handler-message.ts";
import type { Child, UiElement, UiNode, UiText } from "../../ui/types.ts";
import { keptCopy, sameValue } from "../../ui/same-value.ts";
import { CHILDREN_REWRITING_TAGS } from "../../ui/tags.ts";

/** The first slot of a `Ui.keyed` element's call: `[KEYED, key, inner element]`. */
export const KEYED = {};
/** Between a call's attributes and its children, when the element keeps the children of its call. */
export const CHILDREN = {};
/** The call of an element built without attributes: shared, so it costs nothing per element. */
const NO_ATTRS_CALL: readonly unknown[] = Object.freeze([]);

/**
 * Writes into a just-built element the call it keeps (`UiElement.call`): what a later call is
 * compared with. Written after the build: it throws on bad input, and then nothing is logged. The
 * build may have written into `children` (texts as text nodes), which the kept items read alike.
 * A fold's replay (src/live/render-state/fold/fold-part.ts) records its calls the same way.
 */
export function recordCall(element: UiElement, attrs: Attrs | null | undefined, children: readonly Child[]): void {
  element.call = callOf(attrs, element, CHILDREN_REWRITING_TAGS.has(element.tag) ? keptChildren(children) : undefined);
}

/** The call an element keeps: its bag's keys and values as data, then its kept children, if any. */
function callOf(attrs: Attrs | null | undefined, element: UiElement, kept: unknown[] | undefined): readonly unknown[] {
  let n = 0;
  if (attrs !== null && attrs !== undefined) { for (const key in attrs) if (key !== CHILDREN_PROP) n++; }
  if (n === 0 && kept === undefined) return NO_ATTRS_CALL;
  // Sized once: a list grown by pushes reserves room it never uses, in every element of a page.
  const call = new Array<unknown>(2 * n + (kept === undefined ? 0 : 1 + kept.length));
  let i = 0;
  // The same for-in as `sameCall`, so the two read the same keys.
  if (n > 0) {
    for (const key in attrs) {
      if (key === CHILDREN_PROP) continue; // a JSX bag's children are the call's children
      call[i++] = key;
      call[i++] = keptValue(key, (attrs as { [key: string]: unknown })[key], element);
    }
  }
  if (kept !== undefined) {
    call[i++] = CHILDREN;
    for (const item of kept) call[i++] = item;
  }
  return call;
}

/**
 * What a call keeps of one prop's value: a copy of its data, or, for a handler's message with plain
 * arguments (`onInput: ["SetQty", 3]`), the element's record of that message, which holds the same
 * data and which nothing changes; sameValue compares the next call's message with it. One list per
 * handler fewer in every kept page (docs/deployment.md#memory).
 */
function keptValue(key: string, value: unknown, element: UiElement): unknown {
  if (Array.isArray(value) && element.handlers !== undefined) {
    const kind = handlerKind(key);
    const record = kind === undefined ? undefined : element.handlers[kind];
    if (record instanceof HandlerMessage && record.plain && record.madeFrom(value)) return record;
  }
  return keptCopy(value);
}

/** Whether `el` is what a call with these attributes and children builds (its tag matched). */
export function sameCall(el: UiElement, attrs: Attrs | null | undefined, children: readonly Child[]): boolean {
  const call = el.call;
  if (call === undefined) return false;
  // A keyed element's call, `[KEYED, …]`, matches neither a first key nor the CHILDREN mark below.
  let i = 0;
  const end = call.length;
  // for-in with the bag's own keys read back is the engine's fast path for a bag of any shape.
  if (attrs !== null && attrs !== undefined) {
    for (const key in attrs) {
      if (key === CHILDREN_PROP) continue;
      if (i === end || call[i] !== key) return false;
      const value = (attrs as { [key: string]: unknown })[key], was = call[i + 1];
      if (value !== was && !sameValue(was, value)) return false;
      i += 2;
    }
  }
  if (i === end) return sameBuiltChildren(el.children, children);
  if (call[i] !== CHILDREN) return false;
  return keptChildrenEnd(call, children, i + 1) === end;
}

/**
 * Whether `children`, flattened as the build flattens them, are `kids`: texts merged where they
 * meet, and a text equal to the built one only when it is the same string (a text the build
 * rewrote, one holding U+0000, is never equal to it, and is built again). Children without nested
 * arrays, the usual case, are read here with local state; nested ones by `Flattened`.
 */
function sameBuiltChildren(kids: readonly UiNode[], children: readonly Child[]): boolean {
  let at = 0;
  let text = "";
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child === null || child === undefined || child === true || child === false) continue;
    if (typeof child === "string") {
      text = text === "" ? child : text + child;
      continue;
    }
    if (typeof child === "number") {
      text += String(child);
      continue;
    }
    if (Array.isArray(child)) return new Flattened(kids).same(children);
    const node = child as UiNode;
    if (node.kind === "text") {
      text = text === "" ? node.text : text + node.text;
      continue;
    }
    if (text !== "") {
      const kid = kids[at++];
      if (kid === undefined || kid.kind !== "text" || kid.text !== text) return false;
      text = "";
    }
    const kid = kids[at++];
    if (kid !== node && !sameRaw(kid, node)) return false;
  }
  if (text !== "") {
    const kid = kids[at++];
    if (kid === undefined || kid.kind !== "text" || kid.text !== text) return false;
  }
  return at === kids.length;
}

/** Raw HTML built again with the same markup: the same node. */
function sameRaw(kid: UiNode | undefined, node: UiNode): boolean {
  return node.kind === "raw" && kid !== undefined && kid.kind === "raw" && kid.html === node.html;
}

/** The comparison of `sameBuiltChildren` through nested arrays: where it is, kept between levels. */
class Flattened {
  private at = 0;
  private text = "";

  constructor(private readonly kids: readonly UiNode[]) {}

  same(children: readonly Child[]): boolean {
    return this.read(children) && this.endText() && this.at === this.kids.length;
  }

  private read(children: readonly Child[]): boolean {
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child === null || child === undefined || child === true || child === false) continue;
      if (typeof child === "string" || typeof child === "number") this.text += String(child);
      else if (Array.isArray(child)) {
        if (!this.read(child as readonly Child[])) return false;
      } else if ((child as UiNode).kind === "text") this.text += (child as UiText).text;
      else {
        if (!this.endText()) return false;
        const kid = this.kids[this.at++];
        if (kid !== child && !sameRaw(kid, child as UiNode)) return false;
      }
    }
    return true;
  }

  /** The text read since the last element, if any, is the next kid's text. */
  private endText(): boolean {
    if (this.text === "") return true;
    const kid = this.kids[this.at++];
    const same = kid !== undefined && kid.kind === "text" && kid.text === this.text;
    this.text = "";
    return same;
  }
}

/** The children of a call as an element that rewrites them keeps them: its items, in order. */
function keptChildren(children: readonly Child[], out: unknown[] = []): unknown[] {
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (Array.isArray(child)) keptChildren(child as readonly Child[], out);
    else {
      const item = childItem(child as Child);
      if (item !== undefined) out.push(item);
    }
  }
  return out;
}

/** What `keptChildrenEnd` answers when the children differ from the kept ones. */
const DIFFERENT = -1;

/**
 * Where the kept children read from `at` end when they are the same items as `children` (nested
 * arrays read in place), or DIFFERENT.
 */
function keptChildrenEnd(call: readonly unknown[], children: readonly Child[], at: number): number {
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (Array.isArray(child)) {
      at = keptChildrenEnd(call, child as readonly Child[], at);
      if (at === DIFFERENT) return DIFFERENT;
      continue;
    }
    const item = childItem(child as Child);
    if (item === undefined) continue;
    const was = call[at++];
    if (item === was) continue;
    if (typeof item !== "object" || item.kind !== "raw" || typeof was !== "object" || was === null) return DIFFERENT;
    if ((was as UiNode).kind !== "raw" || (was as { html: string }).html !== item.html) return DIFFERENT;
  }
  return at;
}

/** A child as a call keeps it: a non-empty string, an element or raw node; undefined when it vanishes. */
function childItem(child: Child): string | UiNode | undefined {
  if (child === null || child === undefined || child === true || child === false || child === "") return undefined;
  if (typeof child === "string") return child;
  if (typeof child === "number") return String(child);
  const node = child as UiNode;
  return node.kind === "text" ? (node.text === "" ? undefined : node.text) : node;
}
