/**
 * The live client's page writer (docs/protocol.md#patches, docs/protocol.md#client-rules): frames,
 * moves and full renders, written to the DOM. The patch protocol itself is read by the interpreter
 * (client/patch.ts); this file is its DOM target, `DomTarget`, and the `Applier` that drives it.
 *
 * How the DOM target writes each operation:
 *
 * - stale: the authority rule may declare the whole patch stale (rule 1 case 3).
 * - replace: the element is swapped for the parsed markup; a replaced form's fields are new and
 *   empty (rule 6).
 * - text: the only child becomes the text. On a textarea, text is its value: authority rule.
 * - html: the children become the markup, reconciled element by element (rule 4, morph.ts), so
 *   a dirty input inside keeps its node, value, focus, caret and composition.
 * - kids: kept children are the same nodes; `place` orders the wanted list with the fewest moves,
 *   never moving the focused one, and removes the rest. A rename rewrites every svc-id of its own
 *   node's subtree only, so the renames of one patch act as one simultaneous mapping. Per-input
 *   entries and queued sends hold nodes, not ids (inputs.ts), so they follow without being told.
 * - attrs: through the authority rule ("" removes; removing value, checked, selected or disabled
 *   resets the property).
 * - remove: the element leaves the DOM.
 *
 * After each frame, and after moves and full renders, entries of controls that left the DOM are
 * deleted.
 */
import { ID_ATTR, isWithin, type Move, type Patch, renamedId, ROOT_ID } from "../src/protocol/mod.ts";
import { applyAttrs, applyTextareaText, isStale } from "./authority.ts";
import { byId, idOf, parseMarkup, tagOf } from "./dom.ts";
import type { InputTable } from "./inputs.ts";
import { type AttrWriter, morphElement, place, reconcile, type TextareaWriter } from "./morph.ts";
import { applyMoves, applyPatch, type PatchTarget, type Rename } from "./patch.ts";

export { Desync } from "./patch.ts";

/**
 * What the client's frames, resyncs and full renders write the page through: the live client's
 * Applier, or the split client's, which keeps the page's tree beside the DOM (client/split/apply.ts).
 */
export interface PageApplier {
  /** Applies one frame's patches; throws Desync on a node that cannot be found. */
  patches(patches: readonly Patch[], frameSeq: number): void;
  /** Replays what missed frames did to ids, before a full render is reconciled by id. */
  move(moves: readonly Move[]): void;
  /** Replaces the root with a full render, reconciling it so dirty inputs survive (resync). */
  root(html: string, frameSeq: number): void;
}

/**
 * Runs before each patch of a frame is written to the DOM. The split client applies the patch to
 * its tree there, and first rebuilds from the tree the nodes the patch needs that the DOM lost.
 * It answers the element the patch addresses, so the interpreter need not look for it again, or
 * `false` when the DOM has nothing to write (it lost the element a `remove` takes out).
 */
export type BeforePatch = (patch: Patch, frameSeq: number) => Element | false;

/** The DOM as a target of the patch interpreter, under the authority rule of the frame it writes. */
export class DomTarget implements PatchTarget<Node, Element> {
  /** The seq of the frame being written: the authority rule compares it with each input's ack. */
  frameSeq = 0;

  constructor(private readonly doc: Document, private readonly inputs: InputTable) {}

  find(id: string): Element | undefined {
    return byId(this.doc, id) ?? undefined;
  }

  stale(el: Element, attrs: Readonly<Record<string, string>>): boolean {
    return isStale(this.inputs, el, attrs, this.frameSeq);
  }

  replace(el: Element, html: string): Element | undefined {
    const parent = el.parentElement;
    const nodes = parseMarkup(this.doc, parent === null ? "div" : tagOf(parent), html);
    el.replaceWith(...nodes);
    return nodes.find((n) => n.nodeType === 1) as Element | undefined;
  }

  text(el: Element, text: string): void {
    if (tagOf(el) === "textarea") this.writeTextarea(el as HTMLTextAreaElement, text);
    else el.textContent = text;
  }

  html(el: Element, html: string): void {
    if (tagOf(el) === "textarea") this.writeTextarea(el as HTMLTextAreaElement, textOfMarkup(this.doc, html));
    // Always reconciled rather than re-parsed in place: a dirty or focused input inside keeps its
    // node (rule 4), and so does every other control, so no typed or selected state is lost.
    else reconcile(el, parseMarkup(this.doc, tagOf(el), html, idOf(el) ?? undefined), this.writeAttrs, this.writeTextarea);
  }

  keyed(el: Element): Map<string, Element> {
    const out = new Map<string, Element>();
    for (const child of Array.from(el.children)) {
      const id = child.getAttribute(ID_ATTR);
      if (id !== null) out.set(id, child);
    }
    return out;
  }

  parse(el: Element, html: string): Node[] {
    return parseMarkup(this.doc, tagOf(el), html);
  }

  /** docs/protocol.md#keep-and-rename: each rename rewrites the ids of its own node's subtree (and nothing else). */
  rename(renames: readonly Rename<Element>[]): void {
    for (const [node, from, to] of renames) {
      const rewrite = (el: Element) => {
        const id = el.getAttribute(ID_ATTR);
        if (id !== null && isWithin(id, from)) el.setAttribute(ID_ATTR, renamedId(id, from, to));
      };
      rewrite(node);
      for (const el of Array.from(node.querySelectorAll(`[${ID_ATTR}]`))) rewrite(el);
    }
  }

  place(el: Element, wanted: readonly Node[]): void {
    place(el, wanted);
  }

  attrs(el: Element, attrs: Readonly<Record<string, string>>): void {
    applyAttrs(this.inputs, el, attrs, this.frameSeq);
  }

  remove(el: Element): void {
    el.remove();
  }

  /** Turns `cur` into the parsed `next` in place, dirty inputs kept (a full render, rule 4). */
  morph(cur: Element, next: Element): void {
    morphElement(cur, next, this.writeAttrs, this.writeTextarea);
  }

  /** A reconcile's attribute differences, through the authority rule of this frame. */
  private readonly writeAttrs: AttrWriter = (el, attrs) => {
    if (!isStale(this.inputs, el, attrs, this.frameSeq)) applyAttrs(this.inputs, el, attrs, this.frameSeq);
  };

  /** A textarea's rendered text (a text or html patch, a reconcile), through the authority rule of this frame. */
  private readonly writeTextarea: TextareaWriter = (el, text) => void applyTextareaText(this.inputs, el, text, this.frameSeq);
}

/** The live client's applier: frames through the patch interpreter, onto the DOM. */
export class Applier implements PageApplier {
  /** The DOM target every frame, move and render writes through. */
  readonly target: DomTarget;
  private readonly beforePatch: BeforePatch | undefined;

  constructor(private readonly doc: Document, private readonly inputs: InputTable, options: { beforePatch?: BeforePatch } = {}) {
    this.target = new DomTarget(doc, inputs);
    this.beforePatch = options.beforePatch;
  }

  /** Applies one frame's patches; throws Desync on a missing node. */
  patches(patches: readonly Patch[], frameSeq: number): void {
    this.target.frameSeq = frameSeq;
    try {
      for (const patch of patches) {
        const el = this.beforePatch?.(patch, frameSeq);
        if (el !== false) applyPatch(this.target, patch, el);
      }
    } finally {
      this.inputs.sweep();
    }
  }

  /**
   * Replays what frames the page missed did to ids, before a full render is reconciled by id: kept
   * children are renamed (one simultaneous mapping per list, as in `kids`), children not kept and
   * elements that left are removed. Content is left to the render.
   */
  move(moves: readonly Move[]): void {
    applyMoves(this.target, moves);
    this.inputs.sweep();
  }

  /** Replaces the root with a full render, reconciling it so dirty inputs survive (resync). */
  root(html: string, frameSeq: number): void {
    this.target.frameSeq = frameSeq;
    const cur = byId(this.doc, ROOT_ID);
    const parent = cur?.parentElement ?? this.doc.body;
    const fresh = parseMarkup(this.doc, tagOf(parent), html).find((n) => n.nodeType === 1) as Element | undefined;
    if (fresh === undefined) return;
    if (cur !== null && tagOf(cur) === tagOf(fresh)) this.target.morph(cur, fresh);
    else if (cur !== null) cur.replaceWith(fresh);
    else parent.appendChild(fresh);
    this.inputs.sweep();
  }
}

/** The text an html patch gives a textarea (RCDATA: references decoded, no elements). */
function textOfMarkup(doc: Document, html: string): string {
  const t = doc.createElement("textarea");
  t.innerHTML = html;
  return t.value;
}
