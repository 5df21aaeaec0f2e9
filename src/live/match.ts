/**
 * Child matching (live-input-authority.md §Patch, "Child matching order"): which old child each
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
import { hasHandlerId, type LiveElement, type LiveNode } from "./tree.ts";

const LCS_LIMIT = 1_000_000;

/** Whether two elements have the same shape; no allocation, for the hot path. */
export function sameShape(a: LiveElement, b: LiveElement): boolean {
  if (a === b) return true;
  if (a.tag !== b.tag || a.key !== b.key || a.name !== b.name || a.type !== b.type) return false;
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

function isIndexFree(node: LiveNode): boolean {
  return node.kind === "el" && node.indexFree;
}

function shapeKey(el: LiveElement): string {
  let tags = "";
  for (const kid of el.kids) if (kid.kind === "el") tags += `${kid.tag},`;
  return `${el.tag}\u0001${el.key ?? ""}\u0001${el.name ?? ""}\u0001${el.type ?? ""}\u0001${tags}`;
}

/**
 * `toPrev`: for each new child, the index of the old child it keeps, or -1. `same`, when set: 1 for
 * a new child known to have the same content as the old child it keeps (see `sameContent`).
 */
export type Match = { readonly toPrev: Int32Array; readonly same: Uint8Array | undefined };

export function matchKids(prev: readonly LiveNode[], next: readonly LiveNode[]): Match {
  const toPrev = new Int32Array(next.length).fill(-1);
  let same: Uint8Array | undefined;
  const used = new Uint8Array(prev.length);

  // 1. index-free ids: each pairs with the old element of the same seg (segs are unique among
  //    siblings). Lists mostly keep their order, so the old list is walked along with the new one,
  //    and a map of old segs is built only for the few the walk misses: hashing every fresh seg of
  //    a long keyed list cost more than comparing it in place (bench/diff.bench.ts, keyed reorder).
  const pair1 = (i: number, j: number) => {
    toPrev[j] = i;
    used[i] = 1;
    // A keyed element that moved is usually unchanged inside: comparing content is cheaper than
    // diffing it, and an equal pair is not diffed.
    if (sameContent(prev[i] as LiveElement, next[j] as LiveElement)) (same ??= new Uint8Array(next.length))[j] = 1;
  };
  let missed: number[] | undefined;
  let cursor = 0;
  for (let j = 0; j < next.length; j++) {
    const n = next[j] as LiveNode;
    if (n.kind !== "el" || !n.indexFree) continue;
    while (cursor < prev.length && !isIndexFree(prev[cursor] as LiveNode)) cursor++;
    if (cursor < prev.length && (prev[cursor] as LiveElement).seg === n.seg) {
      pair1(cursor++, j);
      continue;
    }
    // One old element skipped over (it moved or went): the walk goes on past it.
    let ahead = cursor + 1;
    while (ahead < prev.length && !isIndexFree(prev[ahead] as LiveNode)) ahead++;
    if (ahead < prev.length && (prev[ahead] as LiveElement).seg === n.seg) {
      pair1(ahead, j);
      cursor = ahead + 1;
    } else (missed ??= []).push(j);
  }
  if (missed !== undefined) {
    const bySeg = new Map<string, number>();
    for (let i = 0; i < prev.length; i++) if (used[i] === 0 && isIndexFree(prev[i] as LiveNode)) bySeg.set((prev[i] as LiveElement).seg, i);
    for (const j of missed) {
      const i = bySeg.get((next[j] as LiveElement).seg);
      if (i !== undefined) pair1(i, j);
    }
  }

  // 2. shapes along a longest common subsequence of the elements left
  const ps: number[] = [];
  const ns: number[] = [];
  // Injected styles take part in step 1 only: one that found no match there is new.
  const candidate = (node: LiveNode) => node.kind === "el" && node.pass === undefined;
  for (let i = 0; i < prev.length; i++) if (used[i] === 0 && candidate(prev[i] as LiveNode)) ps.push(i);
  for (let j = 0; j < next.length; j++) if (toPrev[j] === -1 && candidate(next[j] as LiveNode)) ns.push(j);
  const pair = (a: number, b: number) => {
    toPrev[ns[b] as number] = ps[a] as number;
    used[ps[a] as number] = 1;
  };
  const el = (list: readonly LiveNode[], idx: number[], k: number) => list[idx[k] as number] as LiveElement;
  const pLen = ps.length, nLen = ns.length, min = Math.min(pLen, nLen);
  let pre = 0;
  while (pre < min && sameShape(el(prev, ps, pre), el(next, ns, pre))) pre++;
  let suf = 0;
  const sufMax = pLen === nLen ? min - pre : min; // equal lengths: prefix and suffix cannot overlap
  while (suf < sufMax && sameShape(el(prev, ps, pLen - 1 - suf), el(next, ns, nLen - 1 - suf))) suf++;
  if (pre + suf > min) {
    // Every element of the shorter list is paired either way: only where the gap goes is open.
    same = new Uint8Array(next.length);
    const k = bestSplit(prev, ps, next, ns, min - suf, pre, same);
    for (let i = 0; i < k; i++) pair(i, i);
    for (let i = k; i < min; i++) pair(pLen - min + i, nLen - min + i);
  } else {
    for (let i = 0; i < pre; i++) pair(i, i);
    for (let i = 1; i <= suf; i++) pair(pLen - i, nLen - i);
    const pEnd = pLen - suf, nEnd = nLen - suf;
    if (pEnd > pre && nEnd > pre) {
      const a = internShapes(prev, ps.slice(pre, pEnd), next, ns.slice(pre, nEnd));
      const pairs = a.p.length * a.n.length <= LCS_LIMIT ? lcs(a.p, a.n) : greedy(a.p, a.n);
      for (let k = 0; k < pairs.length; k += 2) pair(pre + (pairs[k] as number), pre + (pairs[k + 1] as number));
    }
  }

  // 3. leftover keyless elements of the same tag, in order
  let byTag: Map<string, number[]> | undefined;
  for (const i of ps) {
    const p = prev[i] as LiveElement;
    if (used[i] === 0 && p.key === undefined) {
      const queue = (byTag ??= new Map()).get(p.tag);
      if (queue) queue.push(i);
      else byTag.set(p.tag, [i]);
    }
  }
  if (byTag !== undefined) {
    for (const j of ns) {
      const n = next[j] as LiveElement;
      if (toPrev[j] !== -1 || n.key !== undefined) continue;
      const i = byTag.get(n.tag)?.shift();
      if (i !== undefined) {
        toPrev[j] = i;
        used[i] = 1;
      }
    }
  }
  return { toPrev, same };
}

/**
 * Where the gap goes when the shorter list pairs whole either way: the first `k` elements pair with
 * the other list's first `k`, the rest with its last ones, for `k` in [lo, hi]. All these pairings
 * are equally long by shape, so content decides: the `k` with the most content-equal pairs, the
 * largest such `k` on a tie (prefix first, as without the tie-break). A row inserted above rows of
 * one shape thus keeps every old row under a new index instead of shifting each row's content
 * one row down. Marks in `same` the new indexes of the chosen pairs found content-equal.
 */
function bestSplit(
  prev: readonly LiveNode[], ps: number[], next: readonly LiveNode[], ns: number[], lo: number, hi: number, same: Uint8Array,
): number {
  const min = Math.min(ps.length, ns.length), dp = ps.length - min, dn = ns.length - min;
  const eqPre = new Uint8Array(hi - lo), eqSuf = new Uint8Array(hi - lo);
  let score = 0;
  for (let i = lo; i < hi; i++) {
    if (sameContent(prev[ps[i + dp] as number] as LiveElement, next[ns[i + dn] as number] as LiveElement)) {
      eqSuf[i - lo] = 1;
      score++;
    }
  }
  let best = score, k = lo;
  for (let i = lo; i < hi; i++) {
    if (sameContent(prev[ps[i] as number] as LiveElement, next[ns[i] as number] as LiveElement)) eqPre[i - lo] = 1;
    score += (eqPre[i - lo] as number) - (eqSuf[i - lo] as number);
    if (score >= best) {
      best = score;
      k = i + 1;
    }
  }
  for (let i = lo; i < hi; i++) if ((i < k ? eqPre : eqSuf)[i - lo] === 1) same[ns[i < k ? i : i + dn] as number] = 1;
  return k;
}

/**
 * Whether two elements render the same apart from their own ids: same tag, attributes, handler
 * presence, and children (texts, raw markup, id segments and, recursively, content; injected
 * styles by their text, which names ids). The diff of such a pair is empty, so it need not run.
 */
export function sameContent(a: LiveElement, b: LiveElement): boolean {
  if (a === b) return true;
  if (a.tag !== b.tag || hasHandlerId(a) !== hasHandlerId(b) || a.kids.length !== b.kids.length) return false;
  // A form's submit message is also compared apart (§Client rules 6), so the attribute that
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
function internShapes(prev: readonly LiveNode[], pi: number[], next: readonly LiveNode[], ni: number[]) {
  const ids = new Map<string, number>();
  const intern = (el: LiveElement) => {
    const key = shapeKey(el);
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    return id;
  };
  return { p: pi.map((i) => intern(prev[i] as LiveElement)), n: ni.map((j) => intern(next[j] as LiveElement)) };
}

/** Classic LCS table; returns flat pairs [a0, b0, a1, b1, …] in increasing order. */
function lcs(a: readonly number[], b: readonly number[]): number[] {
  const n = a.length, m = b.length, w = m + 1;
  const t = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      t[i * w + j] = a[i] === b[j]
        ? (t[(i + 1) * w + j + 1] as number) + 1
        : Math.max(t[(i + 1) * w + j] as number, t[i * w + j + 1] as number);
    }
  }
  const out: number[] = [];
  let i = 0, j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push(i++, j++);
    } else if ((t[(i + 1) * w + j] as number) >= (t[i * w + j + 1] as number)) i++;
    else j++;
  }
  return out;
}

/** Greedy in-order match for very long lists: each new element takes the next old one of its shape. */
function greedy(a: readonly number[], b: readonly number[]): number[] {
  const positions = new Map<number, number[]>();
  for (let i = 0; i < a.length; i++) {
    const list = positions.get(a[i] as number);
    if (list) list.push(i);
    else positions.set(a[i] as number, [i]);
  }
  const cursor = new Map<number, number>();
  const out: number[] = [];
  let last = -1;
  for (let j = 0; j < b.length; j++) {
    const list = positions.get(b[j] as number);
    if (!list) continue;
    let c = cursor.get(b[j] as number) ?? 0;
    while (c < list.length && (list[c] as number) <= last) c++;
    cursor.set(b[j] as number, c);
    if (c < list.length) {
      last = list[c] as number;
      out.push(last, j);
      cursor.set(b[j] as number, c + 1);
    }
  }
  return out;
}
