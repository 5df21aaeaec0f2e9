/**
 * The diff engine: previous live tree + new live tree (+ client-reported values) → patches
 * (live-input-authority.md §Patch, §Processing of each event step 5, §Limits).
 *
 * Algorithm. Both trees carry their id segments already (src/live/ids.ts), so the diff only
 * compares. It walks the two trees together, depth first, from the root, keeping the segs of the
 * path it is on for each tree; an id string is joined from them only when a patch names it or the
 * authority map is read (most elements emit nothing):
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
 *      that step 2 of matching would pair anyway, or the only element of its tag on both sides,
 *      which step 3 pairs): no children op, only recursion. One walk checks
 *      the slots and recurses as it goes; a slot that differs drops what the walk emitted, and the
 *      children are reconciled as below. A slot whose stretch of the two trees' flat records is
 *      the same (src/live/flat.ts) is equal as it stands: the walk neither compares nor recurses
 *      into its objects, which on a busy server have long left the processor's caches.
 *    - a single new text child: a `text` patch.
 *    - raw HTML among the old or new children, no children, or no child matched: an `html` patch.
 *    - otherwise the children are matched (src/live/match.ts). When the new list is the old one
 *      minus some elements, those get `remove` patches (cheaper than listing every kept sibling);
 *      else a `kids` list: `{keep}` for a kept child whose id is unchanged, `{keep, id}` for a rename
 *      (its index moved), `{html}` for a new node or text. Kept pairs that matching found equal in
 *      content (all but ids) are not recursed into: their diff is empty.
 * 4. A kept form whose submit handler or action changed is a different form (§Client rules 6): a
 *    `replace` patch instead of recursing.
 * 5. Attributes: added or changed values, "" for removed ones, data-svc-hid by presence, filtered
 *    by the authority map (src/live/attrs-diff.ts).
 *
 * Inside a renamed subtree the old ids are stale, so the client's current id of an old child is
 * `<new parent id>.<old seg>` (outside one, the new parent id is the old one, so the same formula
 * holds); the authority map is read with the old ids, which are the ids the client posted.
 */
import { TEXT_ONLY_TAGS, type UiElement } from "../ui/node.ts";
import { CHANGE_SHOWN, clientShowsText, diffAttrs, reporter, type ClientValues, type IdPaths, type Reported } from "./attrs-diff.ts";
import { entryLength, type Flat, kidsStart, opensElement, sameEntries } from "./flat.ts";
import { assignIds } from "./ids.ts";
import { matchKids, sameShape } from "./match.ts";
import { type KidEntry, type Patch, ROOT_ID } from "../protocol/mod.ts";
import { renderElement, renderKids, renderNode } from "./render.ts";
import { childId, hasRawKid, type LiveElement, type LiveNode, type LiveTree } from "./tree.ts";

export type { ClientValues };

/** `diff(prevTree, nextTree, clientValues?)`: the patches that turn the old render into the new. */
export function diff(prev: LiveTree | UiElement, next: LiveTree | UiElement, clientValues?: ClientValues): Patch[] {
  const before = prev.kind === "tree" ? prev : assignIds(prev);
  const after = next.kind === "tree" ? next : assignIds(next);
  const p = before.root, n = after.root;
  if (p.tag !== n.tag || formChanged(p, n)) return [{ id: ROOT_ID, replace: renderElement(n, ROOT_ID) }];
  const oldFlat = before.flat, newFlat = after.flat;
  const walk = new DiffWalk(reporter(clientValues), oldFlat ?? NO_RECORD, newFlat ?? NO_RECORD);
  const recorded = oldFlat !== undefined && newFlat !== undefined;
  const equal =
    (recorded && oldFlat.length === newFlat.length && sameEntries(oldFlat, 0, newFlat, 0, oldFlat.length)) ||
    walk.element(p, n, 0, undefined, false, recorded ? 0 : UNKNOWN, recorded ? 0 : UNKNOWN) === EQUAL;
  // An equal new root takes the old root's kids (see DiffWalk.inPlace): none of its render is kept.
  if (equal && p !== n) (n as Swappable).kids = p.kids;
  return walk.out;
}

type MutablePatch = { id: string; text?: string; html?: string; kids?: KidEntry[]; attrs?: Record<string, string> };

/** An element of the new render, whose kids the diff may swap for equal old ones (DiffWalk.inPlace). */
type Swappable = { kids: readonly LiveNode[] };

/**
 * What comparing a pair found: a shape that differs (only when asked to verify it; nothing was
 * emitted), a difference (patched, or hidden by the client's reported values), or nothing at all.
 */
const MISMATCH = 0, CHANGED = 1, EQUAL = 2;
/** What `DiffWalk.inPlace` answers when the kids are not in the same slots. */
const NOT_IN_PLACE = -1;
type Found = typeof MISMATCH | typeof CHANGED | typeof EQUAL;

/** Where a pair's elements start in the flat records, when the walk knows it (UNKNOWN when not, or when a tree has no record). */
const UNKNOWN = -1;
const NO_RECORD: Flat = [];

/**
 * One diff: the patches so far and the path of the pair being compared, as the segs of the old and
 * the new element at each depth (depth 0 is the root). While kids are taken in place, the walk also
 * keeps the place of the pair in the two trees' flat records (src/live/flat.ts), and a kid whose
 * stretch of the record is the same in both is equal without a visit to its objects.
 */
class DiffWalk implements IdPaths {
  readonly out: Patch[] = [];
  private readonly oldSegs: string[] = [ROOT_ID];
  private readonly newSegs: string[] = [ROOT_ID];

  constructor(
    private readonly reported: Reported | undefined,
    private readonly oldFlat: Flat,
    private readonly newFlat: Flat,
  ) {}

  /** The id the client posted for the old element at `depth` on the path. */
  oldId(depth: number): string {
    return joinSegs(this.oldSegs, depth);
  }

  /** The id of the new element at `depth` on the path: what patches name it by. */
  newId(depth: number): string {
    return joinSegs(this.newSegs, depth);
  }

  /**
   * A kept pair at `depth`: a changed form is replaced (step 4), anything else diffed in place.
   * `verify`: see `element`; `op` and `np`: where the pair starts in the flat records, or UNKNOWN.
   */
  kept(pc: LiveElement, nc: LiveElement, depth: number, selectId: string | undefined, verify: boolean, op: number, np: number): Found {
    // One live element in both renders: the view handed back the same element (src/live/ids.ts).
    if (pc === nc) return EQUAL;
    this.oldSegs[depth] = pc.seg;
    this.newSegs[depth] = nc.seg;
    if (!formChanged(pc, nc)) return this.element(pc, nc, depth, selectId, verify, op, np);
    if (verify && !sameShape(pc, nc)) return MISMATCH;
    const id = this.newId(depth);
    this.out.push({ id, replace: renderElement(nc, id) });
    return CHANGED;
  }

  /**
   * A matched pair at `depth`, whose segs are on the path. `verify`: the pair was taken in place
   * by its parent before its child tags were compared (see `inPlace`); when they differ, nothing is
   * emitted and the answer is MISMATCH, for the parent to decide. EQUAL only when nothing differs,
   * not even what the client's reported values hide; CHANGED may also mean "not worth finding out"
   * (reconciled kids).
   */
  element(p: LiveElement, n: LiveElement, depth: number, selectId: string | undefined, verify: boolean, op: number, np: number): Found {
    const textOnly = TEXT_ONLY_TAGS.has(n.tag);
    // In place, every kid slot held the same kind and seg (so the same tag): the shapes are equal.
    if (!textOnly && p.kids.length === n.kids.length) {
      const found = this.inPlace(p, n, depth, selectId, op, np);
      if (found !== NOT_IN_PLACE) return found;
    }
    if (verify && !sameShape(p, n)) return MISMATCH;
    // Ops are collected first and the patch built only when there is one: most elements have none.
    let text: string | undefined, html: string | undefined, kids: KidEntry[] | undefined;
    let id: string | undefined; // the new id, joined once when an op needs it
    let pairs: number[] | undefined; // flat [old index, new index, …] of kept elements to recurse into
    let removed: string[] | undefined;
    let same: Uint8Array | undefined; // new indexes whose kept element has the same content: no recursion

    if (textOnly) {
      const content = textOf(n);
      if (textOf(p) !== content && !(n.tag === "textarea" && clientShowsText(this.reported, this, depth, content))) html = renderKids(n, (id = this.newId(depth)));
    } else if (n.kids.length === 1 && (n.kids[0] as LiveNode).kind === "text") {
      text = (n.kids[0] as { text: string }).text;
    } else if (n.kids.length === 0 || hasRawKid(p) || hasRawKid(n)) {
      html = renderKids(n, (id = this.newId(depth)));
    } else {
      const match = matchKids(p.kids, n.kids);
      const toPrev = match.toPrev;
      same = match.same;
      pairs = [];
      for (let j = 0; j < toPrev.length; j++) if ((toPrev[j] as number) >= 0) pairs.push(toPrev[j] as number, j);
      if (pairs.length === 0) {
        pairs = undefined;
        html = renderKids(n, (id = this.newId(depth)));
      } else {
        id = this.newId(depth);
        removed = onlyRemovals(p, n, toPrev, id);
        if (removed === undefined) kids = kidEntries(p, n, toPrev, id);
      }
    }

    const changed = diffAttrs(p, n, this.reported, this, depth, selectId);
    const attrs = changed === CHANGE_SHOWN ? undefined : changed;
    if (text !== undefined || html !== undefined || kids !== undefined || attrs !== undefined) {
      const patch: MutablePatch = { id: id ?? this.newId(depth) };
      if (text !== undefined) patch.text = text;
      if (html !== undefined) patch.html = html;
      if (kids !== undefined) patch.kids = kids;
      if (attrs !== undefined) patch.attrs = attrs;
      this.out.push(patch);
    }
    if (removed !== undefined) for (const id of removed) this.out.push({ id, remove: true });
    if (pairs !== undefined) {
      const childSelect = this.selectIdBelow(n, depth, selectId);
      for (let k = 0; k < pairs.length; k += 2) {
        const j = pairs[k + 1] as number;
        if (same === undefined || same[j] !== 1) this.kept(p.kids[pairs[k] as number] as LiveElement, n.kids[j] as LiveElement, depth + 1, childSelect, false, UNKNOWN, UNKNOWN);
      }
    }
    // Here only a text-only element (style, script, textarea, title) can be equal: same text, same attributes.
    return textOnly && changed === undefined && textOf(p) === textOf(n) ? EQUAL : CHANGED;
  }

  /**
   * The same children in the same slots (equal texts and raw markup, equal id segments, and shapes
   * that matching would pair anyway): no children op, only the element's attrs and the kept
   * children. One walk checks each slot and diffs its element as it goes; at the first slot that
   * differs it drops what it emitted and answers NOT_IN_PLACE, and the caller reconciles the
   * children instead. EQUAL when nothing differs at all.
   *
   * A slot's shapes (§Child matching order, step 2: tag, key, name, type, child tags) are checked
   * in two halves: tag and key are in the seg, and name and type are compared here; the child
   * tags are left to the pair's own diff, whose in-place walk compares every kid's seg anyway, so
   * only a pair that is not diffed in place compares them apart (`verify`). Comparing them up
   * front read every kid of every element twice per event.
   *
   * Kids found equal to the old ones are swapped for them in the new render (when this element
   * is not equal as a whole: then its parent swaps it). A session keeps the new render until its
   * next event; without the swap all of it, hundreds of objects for an event that changed one
   * text, would outlive the collector's young generation and be copied there, on every event of
   * every busy session (bench/live.bench.ts, 100 sessions). With it, the parts that do not change
   * stay the objects of an earlier render, and only the elements on the way to a change are new.
   * Equal means equal in everything a render holds, so an element shared with other renders (a
   * static part's live element, src/live/ids.ts) means the same after its kids are swapped.
   */
  private inPlace(p: LiveElement, n: LiveElement, depth: number, selectId: string | undefined, op: number, np: number): Found | typeof NOT_IN_PLACE {
    const out = this.out;
    const mark = out.length;
    const oldFlat = this.oldFlat, newFlat = this.newFlat;
    const placed = op !== UNKNOWN && np !== UNKNOWN;
    // Where the current kid starts in each record.
    let oAt = placed ? kidsStart(oldFlat, op) : UNKNOWN, nAt = placed ? kidsStart(newFlat, np) : UNKNOWN;
    const changed = diffAttrs(p, n, this.reported, this, depth, selectId);
    if (changed !== undefined && changed !== CHANGE_SHOWN) out.push({ id: this.newId(depth), attrs: changed });
    const childSelect = this.selectIdBelow(n, depth, selectId);
    const pk = p.kids, nk = n.kids;
    let equal = changed === undefined;
    let swapped: LiveNode[] | undefined; // the new kids with the equal ones swapped, made at the first swap
    for (let i = 0; i < nk.length; i++) {
      const x = pk[i] as LiveNode, y = nk[i] as LiveNode;
      // This kid's place in each record; the next kid's follows it.
      const xAt = oAt, yAt = nAt;
      if (placed) {
        oAt += entryLength(oldFlat, xAt);
        nAt += entryLength(newFlat, yAt);
      }
      if (x === y) continue;
      let found: Found;
      // The same stretch of both records: the same subtree, found without reading its objects.
      if (placed && oAt - xAt === nAt - yAt && sameEntries(oldFlat, xAt, newFlat, yAt, oAt - xAt)) found = EQUAL;
      else if (x.kind !== y.kind) return this.drop(mark);
      else if (x.kind === "text") {
        if (x.text !== (y as typeof x).text) return this.drop(mark);
        found = EQUAL;
      } else if (x.kind === "raw") {
        if (x.html !== (y as typeof x).html) return this.drop(mark);
        found = EQUAL;
      } else {
        const ny = y as LiveElement;
        if (x.seg !== ny.seg) return this.drop(mark);
        // Below, the records are followed only where both kids are recorded in full.
        const inRecords = placed && opensElement(oldFlat, xAt) && opensElement(newFlat, yAt);
        const xPlace = inRecords ? xAt : UNKNOWN, yPlace = inRecords ? yAt : UNKNOWN;
        // Index-free: matching pairs it by its seg alone (step 1). Else its shape must match, or it
        // must be the only element of its tag on both sides, which matching pairs whatever its shape.
        if (x.indexFree) found = this.kept(x, ny, depth + 1, childSelect, false, xPlace, yPlace);
        else found = x.name === ny.name && x.type === ny.type ? this.kept(x, ny, depth + 1, childSelect, true, xPlace, yPlace) : MISMATCH;
        if (found === MISMATCH) {
          if (!(onlyOfTag(pk, x) && onlyOfTag(nk, ny))) return this.drop(mark);
          found = this.kept(x, ny, depth + 1, childSelect, false, xPlace, yPlace);
        }
      }
      if (found === EQUAL) {
        if (!equal) (swapped ??= nk.slice())[i] = x;
      } else if (equal) {
        // The first difference: every kid before it was equal, and is swapped for the old one.
        equal = false;
        swapped = nk.slice();
        for (let k = 0; k < i; k++) swapped[k] = pk[k] as LiveNode;
      }
    }
    if (swapped !== undefined) (n as Swappable).kids = swapped;
    return equal ? EQUAL : CHANGED;
  }

  /** Drops what an in-place walk emitted since `mark`; NOT_IN_PLACE, for the walk to return. */
  private drop(mark: number): typeof NOT_IN_PLACE {
    this.out.length = mark;
    return NOT_IN_PLACE;
  }

  /** The old id of the select the children of `n` are in: `n` itself, or the one `n` (an optgroup) is in. */
  private selectIdBelow(n: LiveElement, depth: number, selectId: string | undefined): string | undefined {
    return n.tag === "select" ? this.oldId(depth) : n.tag === "optgroup" ? selectId : undefined;
  }
}

/** The id of the element at `depth` on a path of segs. */
function joinSegs(segs: readonly string[], depth: number): string {
  let id = segs[0] as string;
  for (let i = 1; i <= depth; i++) id = childId(id, segs[i] as string);
  return id;
}

/**
 * Whether `el` is the only element of its tag among `kids` (short lists only). Such a pair in the
 * same slot is one matching pairs whatever its shape: no other element could take either side by
 * shape (step 2), and leftovers of one tag pair in order (step 3). A table whose tbody gained a
 * row is then diffed in place instead of matched.
 */
function onlyOfTag(kids: readonly LiveNode[], el: LiveElement): boolean {
  if (kids.length > 8) return false;
  for (const kid of kids) if (kid !== el && kid.kind === "el" && kid.tag === el.tag) return false;
  return true;
}

/**
 * When the new children are the old ones with some elements left out (every kept element in its
 * old order under its old id, every text unchanged), the ids of the left-out elements (`id` is the
 * new parent's); otherwise undefined.
 */
function onlyRemovals(p: LiveElement, n: LiveElement, toPrev: Int32Array, id: string): string[] | undefined {
  const pk = p.kids, nk = n.kids;
  if (nk.length > pk.length) return undefined;
  const removed: string[] = [];
  let j = 0;
  for (let i = 0; i < pk.length; i++) {
    // Fewer old children left than new ones to match: not a removal (a reorder, say); stop early.
    if (pk.length - i < nk.length - j) return undefined;
    const old = pk[i] as LiveNode;
    const cur = nk[j];
    if (cur !== undefined && corresponds(old, i, cur, toPrev[j] as number)) j++;
    else if (old.kind === "el") removed.push(childId(id, old.seg));
    else return undefined;
  }
  return j === nk.length ? removed : undefined;
}

function corresponds(old: LiveNode, oldIndex: number, cur: LiveNode, matched: number): boolean {
  if (old.kind === "text") return cur.kind === "text" && cur.text === old.text;
  return old.kind === "el" && matched === oldIndex && (cur as LiveElement).seg === old.seg;
}

/** The kids list of `n` (whose id is `id`): an old child is named by its current id in the client, `<id>.<old seg>`. */
function kidEntries(p: LiveElement, n: LiveElement, toPrev: Int32Array, id: string): KidEntry[] {
  const entries: KidEntry[] = new Array(n.kids.length);
  for (let j = 0; j < n.kids.length; j++) {
    const cur = n.kids[j] as LiveNode;
    const i = toPrev[j] as number;
    if (i < 0) {
      entries[j] = { html: renderNode(cur, n.tag, id) };
      continue;
    }
    const old = p.kids[i] as LiveElement;
    const keep = childId(id, old.seg);
    const seg = (cur as LiveElement).seg;
    entries[j] = seg === old.seg ? { keep } : { keep, id: childId(id, seg) };
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
  const a = p.handlers?.submit, b = n.handlers?.submit;
  if (a === b) return false;
  if (a === undefined || b === undefined) return true;
  if (a.msg !== b.msg) return true;
  return (a.args.length !== 0 || b.args.length !== 0) && JSON.stringify(a.args) !== JSON.stringify(b.args);
}
