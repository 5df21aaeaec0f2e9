/**
 * The diff engine: previous live tree + new live tree (+ client-reported values) → patches
 * (live-input-authority.md §Patch, §Processing of each event step 5, §Limits).
 *
 * Algorithm. Both trees carry their ids already (src/live/ids.ts), so the diff only compares.
 * It walks the two trees together, depth first, from the root:
 *
 * 1. Root: a different tag (or a form root whose submit handler or action changed) is a `replace`
 *    of `r` with the new markup, and the diff ends there.
 * 2. For a matched pair of elements it computes one patch for the element, in the op order of the
 *    wire (text, html, kids, attrs), then recurses into the kept children in new order. Patches are
 *    emitted in that pre-order, so a parent's `kids` (and its renames) land before any patch that
 *    addresses a child by its new id, and an `html` patch ends the walk below it: it carries the
 *    full subtree (§Limits, order of patch emission).
 * 3. Children:
 *    - style, script, textarea, title: the text is compared; a change is an `html` patch (for a
 *      textarea, not when the client already shows that text).
 *    - the same children in the same slots (same id segments, texts and raw markup, and shapes
 *      that step 2 of matching would pair anyway): no children op, only recursion.
 *    - a single new text child: a `text` patch.
 *    - raw HTML among the old or new children, no children, or no child matched: an `html` patch.
 *    - otherwise the children are matched (src/live/match.ts). When the new list is the old one
 *      minus some elements, those get `remove` patches (cheaper than listing every kept sibling);
 *      else a `kids` list: `{keep}` for a kept child whose id is unchanged, `{keep, id}` for a rename
 *      (its index moved), `{html}` for a new node or text.
 * 4. A kept form whose submit handler or action changed is a different form (§Client rules 6): a
 *    `replace` patch instead of recursing.
 * 5. Attributes: added or changed values, "" for removed ones, data-svc-hid by presence, filtered
 *    by the authority map (src/live/attrs-diff.ts).
 *
 * Inside a renamed subtree the old ids are stale, so the client's current id of an old child is
 * computed as `<new parent id>.<old seg>`; the authority map is read with the old ids, which are
 * the ids the client posted.
 */
import { TEXT_ONLY_TAGS, type UiElement } from "../ui/node.ts";
import { clientShowsText, diffAttrs, reporter, type ClientValues, type Reported } from "./attrs-diff.ts";
import { assignIds } from "./ids.ts";
import { matchKids, sameShape } from "./match.ts";
import type { KidEntry, Patch } from "./protocol.ts";
import { renderElement, renderKids, renderNode } from "./render.ts";
import type { LiveElement, LiveNode, LiveTree } from "./tree.ts";

export type { ClientValues };

/** `diff(prevTree, nextTree, clientValues?)`: the patches that turn the old render into the new. */
export function diff(prev: LiveTree | UiElement, next: LiveTree | UiElement, clientValues?: ClientValues): Patch[] {
  const p = prev.kind === "tree" ? prev.root : assignIds(prev).root;
  const n = next.kind === "tree" ? next.root : assignIds(next).root;
  const out: Patch[] = [];
  const reported = reporter(clientValues);
  if (p.tag !== n.tag || formChanged(p, n)) out.push({ id: n.id, replace: renderElement(n) });
  else diffElement(p, n, reported, undefined, out);
  return out;
}

type MutablePatch = { id: string; text?: string; html?: string; kids?: KidEntry[]; attrs?: Record<string, string> };

function diffElement(p: LiveElement, n: LiveElement, reported: Reported | undefined, selectId: string | undefined, out: Patch[]): void {
  // Ops are collected first and the patch built only when there is one: most elements have none.
  let text: string | undefined, html: string | undefined, kids: KidEntry[] | undefined;
  let pairs: number[] | undefined; // flat [old index, new index, …] of kept elements to recurse into
  let removed: string[] | undefined;

  if (TEXT_ONLY_TAGS.has(n.tag)) {
    const content = textOf(n);
    if (textOf(p) !== content && !(n.tag === "textarea" && clientShowsText(p.id, content, reported))) html = renderKids(n);
  } else if (sameSlots(p.kids, n.kids)) {
    pairs = [];
    for (let i = 0; i < n.kids.length; i++) if ((n.kids[i] as LiveNode).kind === "el") pairs.push(i, i);
  } else if (n.kids.length === 1 && (n.kids[0] as LiveNode).kind === "text") {
    text = (n.kids[0] as { text: string }).text;
  } else if (p.hasRaw || n.hasRaw || n.kids.length === 0) {
    html = renderKids(n);
  } else {
    const toPrev = matchKids(p.kids, n.kids);
    pairs = [];
    for (let j = 0; j < toPrev.length; j++) if ((toPrev[j] as number) >= 0) pairs.push(toPrev[j] as number, j);
    if (pairs.length === 0) {
      pairs = undefined;
      html = renderKids(n);
    } else {
      removed = onlyRemovals(p, n, toPrev);
      if (removed === undefined) kids = kidEntries(p, n, toPrev);
    }
  }

  const attrs = diffAttrs(p, n, reported, selectId);
  if (text !== undefined || html !== undefined || kids !== undefined || attrs !== undefined) {
    const patch: MutablePatch = { id: n.id };
    if (text !== undefined) patch.text = text;
    if (html !== undefined) patch.html = html;
    if (kids !== undefined) patch.kids = kids;
    if (attrs !== undefined) patch.attrs = attrs;
    out.push(patch);
  }
  if (removed !== undefined) for (const id of removed) out.push({ id, remove: true });
  if (pairs === undefined) return;

  const childSelect = n.tag === "select" ? p.id : n.tag === "optgroup" ? selectId : undefined;
  for (let k = 0; k < pairs.length; k += 2) {
    const pc = p.kids[pairs[k] as number] as LiveElement;
    const nc = n.kids[pairs[k + 1] as number] as LiveElement;
    if (formChanged(pc, nc)) out.push({ id: nc.id, replace: renderElement(nc) });
    else diffElement(pc, nc, reported, childSelect, out);
  }
}

/** Same slots: equal texts and raw markup, equal id segments, and shapes matching would pair. */
function sameSlots(a: readonly LiveNode[], b: readonly LiveNode[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as LiveNode, y = b[i] as LiveNode;
    if (x.kind !== y.kind) return false;
    if (x.kind === "text") {
      if (x.text !== (y as typeof x).text) return false;
    } else if (x.kind === "raw") {
      if (x.html !== (y as typeof x).html) return false;
    } else {
      const ye = y as LiveElement;
      if (x.seg !== ye.seg || (!x.indexFree && !sameShape(x, ye))) return false;
    }
  }
  return true;
}

/**
 * When the new children are the old ones with some elements left out (every kept element in its
 * old order under its old id, every text unchanged), the ids of the left-out elements; otherwise
 * undefined.
 */
function onlyRemovals(p: LiveElement, n: LiveElement, toPrev: Int32Array): string[] | undefined {
  const removed: string[] = [];
  let j = 0;
  for (let i = 0; i < p.kids.length; i++) {
    const old = p.kids[i] as LiveNode;
    const cur = n.kids[j];
    if (cur !== undefined && corresponds(old, i, cur, toPrev[j] as number)) j++;
    else if (old.kind === "el") removed.push(`${n.id}.${old.seg}`);
    else return undefined;
  }
  return j === n.kids.length ? removed : undefined;
}

function corresponds(old: LiveNode, oldIndex: number, cur: LiveNode, matched: number): boolean {
  if (old.kind === "text") return cur.kind === "text" && cur.text === old.text;
  return old.kind === "el" && matched === oldIndex && (cur as LiveElement).seg === old.seg;
}

function kidEntries(p: LiveElement, n: LiveElement, toPrev: Int32Array): KidEntry[] {
  const entries: KidEntry[] = new Array(n.kids.length);
  for (let j = 0; j < n.kids.length; j++) {
    const cur = n.kids[j] as LiveNode;
    const i = toPrev[j] as number;
    if (i < 0) {
      entries[j] = { html: renderNode(cur, n.tag) };
      continue;
    }
    const old = p.kids[i] as LiveElement;
    const keep = `${n.id}.${old.seg}`;
    const seg = (cur as LiveElement).seg;
    entries[j] = seg === old.seg ? { keep } : { keep, id: (cur as LiveElement).id };
  }
  return entries;
}

function textOf(el: LiveElement): string {
  const first = el.kids[0];
  return first !== undefined && first.kind === "text" ? first.text : "";
}

/** A form whose submit handler or action differs from the form in the same slot (§Client rules 6). */
function formChanged(p: LiveElement, n: LiveElement): boolean {
  if (n.tag !== "form" || p.tag !== "form") return false;
  if (p.attrs["action"] !== n.attrs["action"]) return true;
  const a = p.source?.handlers?.submit, b = n.source?.handlers?.submit;
  if (a === b) return false;
  if (a === undefined || b === undefined) return true;
  return a.msg !== b.msg || JSON.stringify(a.args) !== JSON.stringify(b.args);
}
