/**
 * The split client's own copy of the page (docs/protocol.md#the-split-client): the session's render
 * as a tree of elements (tag, svc-id, every other attribute, handler messages included), texts and
 * comments, indexed by id. Every patch applies here first, then to the DOM, so the tree stays what
 * the server rendered whatever other code does to the DOM, and a slot the DOM lost can be built
 * again from it (client/split/apply.ts).
 *
 * Markup in patches is parsed by the page's own HTML parser (`Parse`, client/dom.ts parseMarkup,
 * which also fills in the derived ids), so the tree holds exactly what the DOM gets: the parser's
 * own fix-ups (an implicit tbody, a moved block) included.
 *
 * The tree is a target of the patch interpreter (client/patch.ts), which reads every patch and
 * move for it as it does for the DOM: the tree only writes each operation and keeps its index by id.
 * A rename takes each renamed subtree out of the index before any of them comes back, so the
 * renames of one `kids` list stay one simultaneous mapping. A patch whose id the tree does not
 * hold, or a `keep` that names no child of the tree, is a desync (Desync): only then does the
 * split client ask the server for a render.
 */
import { ID_ATTR, isWithin, type Move, type Patch, REMOVED, renamedId } from "../../src/protocol/mod.ts";
import { applyMoves, applyPatch, type PatchTarget, type Rename } from "../patch.ts";

/** A text or comment of the page. */
export type TreeText = { readonly kind: "text" | "comment"; text: string; parent: TreeElement | undefined };

/** An element of the page: its id is its svc-id (none for raw HTML's own elements). */
export type TreeElement = {
  readonly kind: "element";
  /** The local name, lowercase for HTML. */
  readonly tag: string;
  /** The namespace (HTML, SVG, MathML), for building the element again. */
  readonly ns: string | null;
  id: string | undefined;
  /** Every attribute but svc-id, in document order. */
  readonly attrs: Map<string, string>;
  kids: TreeNode[];
  parent: TreeElement | undefined;
};

export type TreeNode = TreeElement | TreeText;

/** Parses markup as the children of a `contextTag` element and fills in the ids it leaves out. */
export type Parse = (contextTag: string, html: string, parentId?: string) => Node[];

const HTML_NS = "http://www.w3.org/1999/xhtml";

/** A DOM node as a tree node (elements with their subtree); undefined for other node types. */
export function treeOf(node: Node, parent: TreeElement | undefined = undefined): TreeNode | undefined {
  if (node.nodeType === 3) return { kind: "text", text: node.nodeValue ?? "", parent };
  if (node.nodeType === 8) return { kind: "comment", text: node.nodeValue ?? "", parent };
  if (node.nodeType !== 1) return undefined;
  const el = node as Element;
  const attrs = new Map<string, string>();
  let id: string | undefined;
  for (const attr of Array.from(el.attributes)) {
    if (attr.name === ID_ATTR) id = attr.value;
    else attrs.set(attr.name, attr.value);
  }
  const out: TreeElement = { kind: "element", tag: el.localName, ns: el.namespaceURI, id, attrs, kids: [], parent };
  out.kids = treesOf(el.childNodes, out);
  return out;
}

function treesOf(nodes: ArrayLike<Node>, parent: TreeElement | undefined): TreeNode[] {
  const out: TreeNode[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const kid = treeOf(nodes[i] as Node, parent);
    if (kid !== undefined) out.push(kid);
  }
  return out;
}

/** Builds the DOM of a tree node in `doc`: what the server rendered there, with fresh control state. */
export function build(doc: Document, node: TreeNode): Node {
  if (node.kind !== "element") return node.kind === "text" ? doc.createTextNode(node.text) : doc.createComment(node.text);
  const el = node.ns === null || node.ns === HTML_NS ? doc.createElement(node.tag) : doc.createElementNS(node.ns, node.tag);
  if (node.id !== undefined) el.setAttribute(ID_ATTR, node.id);
  for (const [name, value] of node.attrs) el.setAttribute(name, value);
  for (const kid of node.kids) el.appendChild(build(doc, kid));
  return el;
}

/** The markup of a tree node, as the DOM's outerHTML would show it (for tests and the bench). */
export function markupOf(doc: Document, node: TreeNode): string {
  const built = build(doc, node);
  if (built.nodeType === 1) return (built as Element).outerHTML;
  const holder = doc.createElement("div");
  holder.appendChild(built);
  return holder.innerHTML;
}

/** Every element with an id in a subtree, the root first. */
function* elementsOf(node: TreeNode): Generator<TreeElement> {
  if (node.kind !== "element") return;
  yield node;
  for (const kid of node.kids) yield* elementsOf(kid);
}

/** An option's value: its value attribute, or else its text (as the DOM's `option.value`). */
function optionValue(option: TreeElement): string {
  const value = option.attrs.get("value");
  if (value !== undefined) return value;
  let text = "";
  for (const kid of option.kids) if (kid.kind === "text") text += kid.text;
  return text.replace(/[\t\n\f\r ]+/g, " ").trim();
}

/** The page's tree and its index by id. */
export class PageTree implements PatchTarget<TreeNode, TreeElement> {
  /** The root element (svc-id "r"), or undefined before the page has one. */
  root: TreeElement | undefined;
  /** The tag of the DOM element that holds the root: the context a `replace` of the root is parsed in. */
  private rootContext = "body";
  private readonly index = new Map<string, TreeElement>();

  constructor(private readonly parseIn: Parse, root?: Element) {
    this.reset(root);
  }

  /** The element with this id, when the tree holds it. */
  get(id: string): TreeElement | undefined {
    return this.index.get(id);
  }

  /** How many elements with ids the tree holds. */
  get size(): number {
    return this.index.size;
  }

  /**
   * Takes a new root from the DOM (the page at start, a full render adopted by a resync);
   * `context`: the tag of the element that holds it.
   */
  reset(root: Element | undefined, context = root?.parentElement?.localName ?? "body"): void {
    this.index.clear();
    this.rootContext = context;
    const tree = root === undefined ? undefined : treeOf(root);
    this.root = tree?.kind === "element" ? tree : undefined;
    if (this.root !== undefined) this.indexTree(this.root);
  }

  /** Applies one patch (docs/protocol.md#patches); throws Desync when it names what the tree lacks. */
  apply(patch: Patch): void {
    applyPatch(this, patch);
  }

  /**
   * A control's value that the server holds with no patch to say so: a value the page reported,
   * which the server's render took, gets no patch (docs/protocol.md#input-state), so without this the
   * tree would keep the value rendered before it, and a slot built again from the tree would show
   * that. `value` is as the page reports it: `checked` or "" for a checkbox or radio, the chosen
   * option's value for a select, the text for any other control.
   */
  showValue(id: string, value: string): void {
    const el = this.index.get(id);
    if (el === undefined) return;
    if (el.tag === "textarea") this.setKids(el, value === "" ? [] : [{ kind: "text", text: value, parent: el }]);
    else if (el.tag === "select") {
      for (const option of elementsOf(el)) {
        if (option.tag !== "option") continue;
        if (optionValue(option) === value) option.attrs.set("selected", "selected");
        else option.attrs.delete("selected");
      }
    } else if (el.tag === "input") {
      const type = el.attrs.get("type");
      if (type !== "checkbox" && type !== "radio") el.attrs.set("value", value);
      else if (value === "") el.attrs.delete("checked");
      else el.attrs.set("checked", "checked");
    }
  }

  /**
   * Replays what missed frames did to ids (docs/protocol.md#render, X-Svc-Moves), as the DOM does
   * before a full render is reconciled: kept children renamed, the others and the gone removed.
   */
  move(moves: readonly Move[]): void {
    applyMoves(this, moves);
  }

  // ---- the operations of the patch interpreter (client/patch.ts) ---------------------------

  /** The element with this id, when the tree holds it. */
  find(id: string): TreeElement | undefined {
    return this.index.get(id);
  }

  /** The tree is the server's render: the authority rule never drops a patch from it. */
  stale(): boolean {
    return false;
  }

  replace(el: TreeElement, html: string): TreeElement | undefined {
    const parent = el.parent;
    const fresh = this.parsed(parent === undefined ? this.rootContext : parent.tag, html, undefined, parent);
    this.unindex(el);
    const first = fresh.find((n): n is TreeElement => n.kind === "element");
    if (parent === undefined) this.root = first;
    else parent.kids.splice(parent.kids.indexOf(el), 1, ...fresh);
    for (const node of fresh) this.indexTree(node);
    return first;
  }

  text(el: TreeElement, text: string): void {
    this.setKids(el, text === "" ? [] : [{ kind: "text", text, parent: el }]);
  }

  html(el: TreeElement, html: string): void {
    this.setKids(el, this.parsed(el.tag, html, el.id, el));
  }

  keyed(el: TreeElement): Map<string, TreeElement> {
    const out = new Map<string, TreeElement>();
    for (const kid of el.kids) if (kid.kind === "element" && kid.id !== undefined) out.set(kid.id, kid);
    return out;
  }

  parse(el: TreeElement, html: string): TreeNode[] {
    return this.parsed(el.tag, html, undefined, el);
  }

  /** One simultaneous mapping: every subtree leaves the index, is renamed, and comes back. */
  rename(renames: readonly Rename<TreeElement>[]): void {
    for (const [node] of renames) this.unindex(node);
    for (const [node, from, to] of renames) {
      for (const el of elementsOf(node)) if (el.id !== undefined && isWithin(el.id, from)) el.id = renamedId(el.id, from, to);
    }
    for (const [node] of renames) this.indexTree(node);
  }

  place(el: TreeElement, wanted: readonly TreeNode[]): void {
    const before = new Set(el.kids);
    const staying = new Set(wanted);
    for (const kid of el.kids) if (!staying.has(kid)) this.unindex(kid);
    el.kids = [...wanted];
    for (const kid of wanted) if (!before.has(kid)) this.indexTree(kid);
  }

  attrs(el: TreeElement, attrs: Readonly<Record<string, string>>): void {
    for (const name of Object.keys(attrs)) {
      const value = attrs[name] as string;
      if (value === REMOVED) el.attrs.delete(name);
      else el.attrs.set(name, value);
    }
  }

  /** Takes a node out of its parent (or the root out of the page) and out of the index. */
  remove(node: TreeElement): void {
    this.unindex(node);
    if (node.parent === undefined) {
      if (this.root === node) this.root = undefined;
      return;
    }
    const kids = node.parent.kids;
    const at = kids.indexOf(node);
    if (at >= 0) kids.splice(at, 1);
    node.parent = undefined;
  }

  private setKids(el: TreeElement, kids: TreeNode[]): void {
    for (const kid of el.kids) this.unindex(kid);
    el.kids = kids;
    for (const kid of kids) this.indexTree(kid);
  }

  private parsed(contextTag: string, html: string, parentId: string | undefined, parent: TreeElement | undefined): TreeNode[] {
    return treesOf(this.parseIn(contextTag, html, parentId), parent);
  }

  private indexTree(node: TreeNode): void {
    for (const el of elementsOf(node)) if (el.id !== undefined) this.index.set(el.id, el);
  }

  /** Removes a subtree's ids from the index, unless another element holds the id by now. */
  private unindex(node: TreeNode): void {
    for (const el of elementsOf(node)) if (el.id !== undefined && this.index.get(el.id) === el) this.index.delete(el.id);
  }
}
