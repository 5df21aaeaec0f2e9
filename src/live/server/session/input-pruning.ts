/**
 * Which of a session's stored input seqs belong to inputs that left the tree (docs/protocol.md#sequence-numbers:
 * an entry is evicted when its input leaves the rendered tree), found from the event's patches
 * rather than by looking every stored id up again.
 *
 * An element leaves the tree only under a patch that changes children: `replace` and `remove` (the
 * element itself), `text`, `html` and `kids` (its children); and only an element that had element
 * children in the previous tree can lose any. A patch of attributes leaves every element where it
 * was, and so does a new text in a cell of text. So after an event whose patches change only texts
 * of leaves and attributes, as most do, no stored id can have left and none is looked at: the work
 * of an event follows what it changed, not how many inputs the tab has touched over its life. The
 * stored ids under a patch that did change element children, and the ids the event itself reported
 * (which the client may name without their being in the tree at all), are looked up in the new
 * tree; a parent with many such ids is indexed by seg once.
 */
import type { Patch } from "../../../protocol/mod.ts";
import type { RenderProbe } from "../../probe.ts";
import { findElement, type LiveElement, type LiveTree } from "../../tree.ts";

/** Above this many looked-up ids under one parent, its kids are indexed by seg instead of scanned per id. */
const INDEX_FROM = 8;

/** One render's change: the tree before, the tree after, and the patches that turn one into the other. */
export type TreeChange = { readonly prev: LiveTree; readonly tree: LiveTree; readonly patches: readonly Patch[] };

/**
 * The stored ids (keys of `seqs`) that are not in `tree`, the render that `patches` turn `prev` into;
 * `reported`: the ids the event reported, looked up whatever the patches. `probe`: the test hook
 * that counts the kids the look-ups look at (src/live/probe.ts).
 */
export function inputsLeft(
  seqs: ReadonlyMap<string, number>,
  change: TreeChange,
  reported: Iterable<string>,
  probe?: RenderProbe,
): string[] {
  const { tree } = change;
  if (seqs.size === 0) return [];
  const candidates = new Set<string>();
  for (const id of reported) if (seqs.has(id)) candidates.add(id);
  const changedBelow = childChanges(change, seqs, candidates, probe);
  if (changedBelow !== undefined) { for (const id of seqs.keys()) if (under(id, changedBelow)) candidates.add(id); }
  return candidates.size === 0 ? [] : missing(tree, candidates, probe);
}

/**
 * The ids of the patches that may have taken element children away, or undefined for none. A
 * replaced or removed element without element children adds only itself to `candidates`. A patch
 * whose id is not in `prev` (inside a renamed subtree, ids are the new ones) counts as changing
 * children; its renamed ancestor's `kids` patch counts too.
 */
function childChanges(
  { prev, patches }: TreeChange,
  seqs: ReadonlyMap<string, number>,
  candidates: Set<string>,
  probe: RenderProbe | undefined,
): Set<string> | undefined {
  let ids: Set<string> | undefined;
  for (const p of patches) {
    const whole = p.replace !== undefined || p.remove !== undefined;
    if (!whole && p.text === undefined && p.html === undefined && p.kids === undefined) continue;
    const before = findElement(prev, p.id, probe);
    if (before !== undefined && !hasElementKids(before)) {
      if (whole && seqs.has(p.id)) candidates.add(p.id);
      continue;
    }
    (ids ??= new Set()).add(p.id);
  }
  return ids;
}

function hasElementKids(el: LiveElement): boolean {
  for (const kid of el.kids) if (kid.kind === "el") return true;
  return false;
}

/** Whether `id` is one of `roots` or lies below one (an id is its parent's id, ".", its seg). */
function under(id: string, roots: ReadonlySet<string>): boolean {
  if (roots.has(id)) return true;
  for (let dot = id.indexOf("."); dot >= 0; dot = id.indexOf(".", dot + 1)) if (roots.has(id.slice(0, dot))) return true;
  return false;
}

/** The ids of `ids` with no element in `tree`, looked up parent by parent. */
function missing(tree: LiveTree, ids: ReadonlySet<string>, probe: RenderProbe | undefined): string[] {
  const byParent = new Map<string, string[]>();
  const gone: string[] = [];
  for (const id of ids) {
    const dot = id.lastIndexOf(".");
    if (dot < 0) {
      if (id !== tree.root.seg) gone.push(id);
      continue;
    }
    const parent = id.slice(0, dot);
    const list = byParent.get(parent);
    if (list === undefined) byParent.set(parent, [id]);
    else list.push(id);
  }
  for (const [parentId, list] of byParent) {
    if (list.length < INDEX_FROM) {
      for (const id of list) if (findElement(tree, id, probe) === undefined) gone.push(id);
      continue;
    }
    const parent = findElement(tree, parentId, probe);
    if (parent === undefined) {
      // A style's id (`<owner>.~<pass>`) has its owner's id before its last "."; no input is a style.
      gone.push(...list);
      continue;
    }
    const segs = segsOf(parent, probe);
    for (const id of list) if (!segs.has(id.slice(parentId.length + 1))) gone.push(id);
  }
  return gone;
}

function segsOf(parent: LiveElement, probe: RenderProbe | undefined): Set<string> {
  const segs = new Set<string>();
  for (const kid of parent.kids) {
    if (probe !== undefined) probe.looked++;
    if (kid.kind === "el") segs.add(kid.seg);
  }
  return segs;
}
