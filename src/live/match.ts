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
 * Cost: step 2 trims the common prefix and suffix first (the usual edit touches one place), then
 * runs the quadratic LCS table on what is left. Above LCS_LIMIT cells it falls back to a greedy
 * in-order match, which finds a common subsequence (not always the longest) in near-linear time, so
 * a pathological list cannot stall the event path.
 */
import type { LiveElement, LiveNode } from "./tree.ts";

const LCS_LIMIT = 1_000_000;

/** Whether two elements have the same shape; no allocation, for the hot path. */
export function sameShape(a: LiveElement, b: LiveElement): boolean {
  if (a.tag !== b.tag || a.key !== b.key || a.source?.name !== b.source?.name || a.source?.type !== b.source?.type) return false;
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

function shapeKey(el: LiveElement): string {
  let tags = "";
  for (const kid of el.kids) if (kid.kind === "el") tags += `${kid.tag},`;
  return `${el.tag}\u0001${el.key ?? ""}\u0001${el.source?.name ?? ""}\u0001${el.source?.type ?? ""}\u0001${tags}`;
}

/** For each new child, the index of the old child it keeps, or -1. */
export function matchKids(prev: readonly LiveNode[], next: readonly LiveNode[]): Int32Array {
  const toPrev = new Int32Array(next.length).fill(-1);
  const used = new Uint8Array(prev.length);

  // 1. index-free ids
  let bySeg: Map<string, number> | undefined;
  for (let i = 0; i < prev.length; i++) {
    const p = prev[i] as LiveNode;
    if (p.kind === "el" && p.indexFree) (bySeg ??= new Map()).set(p.seg, i);
  }
  if (bySeg !== undefined) {
    for (let j = 0; j < next.length; j++) {
      const n = next[j] as LiveNode;
      if (n.kind !== "el" || !n.indexFree) continue;
      const i = bySeg.get(n.seg);
      if (i !== undefined) {
        toPrev[j] = i;
        used[i] = 1;
      }
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
  let lo = 0;
  let pEnd = ps.length, nEnd = ns.length;
  while (lo < pEnd && lo < nEnd && sameShape(el(prev, ps, lo), el(next, ns, lo))) pair(lo, lo++);
  while (pEnd > lo && nEnd > lo && sameShape(el(prev, ps, pEnd - 1), el(next, ns, nEnd - 1))) pair(--pEnd, --nEnd);
  if (pEnd > lo && nEnd > lo) {
    const a = internShapes(prev, ps.slice(lo, pEnd), next, ns.slice(lo, nEnd));
    const pairs = a.p.length * a.n.length <= LCS_LIMIT ? lcs(a.p, a.n) : greedy(a.p, a.n);
    for (let k = 0; k < pairs.length; k += 2) pair(lo + (pairs[k] as number), lo + (pairs[k + 1] as number));
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
  return toPrev;
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
