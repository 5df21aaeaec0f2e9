/**
 * The children op of a diffed element whose children were matched (docs/protocol.md#kids): the
 * ids of removed children when the new list is the old one with some elements left out, else the
 * `kids` list. Old children are named by their current id in the client, `<new parent id>.<old
 * seg>` (inside a renamed subtree the old ids are stale; outside one the formula gives the old id).
 */
import type { KidEntry } from "../../protocol/mod.ts";
import { renderNode } from "../render.ts";
import { childId, type LiveElement, type LiveNode } from "../tree.ts";

/** A matched pair of elements: the old one, the new one (whose id is `id`), and the matching. */
export type MatchedKids = {
  readonly before: LiveElement;
  readonly after: LiveElement;
  /** For each new child, the index of the old child it keeps, or -1 (src/live/diff/match.ts). */
  readonly toPrev: Int32Array;
  /** The new element's id. */
  readonly id: string;
};

/**
 * When the new children are the old ones with some elements left out (every kept element in its
 * old order under its old id, every text unchanged), the ids of the left-out elements; otherwise
 * undefined.
 */
export function onlyRemovals({ before, after, toPrev, id }: MatchedKids): string[] | undefined {
  const pk = before.kids, nk = after.kids;
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

/** Whether the old child at `oldIndex` is the new child `cur` in place (`matched`: the old index `cur` keeps). */
function corresponds(old: LiveNode, oldIndex: number, cur: LiveNode, matched: number): boolean {
  if (old.kind === "text") return cur.kind === "text" && cur.text === old.text;
  return old.kind === "el" && matched === oldIndex && (cur as LiveElement).seg === old.seg;
}

/** The `kids` list of the new element: `{keep}`, `{keep, id}` for a rename, `{html}` for a new node. */
export function kidEntries({ before, after, toPrev, id }: MatchedKids): KidEntry[] {
  const entries: KidEntry[] = new Array(after.kids.length);
  for (let j = 0; j < after.kids.length; j++) {
    const cur = after.kids[j] as LiveNode;
    const i = toPrev[j] as number;
    if (i < 0) {
      entries[j] = { html: renderNode(cur, after.tag, id) };
      continue;
    }
    const old = before.kids[i] as LiveElement;
    const keep = childId(id, old.seg);
    const seg = (cur as LiveElement).seg;
    entries[j] = seg === old.seg ? { keep } : { keep, id: childId(id, seg) };
  }
  return entries;
}
