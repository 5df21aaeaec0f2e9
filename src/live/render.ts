/**
 * Rendering a live tree to an HTML string (docs/protocol.md#markup-attributes).
 *
 * Ids are derived (docs/protocol.md#derived-ids): the markup writes `svc-id` on the element a
 * render starts at, and below it only where the client cannot derive the id from the element's
 * place, tag and key. To decide, the renderer runs the client's own derivation (`ChildSegs` in
 * src/protocol/derive.ts) over the children it writes, and writes the id where the derived seg is
 * not the element's seg, or where the HTML parser may not keep the element where the view put it
 * (src/live/parser-fit.ts).
 *
 * The diff calls `renderKids` and `renderNode` for the markup of `html` patches and `{html}` kid
 * entries, and `renderElement` for `replace`; nothing else re-renders a subtree. Elements store
 * their id segment only (src/live/tree.ts), so each call is given the id of the element (or
 * parent) it starts at.
 */
import { RAW_TEXT_TAGS, type UiElement, VOID_TAGS } from "../ui/node.ts";
import { assignIds } from "./ids.ts";
import { escapeAttr, escapeRawText, escapeText } from "./escape.ts";
import { ChildSegs, ID_ATTR, KEY_ATTR, keyFromAttrs, ROOT_ID } from "../protocol/mod.ts";
import { childId, hasRawKid, type LiveElement, type LiveNode, type LiveTree, passOf } from "./tree.ts";
import { fitOf, flagsBelow, FRAGMENT_FLAGS, SHIFTED, textFits, UNSAFE } from "./parser-fit.ts";

/** The state of one markup call: once the parser may have rearranged something, every id is written. */
type Markup = { allIds: boolean };

/** Whether an element's id goes into the markup, or is left for the client to derive. */
type IdMark = typeof WRITE_ID | typeof DERIVE_ID;
const WRITE_ID = "write id";
const DERIVE_ID = "derive id";

/**
 * Renders a whole tree (assigning ids first when given a view tree) to HTML: the page's root, as
 * the first page load writes it into `<body>`, with the ids and message attributes the client
 * reads. A live app calls it for you; call it to see what a view writes, in a test or a snapshot.
 *
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * const html = Live.render(Ui.h("ul", {}, Ui.keyed("a", Ui.h("li", { onClick: ["Pick", 1] }, "Apples"))));
 * // <ul svc-id="r"><li data-svc-click="[&quot;Pick&quot;,1]" svc-key="a">Apples</li></ul>
 * console.log(html);
 * ```
 */
export function render(tree: LiveTree | UiElement): string {
  const root = tree.kind === "tree" ? tree.root : assignIds(tree).root;
  return element(root, { id: ROOT_ID, mark: WRITE_ID }, 0, { allIds: fitOf("body", 0, root.tag) === UNSAFE });
}

/**
 * The markup of an element whose id is `id`, to be parsed as a child of a `parentTag` element:
 * the content of a `replace` patch. Its own id is written.
 *
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * const tree = Live.assignIds(Ui.h("div", {}, Ui.h("p", {}, "Saved")));
 * console.log(Live.renderElement(tree.root, "r")); // <div svc-id="r"><p>Saved</p></div>
 * ```
 */
export function renderElement(el: LiveElement, id: string, parentTag = "div"): string {
  const state = { allIds: fitOf(parentTag, FRAGMENT_FLAGS, el.tag) === UNSAFE };
  return element(el, { id, mark: WRITE_ID }, FRAGMENT_FLAGS, state);
}

/**
 * The markup of the children of an element whose id is `id`: the content of an `html` patch.
 *
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * const tree = Live.assignIds(Ui.h("ul", {}, Ui.h("li", {}, "one"), Ui.h("li", {}, "two")));
 * console.log(Live.renderKids(tree.root, "r")); // <li>one</li><li>two</li>
 * ```
 */
export function renderKids(el: LiveElement, id: string): string {
  return kids(el, id, FRAGMENT_FLAGS, { allIds: false });
}

/**
 * The markup of one child of a `parentTag` element with id `parentId`: the content of an `{html}`
 * kid entry. Its id is written; a text child is escaped as its parent's content needs.
 *
 * @example
 * ```ts
 * import { Live, renderNode, Ui } from "svc-live";
 *
 * const tree = Live.assignIds(Ui.h("ul", {}, Ui.h("li", {}, "Tom & Jerry")));
 * console.log(renderNode(tree.root.kids[0]!, "ul", "r"));
 * ```
 */
export function renderNode(node: LiveNode, parentTag: string, parentId: string): string {
  if (node.kind === "el") return renderElement(node, childId(parentId, node.seg), parentTag);
  if (node.kind === "raw") return node.html;
  return RAW_TEXT_TAGS.has(parentTag) ? escapeRawText(parentTag, node.text) : escapeText(node.text);
}

/** An element at `at` (its id, and whether that goes into the markup). `flags`: the open elements' (parser-fit.ts). */
function element(el: LiveElement, at: { readonly id: string; readonly mark: IdMark }, flags: number, state: Markup): string {
  const tag = el.tag;
  const id = at.id;
  let writeId = at.mark === WRITE_ID;
  if (VOID_TAGS.has(tag)) return openTag(el, id, writeId);
  const allIdsBefore = state.allIds;
  // The parser drops one newline right after <pre>, <textarea> and <listing>: write one more so
  // content that starts with a newline keeps it. Fragment parsing (html patches) does not drop it.
  const newline = (tag === "pre" || tag === "textarea" || tag === "listing") && startsWithNewline(el) ? "\n" : "";
  const inner = kids(el, id, flagsBelow(flags, tag), state);
  // What the parser moves out of a table goes before it, in the table's parent: the table's place
  // changes, so its id is written too.
  if (tag === "table" && state.allIds && !allIdsBefore) writeId = true;
  return `${openTag(el, id, writeId)}${newline}${inner}</${tag}>`;
}

function openTag(el: LiveElement, id: string, writeId: boolean): string {
  let out = writeId ? `<${el.tag} ${ID_ATTR}="${id}"` : `<${el.tag}`;
  const attrs = el.attrs;
  for (const name in attrs) out += ` ${name}="${escapeAttr(attrs[name] as string)}"`;
  return `${out}>`;
}

/**
 * The children of `el` (id `id`), each element's id written where the client cannot derive it
 * (docs/protocol.md#derived-ids): from the first such element on, every id among these children.
 */
function kids(el: LiveElement, id: string, flags: number, state: Markup): string {
  const tag = el.tag;
  const segs = new ChildSegs();
  let out = "";
  if (hasRawKid(el)) {
    // Raw HTML may hold elements of its own, which must not take ids: a comment stops the
    // derivation among these children, and the rest may be anything, unbalanced tags included.
    out = "<!---->";
    segs.comment();
    state.allIds = true;
  }
  let shifted = false;
  // An element with injected styles is named by their CSS, which must apply before the client runs.
  let styled = false;
  for (const kid of el.kids) {
    if (kid.kind === "text") {
      if (kid.text === "") continue;
      if (!textFits(tag, kid.text)) state.allIds = true;
      segs.text();
      out += RAW_TEXT_TAGS.has(tag) ? escapeRawText(tag, kid.text) : escapeText(kid.text);
      continue;
    }
    if (kid.kind === "raw") {
      out += kid.html;
      continue;
    }
    const fit = fitOf(tag, flags, kid.tag);
    if (fit === UNSAFE) state.allIds = true;
    else if (fit === SHIFTED) shifted = true;
    const pass = passOf(kid);
    const writeId = state.allIds || shifted || styled || pass !== undefined ||
      segs.derive(kid.tag, keyFromAttrs(kid.tag, kid.attrs[KEY_ATTR], kid.attrs["name"])) !== kid.seg;
    segs.element(kid.seg, writeId);
    styled = pass !== undefined;
    out += element(kid, { id: childId(id, kid.seg), mark: writeId ? WRITE_ID : DERIVE_ID }, flags, state);
  }
  return out;
}

function startsWithNewline(el: LiveElement): boolean {
  const first = el.kids[0];
  return first !== undefined && first.kind === "text" && first.text.startsWith("\n");
}
