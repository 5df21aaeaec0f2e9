/**
 * The view tree: what an app's `view` returns, built with `h`, `keyed`, `raw` and `text`.
 *
 * Builders normalise once, at the call, so render and diff (which run on every event) never
 * re-interpret input: attributes become final strings, handlers become message records, style
 * props become CSS templates, adjacent text children merge. A programming error in builder input
 * (a bad tag, children in a void element, a reserved attribute) throws here, at the call, and never
 * later on the event path.
 */
import { KEY_ATTR, NAME_KEYED_TAGS, type Pass, sanitizeKey } from "../protocol/mod.ts";
import { type Attrs, NO_ATTRS, normalizeAttrs } from "./attrs.ts";
import { TEXT_ONLY_TAGS, VOID_TAGS } from "./tags.ts";
import type { Child, ElementExtras, LiveMark, PassTemplate, UiElement, UiNode, UiRaw, UiText } from "./types.ts";
import type { UntypedMessages } from "./messages.ts";
import { KEYED_COPY, type KeyedCopy, viewRender } from "./view-render.ts";

export type {
  Child,
  ElementExtras,
  Handlers,
  LiveMark,
  Message,
  MessageRecord,
  PassTemplate,
  UiElement,
  UiElementFields,
  UiNode,
  UiRaw,
  UiText,
} from "./types.ts";

export { RAW_TEXT_TAGS, TEXT_ONLY_TAGS, VOID_TAGS } from "./tags.ts";

/** The tag grammar (src/live/ids.ts): a letter, then letters, digits or hyphens, not ending in one. */
const TAG = /^[a-z](?:[a-z0-9-]*[a-z0-9])?$/;

/**
 * A text node, escaped when rendered. A string child of `Ui.h` is one already; `Ui.text` is for a
 * place that takes a node, such as a list of children built apart. U+0000 cannot survive HTML
 * parsing, so it becomes U+FFFD here, once for all paths.
 *
 * @example
 * ```ts
 * import { Ui, type UiNode } from "svc-live";
 *
 * const parts: UiNode[] = [Ui.text("Total: "), Ui.h("strong", {}, "3 items")];
 * const line = Ui.h("p", {}, ...parts);
 * ```
 */
export function text(value: string | number): UiText {
  const s = String(value);
  return { kind: "text", text: s.includes("\0") ? s.replaceAll("\0", "\uFFFD") : s };
}

/**
 * Markup written as it is: the one way to emit unescaped HTML (the app vouches for it, so never
 * pass it text a user wrote without sanitising it). The diff compares it as a string.
 *
 * @example
 * ```ts
 * import { Ui } from "svc-live";
 *
 * // An SVG icon kept as a constant string.
 * const CHECK = `<svg viewBox="0 0 16 16" width="16" height="16"><path d="M2 8l4 4 8-8" stroke="currentColor" fill="none"/></svg>`;
 * const done = Ui.h("span", { class: "done" }, Ui.raw(CHECK), " done");
 * ```
 */
export function raw(html: string): UiRaw {
  return { kind: "raw", html: String(html) };
}

/** A checked tag, lowercase, with its tag-set memberships looked up once. */
type TagInfo = { readonly name: string; readonly isVoid: boolean; readonly textOnly: boolean; readonly nameKeyed: boolean };
/** Tags already checked: tags come from code, so there are few; bounded all the same. */
const TAGS = new Map<string, TagInfo>();
const TAGS_LIMIT = 1024;

function tagInfo(tag: string): TagInfo {
  const known = typeof tag === "string" ? TAGS.get(tag) : undefined;
  if (known !== undefined) return known;
  const name = String(tag).toLowerCase();
  if (!TAG.test(name)) throw new TypeError(`Ui.h: bad tag ${JSON.stringify(tag)}`);
  const info = { name, isVoid: VOID_TAGS.has(name), textOnly: TEXT_ONLY_TAGS.has(name), nameKeyed: NAME_KEYED_TAGS.has(name) };
  if (typeof tag === "string" && TAGS.size < TAGS_LIMIT) TAGS.set(tag, info);
  return info;
}

/**
 * `Ui.h(tag, attrs, ...children)`: an element. Throws on a tag outside the grammar. Within a live
 * session's render, a call that would build what its previous call built gets that element back,
 * so an unchanged part of the page is neither built nor compared again
 * (docs/live-apps.md#unchanged-parts-are-not-built-again).
 *
 * In the view of an app that declares its messages (docs/live-apps.md#typed-messages), `M` is that
 * app's message map, taken from where the element goes, and the handler props are checked against
 * it; elsewhere any message is accepted.
 *
 * @param tag the element's tag: a letter, then letters, digits or hyphens
 * @param attrs attributes, handler props (`onClick: ["Remove", id]`) and style props (`hover: {...}`)
 * @param children elements, strings and numbers, arrays of them; `null`, `undefined` and booleans vanish
 * @returns the element
 * @throws {TypeError} for a bad tag or attribute name, an `on...` attribute, or children in a void element
 * @example
 * ```ts
 * import { Ui } from "svc-live";
 *
 * const row = (todo: { id: number; text: string }) =>
 *   Ui.keyed(todo.id, Ui.h("li", {}, todo.text, Ui.h("button", { onClick: ["Remove", todo.id] }, "✕")));
 * const view = (todos: { id: number; text: string }[]) => Ui.h("ul", { class: "todos" }, todos.map(row));
 * ```
 */
export function h<M = UntypedMessages>(tag: string, attrs?: Attrs<NoInfer<M>> | null, ...children: NoInfer<Child<M>>[]): UiElement<M> {
  const render = viewRender();
  return (render === undefined
    ? elementOf(tag, attrs as Attrs, children as Child[])
    : render.element(tag, attrs as Attrs, children as Child[])) as unknown as UiElement<M>;
}

/**
 * `h` with its children as an array the element takes over (it may write into it), under the same
 * session log as `h`: for the JSX runtime, whose compiler makes the array.
 */
export function hWithChildren(tag: string, attrs: Attrs | null | undefined, children: Child[]): UiElement {
  const render = viewRender();
  return render === undefined ? elementOf(tag, attrs, children) : render.element(tag, attrs, children);
}

/**
 * `h` with its children as an array, which the element takes over (it may write into it): for
 * builders that gather children themselves (src/ui/template.ts).
 */
export function elementOf(tag: string, attrs: Attrs | Record<string, unknown> | null | undefined, children: Child[]): UiElement {
  return build(tagInfo(tag), attrs, children);
}

/**
 * The children of every element without any (and of a live element that is not a view element,
 * src/live/tree.ts): one list, not an empty one per input or image.
 */
export const NO_CHILDREN: readonly UiNode[] = Object.freeze([]);

/**
 * Every element object, view or live, is written with the same fields in the same order (here, in
 * `element` below and in src/live/tree.ts `liveElement`), so the engine gives them all one shape and
 * the walks that read them stay on their fast path.
 */
function build(info: TagInfo, attrs: Attrs | Record<string, unknown> | null | undefined, children: Child[]): UiElement {
  const lower = info.name;
  const norm = normalizeAttrs(lower, (attrs ?? NO_ATTRS) as Attrs);
  let kids = children.length === 0 ? (NO_CHILDREN as UiNode[]) : simpleKids(children) ?? flatten(children, []);
  if (info.isVoid && kids.length > 0) throw new TypeError(`Ui.h: <${lower}> is void and takes no children`);
  if (info.textOnly) kids = textOnly(lower, kids, norm.textValue);
  else if (lower === "select" && norm.textValue !== undefined) kids = selectValue(kids, norm.textValue);
  const key = keyOf(norm.key, info.nameKeyed, norm.name);
  return {
    kind: "el",
    tag: lower,
    attrs: norm.attrs,
    handlers: norm.handlers,
    children: kids,
    key,
    call: undefined,
    seg: undefined,
    kids: undefined,
    extras: elementExtras(norm.passes, undefined, undefined),
  };
}

/** Tags whose `name` attribute is a key (docs/protocol.md#keys): defined with the protocol, which the client shares. */
export { NAME_KEYED_TAGS };

/**
 * An element from a finished attribute bag (keyed and select options; `h` builds its own): the tag,
 * handlers and style props of `from`, with these attributes and children.
 */
function element(from: UiElement, attrs: Readonly<Record<string, string>>, children: readonly UiNode[]): UiElement {
  const tag = from.tag;
  return {
    kind: "el",
    tag,
    attrs,
    handlers: from.handlers,
    children,
    key: keyOf(attrs[KEY_ATTR], NAME_KEYED_TAGS.has(tag), attrs["name"]),
    call: undefined,
    seg: undefined,
    kids: undefined,
    extras: elementExtras(from.extras?.passes, undefined, undefined),
  };
}

/**
 * An element's extras (src/ui/types.ts ElementExtras), written in one place so that every extras
 * object has one shape; undefined when there is nothing to carry, as for most elements.
 */
export function elementExtras(
  passes: readonly PassTemplate[] | undefined,
  pass: Pass | undefined,
  live: LiveMark | null | undefined,
): ElementExtras | undefined {
  return passes === undefined && pass === undefined && live === undefined ? undefined : { passes, pass, live };
}

/** The element's key by priority (docs/protocol.md#node-ids): its svc-key, else its name on a form control; sanitised. */
function keyOf(svcKey: string | undefined, nameKeyed: boolean, name: string | undefined): string | undefined {
  const raw = svcKey ?? (nameKeyed ? name : undefined);
  return raw === undefined ? undefined : sanitizeKey(raw);
}

/**
 * `Ui.keyed(key, node)`: the element with `svc-key` set, first in key priority
 * (docs/protocol.md#node-ids), so it keeps its identity when its siblings move.
 *
 * @param key a string or number; characters other than letters, digits, `-` and `_` become `_`
 * @param node the element to key
 * @returns a keyed copy of the element (the element itself is not changed)
 * @throws {TypeError} when `node` is not an element
 * @example
 * ```ts
 * import { Ui } from "svc-live";
 *
 * type Todo = { id: number; text: string };
 * // Keyed by id: removing the first todo moves the others' rows instead of rewriting each one.
 * const list = (todos: Todo[]) => Ui.h("ul", {}, todos.map((t) => Ui.keyed(t.id, Ui.h("li", {}, t.text))));
 * ```
 */
export function keyed<M = UntypedMessages>(key: string | number, node: UiElement<M>): UiElement<M> {
  if (node === null || typeof node !== "object" || node.kind !== "el") throw new TypeError("Ui.keyed: expects an element");
  const k = String(key);
  const render = viewRender();
  return (render === undefined
    ? keyedElement(k, node as unknown as UiElement)
    : render.keyed(k, node as unknown as UiElement)) as unknown as UiElement<M>;
}

/**
 * The element `Ui.keyed(k, node)` builds, outside any session's render (a session's render state
 * builds its misses with it, src/live/render-state/).
 */
export function keyedElement(k: string, node: UiElement): UiElement {
  const { attrs, key } = keyedRoot(k, node);
  // A keyed lazy part of a live render stays a part: a copy of the element would hold its subtree for good.
  const own = (node as Partial<KeyedCopy>)[KEYED_COPY];
  const copy = own === undefined ? undefined : own.call(node, attrs, key);
  if (copy !== undefined) return copy;
  return element(node, attrs, node.children);
}

/**
 * The attributes and key of `node` keyed by `k` (`svc-key` set, or removed for ""): what
 * `Ui.keyed` gives an element, and `Ui.each` a row (src/ui/each.ts).
 */
export function keyedRoot(
  k: string,
  node: UiElement,
): { readonly attrs: Readonly<Record<string, string>>; readonly key: string | undefined } {
  const attrs = { ...node.attrs };
  if (k === "") delete attrs[KEY_ATTR];
  else attrs[KEY_ATTR] = k;
  return { attrs, key: keyOf(attrs[KEY_ATTR], NAME_KEYED_TAGS.has(node.tag), attrs["name"]) };
}

/**
 * The common case in place: every child a node or a non-empty string or number, no two texts
 * adjacent. Then `children` (the fresh rest array of this call) becomes the kids, strings and
 * numbers turned into text nodes; otherwise undefined, and `flatten` does the general work (on
 * nodes already converted here, which it treats the same).
 */
function simpleKids(children: Child[]): UiNode[] | undefined {
  let lastText = false;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (typeof child === "string" || typeof child === "number") {
      if (lastText || child === "") return undefined;
      children[i] = text(child);
      lastText = true;
    } else if (typeof child === "object" && child !== null && !Array.isArray(child)) {
      const kind = (child as UiNode).kind;
      if (kind === "text") {
        if (lastText || (child as UiText).text === "") return undefined;
        lastText = true;
      } else if (kind === "el" || kind === "raw") lastText = false;
      else return undefined;
    } else return undefined;
  }
  return children as UiNode[];
}

/** Flattens children, drops empty ones and merges adjacent text (the parser would merge it too). */
function flatten(children: readonly Child[], out: UiNode[]): UiNode[] {
  for (const child of children) {
    if (child === null || child === undefined || child === false || child === true) continue;
    if (Array.isArray(child)) {
      flatten(child as readonly Child[], out);
      continue;
    }
    const node: UiNode = typeof child === "object" ? (child as UiNode) : text(child as string | number);
    if (node.kind === "text") {
      if (node.text === "") continue;
      const last = out[out.length - 1];
      if (last !== undefined && last.kind === "text") {
        out[out.length - 1] = { kind: "text", text: last.text + node.text };
        continue;
      }
    } else if (node.kind !== "el" && node.kind !== "raw") {
      throw new TypeError("Ui.h: a child must be a node, a string or a number");
    }
    out.push(node);
  }
  return out;
}

/** style, script, textarea, title: one text child; a textarea's `value` attribute is its text. */
function textOnly(tag: string, kids: UiNode[], value: string | undefined): UiNode[] {
  if (kids.some((k) => k.kind !== "text")) throw new TypeError(`Ui.h: <${tag}> takes text children only`);
  const content = value ?? (kids[0] as UiText | undefined)?.text ?? "";
  return content === "" ? [] : [text(content)];
}

/** A select's `value` marks the matching options selected, as the DOM property would. */
function selectValue(kids: UiNode[], value: string): UiNode[] {
  return kids.map((kid) => {
    if (kid.kind !== "el") return kid;
    if (kid.tag === "optgroup") return element(kid, kid.attrs, selectValue([...kid.children], value));
    if (kid.tag !== "option") return kid;
    const optionValue = kid.attrs["value"] ?? kid.children.map((c) => (c.kind === "text" ? c.text : "")).join("");
    const attrs = { ...kid.attrs };
    if (optionValue === value) attrs["selected"] = "selected";
    else delete attrs["selected"];
    return element(kid, attrs, kid.children);
  });
}
