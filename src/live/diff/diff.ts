/**
 * The diff engine: previous live tree + new live tree (+ client-reported values) → patches
 * (docs/protocol.md#patches, #input-state), and the tree to keep in place of the new one.
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
 *    full subtree.
 * 3. Children:
 *    - style, script, textarea, title: the text is compared; a change is an `html` patch (for a
 *      textarea, not when the client already shows that text).
 *    - the same children in the same slots (same id segments, texts and raw markup, and shapes
 *      that step 2 of matching would pair anyway, or the only element of its tag on both sides,
 *      which step 3 pairs): no children op, only recursion. One walk checks
 *      the slots and recurses as it goes; a slot that differs drops what the walk emitted, and the
 *      children are reconciled as below. A slot that holds one object in both trees (the view
 *      handed back the same element, src/live/ids.ts) is equal as it stands: the walk does not
 *      recurse into it.
 *    - a single new text child: a `text` patch.
 *    - raw HTML among the old or new children, no children, or no child matched: an `html` patch.
 *    - otherwise the children are matched (src/live/diff/match.ts). When the new list is the old one
 *      minus some elements, those get `remove` patches (cheaper than listing every kept sibling);
 *      else a `kids` list: `{keep}` for a kept child whose id is unchanged, `{keep, id}` for a rename
 *      (its index moved), `{html}` for a new node or text. Kept pairs that matching found equal in
 *      content (all but ids) are not recursed into: their diff is empty.
 * 4. A kept form whose submit handler or action changed is a different form
 *    (docs/protocol.md#patches, `replace`): a `replace` patch instead of recursing.
 * 5. Attributes: added or changed values, "" for removed ones, filtered
 *    by the authority map (src/live/diff/attrs.ts).
 *
 * The parts: the path of pairs and the ids it joins are src/live/diff/path.ts, the rules that
 * replace a form or an option (step 4) src/live/diff/rules.ts, the `kids` list and removals
 * src/live/diff/kids.ts, the attributes src/live/diff/attrs.ts; this module walks.
 *
 * Inside a renamed subtree the old ids are stale, so the client's current id of an old child is
 * `<new parent id>.<old seg>` (outside one, the new parent id is the old one, so the same formula
 * holds); the authority map is read with the old ids, which are the ids the client posted.
 *
 * The kept tree. Neither tree is changed. Beside the patches the diff returns the tree a session
 * keeps until its next event: the new render, with each of its parts that equals the old one
 * replaced by the old objects (a changed element whose kids were replaced so is a copy, and so
 * are its changed ancestors). A session keeps that tree until its next event; were it the new
 * render as built, all of it, hundreds of objects for an event that changed one text, would
 * outlive the collector's young generation and be copied there, on every event of every busy
 * session (bench/live.bench.ts, 100 sessions). This way the parts that do not change stay the
 * objects of an earlier render, and only the elements on the way to a change are new. Equal means
 * equal in everything a render holds, so the kept tree means exactly the new render.
 */
import { TEXT_ONLY_TAGS, type UiElement } from "../../ui/node.ts";
import { Part, sameLazyCall } from "../render-state/lazy-part.ts";
import { type KidEntry, type Patch, ROOT_ID } from "../../protocol/mod.ts";
import { CHANGE_SHOWN, clientShowsText, type ClientValues, diffAttrs, type Reported, reporter } from "./attrs.ts";
import type { RenderProbe } from "../probe.ts";
import { kidEntries, type MatchedKids, onlyRemovals } from "./kids.ts";
import { type Pair, PairPath } from "./path.ts";
import { emptyValueChanged, formChanged, onlyOfTag } from "./rules.ts";
import { assignIds } from "../ids.ts";
import { matchKids, sameShape } from "./match.ts";
import { renderElement, renderKids } from "../render.ts";
import { hasRawKid, isIndexFree, type LiveElement, type LiveNode, type LiveTree, textOf, withKids } from "../tree.ts";

export type { ClientValues };

/** What a diff gives: the patches, and the tree to keep in place of the new one (see above). */
export type Diffed = { readonly patches: Patch[]; readonly tree: LiveTree };

/**
 * The patches that turn one render into the next (docs/protocol.md#patches): what a live app
 * sends after each event. `clientValues`, the values the page's controls hold, keeps a diff from
 * overwriting what the user is typing (docs/live-apps.md#what-the-user-types-is-never-lost).
 *
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * const list = (n: number) => Ui.h("ul", {}, Ui.keyed("a", Ui.h("li", {}, `${n} apples`)));
 * console.log(Live.diff(list(1), list(2))); // [{ id: "r.#li:a", text: "2 apples" }]
 * ```
 */
export function diff(prev: LiveTree | UiElement, next: LiveTree | UiElement, clientValues?: ClientValues): Patch[] {
  return diffTrees(prev.kind === "tree" ? prev : assignIds(prev), next.kind === "tree" ? next : assignIds(next), clientValues).patches;
}

/**
 * The patches from `before` to `after`, and the tree to keep in place of `after`. `probe`: the
 * test hook that counts the pairs it compares (src/live/probe.ts).
 */
export function diffTrees(before: LiveTree, after: LiveTree, clientValues?: ClientValues, probe?: RenderProbe): Diffed {
  const p = before.root, n = after.root;
  if (p.tag !== n.tag || formChanged(p, n)) return { patches: [{ id: ROOT_ID, replace: renderElement(n, ROOT_ID, "body") }], tree: after };
  const walk = new DiffWalk(reporter(clientValues), probe);
  const equal = walk.element(walk.root(p, n), TRUSTED) === EQUAL;
  // An equal new render is kept as the old root; a changed one as the copy its equal parts went into, if any.
  const keptRoot = equal ? p : walk.takeRebuilt() ?? n;
  return { patches: walk.out, tree: keptRoot === n ? after : { kind: "tree", root: keptRoot } };
}

type MutablePatch = { id: string; text?: string; html?: string; kids?: KidEntry[]; attrs?: Record<string, string> };

/**
 * What comparing a pair found: a shape that differs (only when asked to verify it; nothing was
 * emitted), a difference (patched, or hidden by the client's reported values), or nothing at all.
 */
const MISMATCH = 0, CHANGED = 1, EQUAL = 2;
/** What `DiffWalk.inPlace` answers when the kids are not in the same slots. */
const NOT_IN_PLACE = -1;
type Found = typeof MISMATCH | typeof CHANGED | typeof EQUAL;

/**
 * How `kept` and `element` take a pair: VERIFY when its parent took it in place before its child
 * tags were compared (see `inPlace`); when they differ, nothing is emitted and the answer is
 * MISMATCH.
 */
const VERIFY = true, TRUSTED = false;

/** One diff: the patches so far and the pairs on the path being compared (depth 0 is the roots). */
class DiffWalk extends PairPath {
  readonly out: Patch[] = [];
  /**
   * The copy of the last compared pair's new element, with its equal parts replaced by the old
   * ones, when it made one: what its parent keeps in its place. Taken at once by the caller.
   */
  private rebuilt: LiveElement | undefined;

  constructor(reported: Reported | undefined, private readonly probe: RenderProbe | undefined) {
    super(reported);
  }

  /** The copy the last compared pair made of its new element, if any (see `rebuilt`). */
  takeRebuilt(): LiveElement | undefined {
    const rebuilt = this.rebuilt;
    this.rebuilt = undefined;
    return rebuilt;
  }

  /** A kept pair: a changed form is replaced (step 4), anything else diffed in place. `verify`: see VERIFY. */
  kept(pair: Pair, verify: boolean): Found {
    const { before, after } = pair;
    // One live element in both renders: the view handed back the same element (src/live/ids.ts),
    // or two lazy parts of one call, whose content is the same (src/live/render-state/lazy-part.ts).
    if (before === after || sameLazyCall(before, after)) return EQUAL;
    if (this.probe !== undefined) this.probe.compared++;
    if (!formChanged(before, after) && !emptyValueChanged(before, after)) return this.element(pair, verify);
    if (verify && !sameShape(before, after)) return MISMATCH;
    const id = this.newId(pair.depth);
    this.out.push({ id, replace: renderElement(after, id, this.parentTagOf(pair.depth)) });
    return CHANGED;
  }

  /**
   * A matched pair, on the path. EQUAL only when nothing differs, not even what the client's
   * reported values hide; CHANGED may also mean "not worth finding out" (reconciled kids).
   */
  element(pair: Pair, verify: boolean): Found {
    const { before, after } = pair;
    const textOnly = TEXT_ONLY_TAGS.has(after.tag);
    // In place, every kid slot held the same kind and seg (so the same tag): the shapes are equal.
    if (!textOnly && before.kids.length === after.kids.length) {
      const found = this.inPlace(pair);
      if (found !== NOT_IN_PLACE) return found;
    }
    if (verify && !sameShape(before, after)) return MISMATCH;
    const kids = this.kidsOp(pair);
    const changed = diffAttrs(pair, this);
    const attrs = changed === CHANGE_SHOWN ? undefined : changed;
    this.emit(pair, kids, attrs);
    if (kids.removed !== undefined) { for (const id of kids.removed) this.out.push({ id, remove: true }); }
    if (kids.pairs !== undefined) this.diffMatchedKids(pair, kids.pairs, kids.same);
    // Here only a text-only element (style, script, textarea, title) can be equal: same text, same attributes.
    return textOnly && changed === undefined && textOf(before) === textOf(after) ? EQUAL : CHANGED;
  }

  /** The children op of a pair not diffed in place (step 3), and the kept pairs to recurse into. */
  private kidsOp(pair: Pair): KidsOp {
    const { before, after, depth } = pair;
    if (TEXT_ONLY_TAGS.has(after.tag)) {
      const content = textOf(after);
      if (textOf(before) === content || (after.tag === "textarea" && clientShowsText(this, depth, content))) return NO_KIDS_OP;
      const id = this.newId(depth);
      return { op: { html: renderKids(after, id) }, id };
    }
    if (after.kids.length === 1 && (after.kids[0] as LiveNode).kind === "text") {
      return { op: { text: (after.kids[0] as { text: string }).text } };
    }
    if (after.kids.length === 0 || hasRawKid(before) || hasRawKid(after)) return this.allNew(pair);
    const match = matchKids(before.kids, after.kids);
    const pairs: number[] = [];
    for (let j = 0; j < match.toPrev.length; j++) if ((match.toPrev[j] as number) >= 0) pairs.push(match.toPrev[j] as number, j);
    if (pairs.length === 0) return this.allNew(pair);
    const matched: MatchedKids = { before, after, toPrev: match.toPrev, id: this.newId(depth) };
    const removed = onlyRemovals(matched);
    return { op: removed === undefined ? { kids: kidEntries(matched) } : {}, id: matched.id, removed, pairs, same: match.same };
  }

  /** No child matched: the new children as markup. */
  private allNew(pair: Pair): KidsOp {
    const id = this.newId(pair.depth);
    return { op: { html: renderKids(pair.after, id) }, id };
  }

  /** Pushes the pair's patch, when it has an op: most elements have none. */
  private emit(pair: Pair, { op, id }: KidsOp, attrs: Record<string, string> | undefined): void {
    if (op.text === undefined && op.html === undefined && op.kids === undefined && attrs === undefined) return;
    const patch: MutablePatch = { id: id ?? this.newId(pair.depth) };
    if (op.text !== undefined) patch.text = op.text;
    if (op.html !== undefined) patch.html = op.html;
    if (op.kids !== undefined) patch.kids = op.kids;
    if (attrs !== undefined) patch.attrs = attrs;
    this.out.push(patch);
  }

  /**
   * Recurses into the kept pairs of reconciled kids (flat [old index, new index, …]), except those
   * matching found equal in content; a kid that made a copy of itself makes the pair's new element
   * a copy holding it.
   */
  private diffMatchedKids(pair: Pair, pairs: readonly number[], same: Uint8Array | undefined): void {
    const { before, after } = pair;
    let kids: LiveNode[] | undefined;
    for (let k = 0; k < pairs.length; k += 2) {
      const j = pairs[k + 1] as number;
      if (same !== undefined && same[j] === 1) continue;
      this.kept(this.kid(pair, before.kids[pairs[k] as number] as LiveElement, after.kids[j] as LiveElement), TRUSTED);
      const copy = this.takeRebuilt();
      if (copy !== undefined && copy !== after.kids[j]) (kids ??= after.kids.slice())[j] = copy;
    }
    if (kids !== undefined) this.rebuilt = withKids(after, kids);
  }

  /**
   * The same children in the same slots (equal texts and raw markup, equal id segments, and shapes
   * that matching would pair anyway): no children op, only the element's attrs and the kept
   * children. One walk checks each slot and diffs its element as it goes; at the first slot that
   * differs it drops what it emitted and answers NOT_IN_PLACE, and the caller reconciles the
   * children instead. EQUAL when nothing differs at all.
   *
   * A slot's shapes (docs/protocol.md#kids, matching step 2: tag, key, name, type, child tags) are checked
   * in two halves: tag and key are in the seg, and name and type are compared here; the child
   * tags are left to the pair's own diff, whose in-place walk compares every kid's seg anyway, so
   * only a pair that is not diffed in place compares them apart (VERIFY). Comparing them up
   * front read every kid of every element twice per event.
   *
   * For the kept tree (see the top of this file): when this element is not equal as a whole (then
   * its parent keeps the old one), a copy of it holds the old kid for each equal kid and the copy
   * each changed kid made of itself; `rebuilt` hands the copy to the parent.
   */
  private inPlace(pair: Pair): Found | typeof NOT_IN_PLACE {
    const { before, after, depth } = pair;
    const mark = this.out.length;
    const changed = diffAttrs(pair, this);
    if (changed !== undefined && changed !== CHANGE_SHOWN) this.out.push({ id: this.newId(depth), attrs: changed });
    const pk = before.kids, nk = after.kids;
    let equal = changed === undefined;
    // The kids to keep, made at the first that is not the new kid itself. A changed kid that made
    // no copy of itself is kept as it is, so when no kid needs another object the element is kept as
    // the new one: its parts are then the objects the next render's view hands back (the session
    // memo, src/live/render-state/element-log.ts), which the next diff skips as one object each. A copy would
    // differ from them by identity, and the next diff would walk it again, on every event after.
    let kept: LiveNode[] | undefined;
    // Whether a kid is a lazy part of another call than the old one's, with the same content: the
    // element is then kept as the new one (or a copy), not as the old one, although nothing differs.
    let newCall = false;
    for (let i = 0; i < nk.length; i++) {
      const x = pk[i] as LiveNode, y = nk[i] as LiveNode;
      if (x === y) continue;
      if (this.probe !== undefined) this.probe.compared++;
      const found = this.inPlaceKid(pair, i);
      if (found === NOT_IN_PLACE) return this.drop(mark);
      if (found !== EQUAL) equal = false;
      // An equal kid is kept as the old one; a changed one as the copy it made of itself, if any.
      // A lazy part is kept as the new one: the next render's view hands back that part.
      else if (y instanceof Part && !sameLazyCall(x, y)) newCall = true;
      const keep = found === EQUAL && !(y instanceof Part) ? x : this.takeRebuilt();
      if (keep !== undefined && keep !== y) (kept ??= nk.slice())[i] = keep;
    }
    // An equal element is kept whole as the old one by its parent; a changed one as a copy holding
    // the kept kids (a lazy part as itself, see withKids). An element whose part is of a new call
    // (an item that is another object with the same content: an update that copied it unchanged)
    // counts as changed, though it sends nothing: kept whole as the old one, it would hold the old
    // part, which the next render's list no longer hands back, so that the next diff would take the
    // two for different rows (child matching breaks ties between rows of one key by that sameness,
    // src/live/diff/match.ts).
    if ((!equal || newCall) && kept !== undefined) this.rebuilt = withKids(after, kept);
    return equal && !newCall ? EQUAL : CHANGED;
  }

  /**
   * Kid `i` of an in-place walk: EQUAL or CHANGED as the kids compare, NOT_IN_PLACE when the slot
   * holds what matching would not pair (another kind, seg, text or markup, or a shape that differs
   * where shape decides).
   */
  private inPlaceKid(parent: Pair, i: number): Found | typeof NOT_IN_PLACE {
    const x = parent.before.kids[i] as LiveNode, y = parent.after.kids[i] as LiveNode;
    if (x.kind !== y.kind) return NOT_IN_PLACE;
    if (x.kind === "text") return x.text === (y as typeof x).text ? EQUAL : NOT_IN_PLACE;
    if (x.kind === "raw") return x.html === (y as typeof x).html ? EQUAL : NOT_IN_PLACE;
    const ny = y as LiveElement;
    if (x.seg !== ny.seg) return NOT_IN_PLACE;
    const kid = this.kid(parent, x, ny);
    // Index-free: matching pairs it by its seg alone (step 1). Else its shape must match, or it
    // must be the only element of its tag on both sides, which matching pairs whatever its shape.
    if (isIndexFree(x)) return this.kept(kid, TRUSTED);
    const found = x.attrs["name"] === ny.attrs["name"] && x.attrs["type"] === ny.attrs["type"] ? this.kept(kid, VERIFY) : MISMATCH;
    if (found !== MISMATCH) return found;
    if (!(onlyOfTag(parent.before.kids, x) && onlyOfTag(parent.after.kids, ny))) return NOT_IN_PLACE;
    return this.kept(kid, TRUSTED);
  }

  /** Drops what an in-place walk emitted since `mark`; NOT_IN_PLACE, for the walk to return. */
  private drop(mark: number): typeof NOT_IN_PLACE {
    this.out.length = mark;
    return NOT_IN_PLACE;
  }
}

/** The children op of a pair (`op`), its new id when joined, and what to do after it. */
type KidsOp = {
  readonly op: { readonly text?: string; readonly html?: string; readonly kids?: KidEntry[] };
  readonly id?: string;
  /** The ids of removed children, each its own `remove` patch after the pair's. */
  readonly removed?: readonly string[];
  /** The kept pairs to recurse into, flat [old index, new index, …], and those equal in content. */
  readonly pairs?: readonly number[];
  readonly same?: Uint8Array | undefined;
};

const NO_KIDS_OP: KidsOp = { op: {} };
