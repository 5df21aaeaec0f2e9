/**
 * Rendering a live tree to an HTML string. Every element carries its `svc-id` (docs/protocol.md#node-ids); handler
 * elements carry `data-svc-hid` equal to their id (docs/protocol.md#markup-attributes).
 *
 * The diff calls `renderKids` and `renderNode` for the markup of `html` patches and `{html}` kid
 * entries, and only there; nothing else re-renders a subtree. Elements store their id segment
 * only (src/live/tree.ts), so each call is given the id of the element (or parent) it starts at.
 */
import { RAW_TEXT_TAGS, type UiElement, VOID_TAGS } from "../ui/node.ts";
import { assignIds } from "./ids.ts";
import { escapeAttr, escapeRawText, escapeText } from "./escape.ts";
import { HID_ATTR, ID_ATTR, ROOT_ID } from "../protocol/mod.ts";
import { childId, hasHandlerId, type LiveElement, type LiveNode, type LiveTree } from "./tree.ts";

/** Renders a whole tree (assigning ids first when given a view tree). */
export function render(tree: LiveTree | UiElement): string {
  return renderElement(tree.kind === "tree" ? tree.root : assignIds(tree).root, ROOT_ID);
}

/** The markup of an element whose id is `id`. */
export function renderElement(el: LiveElement, id: string): string {
  let out = `<${el.tag} ${ID_ATTR}="${id}"`;
  if (hasHandlerId(el)) out += ` ${HID_ATTR}="${id}"`;
  const attrs = el.attrs;
  for (const name in attrs) out += ` ${name}="${escapeAttr(attrs[name] as string)}"`;
  out += ">";
  if (VOID_TAGS.has(el.tag)) return out;
  // The parser drops one newline right after <pre>, <textarea> and <listing>: write one more so
  // content that starts with a newline keeps it. Fragment parsing (html patches) does not drop it.
  if ((el.tag === "pre" || el.tag === "textarea" || el.tag === "listing") && startsWithNewline(el)) out += "\n";
  return `${out}${renderKids(el, id)}</${el.tag}>`;
}

/** The markup of the children of an element whose id is `id`: the content of an `html` patch. */
export function renderKids(el: LiveElement, id: string): string {
  let out = "";
  for (const kid of el.kids) out += renderNode(kid, el.tag, id);
  return out;
}

/** The markup of one child of a `parentTag` element with id `parentId`: the content of an `{html}` kid entry. */
export function renderNode(node: LiveNode, parentTag: string, parentId: string): string {
  if (node.kind === "el") return renderElement(node, childId(parentId, node.seg));
  if (node.kind === "raw") return node.html;
  return RAW_TEXT_TAGS.has(parentTag) ? escapeRawText(parentTag, node.text) : escapeText(node.text);
}

function startsWithNewline(el: LiveElement): boolean {
  const first = el.kids[0];
  return first !== undefined && first.kind === "text" && first.text.startsWith("\n");
}
