/**
 * The split client's applier (docs/protocol.md#the-split-client): each patch applies to the page's
 * tree (client/split/tree.ts) first, then to the DOM through the live client's Applier
 * (client/apply.ts). Both are targets of the one patch interpreter (client/patch.ts), so the tree
 * and the DOM read a frame alike, and the authority rule, rule 4's reconcile and placement are the
 * live client's own code.
 *
 * Before a patch is applied, the DOM nodes it needs are checked: the element it addresses and, for
 * `kids`, every kept child. One the DOM lost (a browser extension, a third-party script or the
 * page's own code removed it) is built again from the tree as it stands before the patch, in its
 * place among its siblings, and the patch then applies as usual: no round trip. A kept child found
 * elsewhere in the document (a script moved or wrapped it) is taken back into its slot. Only a
 * node missing from the tree itself is a desync, which resyncs from a render as in the live
 * client. A `remove` needs no node: when the DOM lost the element already, nothing is rebuilt.
 */
import { ID_ATTR, type Move, type Patch, ROOT_ID } from "../../src/protocol/mod.ts";
import { Applier, Desync, type PageApplier } from "../apply.ts";
import { byId, parseMarkup, tagOf } from "../dom.ts";
import type { InputTable } from "../inputs.ts";
import { build, PageTree, type TreeElement } from "./tree.ts";

export class SplitApplier implements PageApplier {
  readonly tree: PageTree;
  /** How many slots were built again from the tree since the page loaded. */
  rebuilt = 0;
  /** The live client's applier, which writes each patch to the DOM once the tree has it. */
  readonly dom: Applier;

  constructor(private readonly doc: Document, private readonly inputs: InputTable) {
    this.tree = new PageTree((contextTag, html, parentId) => parseMarkup(doc, contextTag, html, parentId), byId(doc, ROOT_ID) ?? undefined);
    this.dom = new Applier(doc, inputs, { beforePatch: (patch) => this.prepare(patch) });
  }

  patches(patches: readonly Patch[], frameSeq: number): void {
    this.takeAcked(frameSeq);
    this.dom.patches(patches, frameSeq);
  }

  /**
   * The values this frame acked, as the page reported them, become the tree's before its patches
   * apply (PageTree.showValue): the server sent no patch for those it took. A value the server
   * changed still comes as a patch, which then applies over it. Only an input whose last report
   * is acked counts: a newer one the server has not seen yet is the user's, not the server's.
   */
  private takeAcked(frameSeq: number): void {
    for (const entry of this.inputs.entries.values()) {
      if (entry.ackFrame !== frameSeq || entry.sentValue === undefined || entry.lastAckedSeq < entry.lastSentSeq) continue;
      const id = entry.el.getAttribute(ID_ATTR);
      if (id !== null) this.tree.showValue(id, entry.sentValue);
    }
  }

  move(moves: readonly Move[]): void {
    this.tree.move(moves);
    this.dom.move(moves);
  }

  /** A full render: the DOM is reconciled with it, and the tree becomes it. */
  root(html: string, frameSeq: number): void {
    this.dom.root(html, frameSeq);
    const parent = byId(this.doc, ROOT_ID)?.parentElement ?? this.doc.body;
    const fresh = parseMarkup(this.doc, tagOf(parent), html).find((n) => n.nodeType === 1) as Element | undefined;
    if (fresh !== undefined) this.tree.reset(fresh, tagOf(parent));
  }

  /** Checks the tree, rebuilds what the patch needs and the DOM lost, then applies it to the tree. */
  private prepare(patch: Patch): Element | false {
    const el = this.tree.get(patch.id);
    if (el === undefined) throw new Desync(`no element ${patch.id} in the page's tree`);
    const removeOnly = patch.remove === true && patch.replace === undefined && patch.text === undefined && patch.html === undefined &&
      patch.kids === undefined && patch.attrs === undefined;
    const held = byId(this.doc, patch.id);
    if (removeOnly && held === null) {
      this.tree.apply(patch);
      return false;
    }
    const dom = held ?? this.slot(el);
    // After a replace, text or html of the same patch, its keeps name the children those made.
    const fresh = patch.replace !== undefined || patch.text !== undefined || patch.html !== undefined;
    if (patch.kids !== undefined && !fresh) this.keptSlots(el, dom, patch);
    this.tree.apply(patch);
    return dom;
  }

  /** The DOM element of a tree element, built again from the tree (with its parents) when the DOM lost it. */
  private slot(node: TreeElement): Element {
    if (node.id === undefined) throw new Desync("an element without an id cannot be addressed");
    const found = byId(this.doc, node.id);
    if (found !== null) return found;
    const parent = node.parent;
    const parentDom = parent === undefined ? undefined : this.slot(parent);
    // A parent the DOM lost as well was built with this node inside.
    const withParent = parentDom === undefined ? null : byId(this.doc, node.id);
    if (withParent !== null) return withParent;
    const built = build(this.doc, node) as Element;
    if (parent === undefined || parentDom === undefined) this.doc.body.appendChild(built);
    else this.insert(parentDom, parent, node, built);
    this.rebuilt++;
    return built;
  }

  /** Makes sure every child a `kids` patch keeps is a child of `parentDom`. */
  private keptSlots(parent: TreeElement, parentDom: Element, patch: Patch): void {
    let held: Set<string> | undefined;
    for (const entry of patch.kids ?? []) {
      if (!("keep" in entry)) continue;
      const id = entry.keep;
      const kid = this.tree.get(id);
      if (kid === undefined || kid.parent !== parent) {
        throw new Desync(`keep ${id} is not a child of ${parent.id ?? "?"} in the page's tree`);
      }
      // The children's ids are read once per patch; only a keep that is not among them is looked for.
      held ??= new Set(Array.from(parentDom.children, (child) => child.getAttribute(ID_ATTR) ?? ""));
      if (held.has(id)) continue;
      const found = byId(this.doc, id);
      if (found !== null && found.parentElement === parentDom) continue;
      if (found !== null) this.insert(parentDom, parent, kid, found);
      else {
        this.insert(parentDom, parent, kid, build(this.doc, kid));
        this.rebuilt++;
      }
    }
  }

  /**
   * Inserts `dom` (the DOM of `node`, a child of `parent` in the tree) into `parentDom` where the
   * tree has it: after the nearest earlier sibling with an id that the DOM still holds, and after
   * as many nodes without an id (texts, comments, raw HTML's elements) as the tree has between the two.
   */
  private insert(parentDom: Element, parent: TreeElement, node: TreeElement, dom: Node): void {
    const held = new Map<string, Element>();
    for (const child of Array.from(parentDom.children)) {
      const id = child.getAttribute(ID_ATTR);
      if (id !== null) held.set(id, child);
    }
    let anchor: Element | undefined;
    let between = 0;
    for (let i = parent.kids.indexOf(node) - 1; i >= 0 && anchor === undefined; i--) {
      const sibling = parent.kids[i]!;
      // A sibling with an id that the DOM lost as well takes no place.
      if (sibling.kind === "element" && sibling.id !== undefined) anchor = held.get(sibling.id);
      else between++;
    }
    const unnamed = (n: Node) => n.nodeType !== 1 || !(n as Element).hasAttribute(ID_ATTR);
    let next = anchor === undefined ? parentDom.firstChild : anchor.nextSibling;
    for (; between > 0 && next !== null && unnamed(next); between--) next = next.nextSibling;
    parentDom.insertBefore(dom, next);
  }
}
