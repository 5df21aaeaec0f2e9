/**
 * The patch interpreter (docs/protocol.md#patches): the one place that reads the patch protocol.
 * It writes through a `PatchTarget`, the small set of operations a page representation offers; the
 * live client's DOM (client/apply.ts) and the split client's tree (client/split/tree.ts) are the
 * two targets, so both clients apply a frame by the same reading of it.
 *
 * What the interpreter owns, and the targets never decide:
 *
 * - A patch addresses its element by id in the target as it is now, so a rename earlier in the
 *   batch is seen by later patches. An id the target does not hold is a desync (Desync): the caller
 *   resyncs from a full render (docs/protocol.md#errors-and-statuses).
 * - Before anything, a patch whose attrs the target calls stale is dropped whole (the authority
 *   rule, docs/protocol.md#client-rules 1 case 3). A replace makes a new element, so it is never
 *   stale.
 * - The operations of one patch run in the wire order replace, text, html, kids, attrs, remove;
 *   after a replace, the rest apply to the first element the markup made (none: the patch ends).
 * - kids: every `keep` is looked up among the element's children as they were before the patch;
 *   one that is not there is a desync. The renames of the list are handed to the target together,
 *   as one simultaneous mapping (docs/protocol.md#keep-and-rename): a chain such as r.1 -> r.2
 *   beside r.2 -> r.3 moves each node once. Then the children become the wanted list, in order.
 * - moves (docs/protocol.md#render, replayed before a full render): a gone element leaves; a
 *   parent's children not kept leave and the kept are renamed, again as one mapping per parent.
 *   Nothing a move names is a desync: content is left to the render.
 *
 * The targets own how an operation is written: the DOM applies content and attributes under the
 * authority rule and places children with the fewest moves (client/morph.ts); the tree keeps its
 * index by id.
 */
import type { Move, Patch } from "../src/protocol/mod.ts";

/** A patch that cannot apply: the page does not hold what it names. The client resyncs. */
export class Desync extends Error {}

/** One kept child's new id: every id of its subtree at or below `from` moves to `to`. */
export type Rename<E> = readonly [node: E, from: string, to: string];

/**
 * What a page representation offers the interpreter. `N` is any node of it (element, text,
 * comment), `E` its elements.
 */
export interface PatchTarget<N, E extends N> {
  /** The element with this svc-id, or undefined. */
  find(id: string): E | undefined;
  /** Whether the authority rule drops a patch with these attrs on `el` whole. */
  stale(el: E, attrs: Readonly<Record<string, string>>): boolean;
  /** Puts the parsed markup where `el` is; returns the first element it made, if any. */
  replace(el: E, html: string): E | undefined;
  /** The only child of `el` becomes this text. */
  text(el: E, text: string): void;
  /** The children of `el` become this markup (their ids derived from `el`'s). */
  html(el: E, html: string): void;
  /** The children of `el` that have an id, by id, in document order. */
  keyed(el: E): Map<string, E>;
  /** The markup of one new child of `el`, parsed in its context. */
  parse(el: E, html: string): N[];
  /** Renames subtrees, as one simultaneous mapping. */
  rename(renames: readonly Rename<E>[]): void;
  /** The children of `el` become `wanted`, in order; every other child leaves. */
  place(el: E, wanted: readonly N[]): void;
  /** Writes attributes ("" removes). */
  attrs(el: E, attrs: Readonly<Record<string, string>>): void;
  /** The element leaves the page. */
  remove(el: E): void;
}

/**
 * Applies one patch to `target`. `found`: the element the patch addresses, when the caller looked
 * it up already (the split client rebuilds it first); else the interpreter finds it.
 */
export function applyPatch<N, E extends N>(target: PatchTarget<N, E>, patch: Patch, found?: E): void {
  let el = found ?? target.find(patch.id);
  if (el === undefined) throw new Desync(`no element ${patch.id}`);
  if (patch.replace === undefined && patch.attrs !== undefined && target.stale(el, patch.attrs)) return;
  if (patch.replace !== undefined) {
    el = target.replace(el, patch.replace);
    if (el === undefined) return;
  }
  if (patch.text !== undefined) target.text(el, patch.text);
  if (patch.html !== undefined) target.html(el, patch.html);
  if (patch.kids !== undefined) applyKids(target, el, patch);
  if (patch.attrs !== undefined) target.attrs(el, patch.attrs);
  if (patch.remove === true) target.remove(el);
}

function applyKids<N, E extends N>(target: PatchTarget<N, E>, el: E, patch: Patch): void {
  const current = target.keyed(el);
  const wanted: N[] = [];
  const renames: Rename<E>[] = [];
  for (const entry of patch.kids ?? []) {
    if ("html" in entry) {
      wanted.push(...target.parse(el, entry.html));
      continue;
    }
    const node = current.get(entry.keep);
    if (node === undefined) throw new Desync(`keep ${entry.keep} is not a child of ${patch.id}`);
    current.delete(entry.keep);
    if ("id" in entry && entry.id !== entry.keep) renames.push([node, entry.keep, entry.id]);
    wanted.push(node);
  }
  target.rename(renames);
  target.place(el, wanted);
}

/**
 * Replays what frames the page missed did to ids, before a full render is reconciled by id
 * (docs/protocol.md#render): kept children are renamed, children not kept and elements gone leave.
 */
export function applyMoves<N, E extends N>(target: PatchTarget<N, E>, moves: readonly Move[]): void {
  for (const move of moves) {
    if ("gone" in move) {
      const gone = target.find(move.gone);
      if (gone !== undefined) target.remove(gone);
      continue;
    }
    const parent = target.find(move.parent);
    if (parent === undefined) continue;
    const kept = new Map(move.kept);
    const renames: Rename<E>[] = [];
    for (const [id, child] of target.keyed(parent)) {
      const to = kept.get(id);
      if (to === undefined) target.remove(child);
      else if (to !== id) renames.push([child, id, to]);
    }
    target.rename(renames);
  }
}
