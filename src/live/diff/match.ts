/**
 * Child matching (docs/protocol.md#kids, the order children are matched in): which old child each
 * new child keeps.
 *
 * 1. Index-free ids (uniquely keyed elements, injected styles) match the old child with the same
 *    id segment.
 * 2. The remaining elements match by shape (tag, key, name, type, child tags) along a longest
 *    common subsequence of the two sequences.
 * 3. Leftover elements without a key match old leftovers of the same tag, in order.
 *
 * Step 2 is why a line inserted above an input's wrapper does not take over the wrapper's identity:
 * the wrapper's shape matches the old wrapper, not the new line.
 *
 * Ties in step 2: when the two lists differ in length and the trimmed common prefix and suffix
 * (by shape) overlap, every element of the shorter list is paired whichever way, and only where
 * the gap goes is open; rows of one shape make that the usual case. Content decides between these
 * equally long pairings (`bestSplit`): the one that pairs the most elements with equal content
 * (`sameContent`: equal but for ids), prefix first on a tie. So a row inserted above unkeyed rows
 * of one shape is one new node, and every old row is kept under its new index instead of taking
 * the content of the row above. Pairs found content-equal (here, and every pair of step 1) are
 * reported in `same`, so the diff skips them: their diff would be empty.
 *
 * Cost: step 2 trims the common prefix and suffix first (the usual edit touches one place), then
 * runs the quadratic LCS table on what is left. Above LCS_LIMIT cells it falls back to a greedy
 * in-order match, which finds a common subsequence (not always the longest) in near-linear time, so
 * a pathological list cannot stall the event path. The tie-break compares content only inside the
 * overlap, at most twice per element there.
 */
import { Part, sameLazyCall } from "../render-state/lazy-part.ts";
import { FoldPart } from "../render-state/fold/fold-part.ts";
import { greedy, lcs } from "./lcs.ts";
import { hasHandlerId, isIndexFree, type LiveElement, type LiveNode, passOf } from "../tree.ts";

const LCS_LIMIT = 1_000_000;

/** Whether two elements have the same shape; no allocation, for the hot path. */
export function sameShape(a: LiveElement, b: LiveElement): boolean {
  if (a === b || sameLazyCall(a, b)) return true;
  if (a.tag !== b.tag || a.key !== b.key || a.attrs["name"] !== b.attrs["name"] || a.attrs["type"] !== b.attrs["type"]) return false;
  // Lazy parts noted their child tags when placed, and are not built again to read them.
  if (a instanceof Part || b instanceof Part) return childTags(a) === childTags(b);
  const ak = a.kids, bk = b.kids;
  let i = 0, j = 0;
  for (;;) {
    while (i < ak.length && (ak[i] as LiveNode).kind !== "el") i++;
    while (j < bk.length && (bk[j] as LiveNode).kind !== "el") j++;
    if (i === ak.length || j === bk.length) return i === ak.length && j === bk.length;
    if ((ak[i] as LiveElement).tag !== (bk[j] as LiveElement).tag) return false;
    i++;
    j++;
  }
}

/** An element whose id has no index (src/live/tree.ts isIndexFree); a text or raw node is not. */
function indexFreeNode(node: LiveNode): boolean {
  return node.kind === "el" && isIndexFree(node);
}

function shapeKey(el: LiveElement): string {
  return `${el.tag}\u0001${el.key ?? ""}\u0001${el.attrs["name"] ?? ""}\u0001${el.attrs["type"] ?? ""}\u0001${childTags(el)}`;
}

/** The tags of an element's element children, each followed by ","; a lazy part's as it noted them (src/live/render-state/lazy-part.ts). */
function childTags(el: LiveElement): string {
  if (el instanceof Part) return el.childTags;
  let tags = "";
  for (const kid of el.kids) if (kid.kind === "el") tags += `${kid.tag},`;
  return tags;
}

/**
 * `toPrev`: for each new child, the index of the old child it keeps, or -1. `same`, when set: 1 for
 * a new child known to have the same content as the old child it keeps (see `sameContent`).
 */
export type Match = { readonly toPrev: Int32Array; readonly same: Uint8Array | undefined };

/** A matching under way: the two child lists and what is paired so far. */
type Matching = {
  readonly prev: readonly LiveNode[];
  readonly next: readonly LiveNode[];
  readonly toPrev: Int32Array;
  same: Uint8Array | undefined;
};

/** The indexes of the step-2 candidates of each list: elements left unpaired by step 1. */
type Candidates = { readonly ps: readonly number[]; readonly ns: readonly number[] };

export function matchKids(prev: readonly LiveNode[], next: readonly LiveNode[]): Match {
  const m: Matching = { prev, next, toPrev: new Int32Array(next.length).fill(-1), same: undefined };
  pairIndexFree(m);
  const candidates = shapeCandidates(m);
  pairByShape(m, candidates);
  pairLeftoversByTag(m, candidates);
  return { toPrev: m.toPrev, same: m.same };
}

/** Which old children are kept so far (derived from `toPrev`, which alone records the pairs). */
function keptOld(m: Matching): Uint8Array {
  const kept = new Uint8Array(m.prev.length);
  for (let j = 0; j < m.toPrev.length; j++) if ((m.toPrev[j] as number) >= 0) kept[m.toPrev[j] as number] = 1;
  return kept;
}

/**
 * Step 1: index-free ids. Each pairs with the old element of the same seg (segs are unique among
 * siblings). Lists mostly keep their order, so the old list is walked along with the new one, and
 * a map of old segs is built only for the few the walk misses: hashing every fresh seg of a long
 * keyed list cost more than comparing it in place (bench/diff.bench.ts, keyed reorder).
 */
function pairIndexFree(m: Matching): void {
  const { prev, next } = m;
  let missed: number[] | undefined;
  let cursor = 0;
  for (let j = 0; j < next.length; j++) {
    const n = next[j] as LiveNode;
    if (n.kind !== "el" || !isIndexFree(n)) continue;
    cursor = nextIndexFree(prev, cursor);
    if (cursor < prev.length && (prev[cursor] as LiveElement).seg === n.seg) {
      pairSameSeg(m, cursor++, j);
      continue;
    }
    // One old element skipped over (it moved or went): the walk goes on past it.
    const ahead = nextIndexFree(prev, cursor + 1);
    if (ahead < prev.length && (prev[ahead] as LiveElement).seg === n.seg) {
      pairSameSeg(m, ahead, j);
      cursor = ahead + 1;
    } else (missed ??= []).push(j);
  }
  if (missed !== undefined) pairMissedBySeg(m, missed);
}

/** The index of the first index-free old child at or after `from` (the list's length if none). */
function nextIndexFree(prev: readonly LiveNode[], from: number): number {
  while (from < prev.length && !indexFreeNode(prev[from] as LiveNode)) from++;
  return from;
}

/** The index-free new children the in-order walk missed, paired through a map of old segs. */
function pairMissedBySeg(m: Matching, missed: readonly number[]): void {
  const kept = keptOld(m);
  const bySeg = new Map<string, number>();
  for (let i = 0; i < m.prev.length; i++) {
    if (kept[i] === 0 && indexFreeNode(m.prev[i] as LiveNode)) bySeg.set((m.prev[i] as LiveElement).seg, i);
  }
  for (const j of missed) {
    const i = bySeg.get((m.next[j] as LiveElement).seg);
    if (i !== undefined) pairSameSeg(m, i, j);
  }
}

/**
 * A step-1 pair. A keyed element that moved is usually unchanged inside: comparing content is
 * cheaper than diffing it, and an equal pair is not diffed.
 */
function pairSameSeg(m: Matching, i: number, j: number): void {
  m.toPrev[j] = i;
  if (sameContent(m.prev[i] as LiveElement, m.next[j] as LiveElement)) (m.same ??= new Uint8Array(m.next.length))[j] = 1;
}

/** The elements left for step 2. Injected styles take part in step 1 only: one unpaired there is new. */
function shapeCandidates(m: Matching): Candidates {
  const kept = keptOld(m);
  const candidate = (node: LiveNode) => node.kind === "el" && passOf(node) === undefined;
  const ps: number[] = [], ns: number[] = [];
  for (let i = 0; i < m.prev.length; i++) if (kept[i] === 0 && candidate(m.prev[i] as LiveNode)) ps.push(i);
  for (let j = 0; j < m.next.length; j++) if (m.toPrev[j] === -1 && candidate(m.next[j] as LiveNode)) ns.push(j);
  return { ps, ns };
}

/**
 * Step 2: shapes along a longest common subsequence of the candidates. The common prefix and
 * suffix are trimmed first; when they overlap, content decides where the gap goes (`bestSplit`),
 * else the middle goes through the LCS table (or the greedy match, above LCS_LIMIT cells).
 */
function pairByShape(m: Matching, c: Candidates): void {
  const { ps, ns } = c;
  const pLen = ps.length, nLen = ns.length, min = Math.min(pLen, nLen);
  const sameShapeAt = (a: number, b: number) => sameShape(m.prev[ps[a] as number] as LiveElement, m.next[ns[b] as number] as LiveElement);
  let pre = 0;
  while (pre < min && sameShapeAt(pre, pre)) pre++;
  let suf = 0;
  const sufMax = pLen === nLen ? min - pre : min; // equal lengths: prefix and suffix cannot overlap
  while (suf < sufMax && sameShapeAt(pLen - 1 - suf, nLen - 1 - suf)) suf++;
  const pair = (a: number, b: number) => void (m.toPrev[ns[b] as number] = ps[a] as number);
  if (pre + suf > min) {
    // Every element of the shorter list is paired either way: only where the gap goes is open.
    const k = bestSplit(m, { candidates: c, lo: min - suf, hi: pre });
    for (let i = 0; i < k; i++) pair(i, i);
    for (let i = k; i < min; i++) pair(pLen - min + i, nLen - min + i);
    return;
  }
  for (let i = 0; i < pre; i++) pair(i, i);
  for (let i = 1; i <= suf; i++) pair(pLen - i, nLen - i);
  const pEnd = pLen - suf, nEnd = nLen - suf;
  if (pEnd <= pre || nEnd <= pre) return;
  const shapes = internShapes(m, { ps: ps.slice(pre, pEnd), ns: ns.slice(pre, nEnd) });
  const pairs = shapes.p.length * shapes.n.length <= LCS_LIMIT ? lcs(shapes.p, shapes.n) : greedy(shapes.p, shapes.n);
  for (let k = 0; k < pairs.length; k += 2) pair(pre + (pairs[k] as number), pre + (pairs[k + 1] as number));
}

/** Step 3: leftover keyless elements of the same tag, in order. */
function pairLeftoversByTag(m: Matching, { ps, ns }: Candidates): void {
  const kept = keptOld(m);
  let byTag: Map<string, number[]> | undefined;
  for (const i of ps) {
    const p = m.prev[i] as LiveElement;
    if (kept[i] === 0 && p.key === undefined) {
      const queue = (byTag ??= new Map()).get(p.tag);
      if (queue) queue.push(i);
      else byTag.set(p.tag, [i]);
    }
  }
  if (byTag === undefined) return;
  for (const j of ns) {
    const n = m.next[j] as LiveElement;
    if (m.toPrev[j] !== -1 || n.key !== undefined) continue;
    const i = byTag.get(n.tag)?.shift();
    if (i !== undefined) m.toPrev[j] = i;
  }
}

/**
 * Where the gap goes when the shorter list pairs whole either way: the first `k` candidates pair
 * with the other list's first `k`, the rest with its last ones, for `k` in [lo, hi]. All these
 * pairings are equally long by shape, so content decides: the `k` with the most content-equal
 * pairs, the largest such `k` on a tie (prefix first, as without the tie-break). A row inserted
 * above rows of one shape thus keeps every old row under a new index instead of shifting each
 * row's content one row down. Marks in `same` the new indexes of the chosen pairs found
 * content-equal.
 */
function bestSplit(m: Matching, { candidates: { ps, ns }, lo, hi }: { candidates: Candidates; lo: number; hi: number }): number {
  const min = Math.min(ps.length, ns.length), dp = ps.length - min, dn = ns.length - min;
  const equalAt = (a: number, b: number) => sameContent(m.prev[ps[a] as number] as LiveElement, m.next[ns[b] as number] as LiveElement);
  const eqPre = new Uint8Array(hi - lo), eqSuf = new Uint8Array(hi - lo);
  let score = 0;
  for (let i = lo; i < hi; i++) {
    if (equalAt(i + dp, i + dn)) {
      eqSuf[i - lo] = 1;
      score++;
    }
  }
  let best = score, k = lo;
  for (let i = lo; i < hi; i++) {
    if (equalAt(i, i)) eqPre[i - lo] = 1;
    score += (eqPre[i - lo] as number) - (eqSuf[i - lo] as number);
    if (score >= best) {
      best = score;
      k = i + 1;
    }
  }
  const same = new Uint8Array(m.next.length);
  for (let i = lo; i < hi; i++) if ((i < k ? eqPre : eqSuf)[i - lo] === 1) same[ns[i < k ? i : i + dn] as number] = 1;
  m.same = same;
  return k;
}

/**
 * Whether two elements render the same apart from their own ids: same tag, attributes, handler
 * presence, and children (texts, raw markup, id segments and, recursively, content; injected
 * styles by their text, which names ids). The diff of such a pair is empty, so it need not run.
 */
export function sameContent(a: LiveElement, b: LiveElement): boolean {
  if (a === b || sameLazyCall(a, b)) return true;
  // Two lazy parts of different calls are taken as different, rather than built to compare (a
  // build runs the app's row function): the answer only spares a diff or breaks a tie, and a diff
  // of the two is still exact. Two folds are compared as elements: their replay runs no app code,
  // and two folds of equal content can hold different shapes (one made before the shape was
  // refined, one after, src/live/render-state/fold/shape.ts), where a tie broken otherwise than between fresh
  // builds would pair other elements.
  if (a instanceof Part && b instanceof Part && !(a instanceof FoldPart && b instanceof FoldPart)) return false;
  if (a.tag !== b.tag || hasHandlerId(a) !== hasHandlerId(b) || a.kids.length !== b.kids.length) return false;
  // A form's submit message is also compared apart (docs/protocol.md#client-rules 6), so the attribute that
  // spells it cannot hide a changed message.
  if (a.tag === "form" && a.handlers?.submit?.msg !== b.handlers?.submit?.msg) return false;
  const aa = a.attrs, ba = b.attrs;
  if (aa !== ba) {
    let count = 0;
    for (const name in aa) {
      if (aa[name] !== ba[name]) return false;
      count++;
    }
    for (const _ in ba) if (--count < 0) return false;
  }
  const ak = a.kids, bk = b.kids;
  for (let i = 0; i < ak.length; i++) {
    const x = ak[i] as LiveNode, y = bk[i] as LiveNode;
    if (x.kind !== y.kind) return false;
    if (x.kind === "text") {
      if (x.text !== (y as typeof x).text) return false;
    } else if (x.kind === "raw") {
      if (x.html !== (y as typeof x).html) return false;
    } else if (x.seg !== (y as LiveElement).seg || !sameContent(x, y as LiveElement)) return false;
  }
  return true;
}

/** Shapes of the two middles as small integers, so the LCS compares numbers. */
function internShapes(m: Matching, { ps, ns }: Candidates): { p: number[]; n: number[] } {
  const ids = new Map<string, number>();
  const intern = (el: LiveElement) => {
    const key = shapeKey(el);
    let id = ids.get(key);
    if (id === undefined) ids.set(key, id = ids.size);
    return id;
  };
  return { p: ps.map((i) => intern(m.prev[i] as LiveElement)), n: ns.map((j) => intern(m.next[j] as LiveElement)) };
}
