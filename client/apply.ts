/**
 * The patch applier (docs/protocol.md#patches, docs/protocol.md#client-rules).
 *
 * Algorithm. A frame's patches apply one after another, each addressing its element by svc-id in
 * the live DOM (so a rename earlier in the batch is seen by later patches). Within a patch the
 * operations run in the wire order replace, text, html, kids, attrs, remove:
 *
 * - Before anything, the authority rule may declare the whole patch stale (rule 1 case 3).
 * - replace: the element is swapped for the parsed markup; a replaced form's fields are new and
 *   empty (rule 6).
 * - text: the only child becomes the text. On a textarea, text is its value: authority rule.
 * - html: the children become the markup, reconciled element by element (rule 4, morph.ts), so
 *   a dirty input inside keeps its node, value, focus, caret and composition.
 * - kids: the new child list is built from `{keep}` (the existing child, found among the element's
 *   children), `{keep, id}` (the same, with every svc-id under it rewritten from
 *   the old prefix to the new one) and `{html}` (parsed nodes); then `place` orders them with the
 *   fewest moves, never moving the focused one, and removes the rest. Every keep is looked up
 *   among the children as they were before the patch, and each rename rewrites only its own
 *   node's subtree, so the renames of one patch act as one simultaneous mapping: a chain such as
 *   r.1 -> r.2 beside r.2 -> r.3 moves each node once. Per-input entries and queued sends hold
 *   nodes, not ids (inputs.ts), so they follow without being told.
 * - attrs: through the authority rule ("" removes; removing value, checked, selected or disabled
 *   resets the property).
 * - remove: the element leaves the DOM.
 *
 * A patch for an id that is not in the DOM, or a `keep` whose node is missing, is a desync: the
 * applier stops and the caller resyncs from a full render (docs/protocol.md#errors-and-statuses). After the frame, entries of
 * controls that left the DOM are deleted.
 */
import { ID_ATTR, isWithin, type Move, type Patch, renamedId, ROOT_ID } from "../src/protocol/mod.ts";
import { applyAttrs, applyTextareaText, isStale } from "./authority.ts";
import { byId, idOf, parseMarkup, tagOf } from "./dom.ts";
import type { InputTable } from "./inputs.ts";
import { morphElement, place, reconcile } from "./morph.ts";

export class Desync extends Error {}

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
 * It answers the element the patch addresses, so the applier need not look for it again, or
 * `false` when the DOM has nothing to write (it lost the element a `remove` takes out).
 */
export type BeforePatch = (patch: Patch, frameSeq: number) => Element | false;

export class Applier implements PageApplier {
  constructor(
    private readonly doc: Document,
    private readonly inputs: InputTable,
    private readonly beforePatch?: BeforePatch,
  ) {}

  /** Applies one frame's patches; throws Desync on a missing node. */
  patches(patches: readonly Patch[], frameSeq: number): void {
    try {
      for (const patch of patches) {
        const el = this.beforePatch === undefined ? byId(this.doc, patch.id) : this.beforePatch(patch, frameSeq);
        if (el !== false) this.patch(patch, frameSeq, el);
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
    for (const move of moves) {
      if ("gone" in move) {
        byId(this.doc, move.gone)?.remove();
        continue;
      }
      const parent = byId(this.doc, move.parent);
      if (parent === null) continue;
      const kept = new Map(move.kept);
      for (const child of Array.from(parent.children)) {
        const id = child.getAttribute(ID_ATTR);
        if (id === null) continue;
        const to = kept.get(id);
        if (to === undefined) child.remove();
        else if (to !== id) this.rename(child, id, to);
      }
    }
    this.inputs.sweep();
  }

  /** Replaces the root with a full render, reconciling it so dirty inputs survive (resync). */
  root(html: string, frameSeq: number): void {
    const cur = byId(this.doc, ROOT_ID);
    const parent = cur?.parentElement ?? this.doc.body;
    const fresh = parseMarkup(this.doc, tagOf(parent), html).find((n) => n.nodeType === 1) as Element | undefined;
    if (fresh === undefined) return;
    if (cur !== null && tagOf(cur) === tagOf(fresh)) {
      morphElement(cur, fresh, this.attrWriter(frameSeq), this.textareaWriter(frameSeq));
    } else if (cur !== null) cur.replaceWith(fresh);
    else parent.appendChild(fresh);
    this.inputs.sweep();
  }

  private patch(patch: Patch, frameSeq: number, found: Element | null): void {
    let el = found;
    if (el === null) throw new Desync(`no element ${patch.id}`);
    if (patch.replace === undefined && patch.attrs !== undefined && isStale(this.inputs, el, patch.attrs, frameSeq)) return;
    if (patch.replace !== undefined) {
      const parent = el.parentElement;
      const nodes = parseMarkup(this.doc, parent === null ? "div" : tagOf(parent), patch.replace);
      el.replaceWith(...nodes);
      const fresh = nodes.find((n) => n.nodeType === 1) as Element | undefined;
      if (fresh === undefined) return;
      el = fresh;
    }
    if (patch.text !== undefined) this.content(el, patch.text, undefined, frameSeq);
    if (patch.html !== undefined) this.content(el, undefined, patch.html, frameSeq);
    if (patch.kids !== undefined) this.kids(el, patch);
    if (patch.attrs !== undefined) applyAttrs(this.inputs, el, patch.attrs, frameSeq);
    if (patch.remove === true) el.remove();
  }

  /** text and html operations. */
  private content(el: Element, text: string | undefined, html: string | undefined, frameSeq: number): void {
    if (tagOf(el) === "textarea") {
      const value = text ?? textOfMarkup(this.doc, html ?? "");
      applyTextareaText(this.inputs, el as HTMLTextAreaElement, value, frameSeq);
      return;
    }
    if (text !== undefined) {
      el.textContent = text;
      return;
    }
    // Always reconciled rather than re-parsed in place: a dirty or focused input inside keeps its
    // node (rule 4), and so does every other control, so no typed or selected state is lost.
    reconcile(
      el,
      parseMarkup(this.doc, tagOf(el), html ?? "", idOf(el) ?? undefined),
      this.attrWriter(frameSeq),
      this.textareaWriter(frameSeq),
    );
  }

  private kids(el: Element, patch: Patch): void {
    const current = new Map<string, Element>();
    for (const child of Array.from(el.children)) {
      const id = child.getAttribute(ID_ATTR);
      if (id !== null) current.set(id, child);
    }
    const tag = tagOf(el);
    const wanted: Node[] = [];
    for (const entry of patch.kids ?? []) {
      if ("html" in entry) {
        wanted.push(...parseMarkup(this.doc, tag, entry.html));
        continue;
      }
      const node = current.get(entry.keep);
      if (node === undefined) throw new Desync(`keep ${entry.keep} is not a child of ${patch.id}`);
      current.delete(entry.keep);
      if ("id" in entry && entry.id !== entry.keep) this.rename(node, entry.keep, entry.id);
      wanted.push(node);
    }
    place(el, wanted);
  }

  /** docs/protocol.md#patches, kids: keep-and-rename rewrites the ids of this node's subtree (and nothing else). */
  private rename(root: Element, from: string, to: string): void {
    const rewrite = (el: Element) => {
      const id = el.getAttribute(ID_ATTR);
      if (id !== null && isWithin(id, from)) el.setAttribute(ID_ATTR, renamedId(id, from, to));
    };
    rewrite(root);
    for (const el of Array.from(root.querySelectorAll(`[${ID_ATTR}]`))) rewrite(el);
  }

  private attrWriter(frameSeq: number) {
    return (el: Element, attrs: Record<string, string>) => {
      if (!isStale(this.inputs, el, attrs, frameSeq)) applyAttrs(this.inputs, el, attrs, frameSeq);
    };
  }

  private textareaWriter(frameSeq: number) {
    return (el: HTMLTextAreaElement, text: string) => void applyTextareaText(this.inputs, el, text, frameSeq);
  }
}

/** The text an html patch gives a textarea (RCDATA: references decoded, no elements). */
function textOfMarkup(doc: Document, html: string): string {
  const t = doc.createElement("textarea");
  t.innerHTML = html;
  return t.value;
}
