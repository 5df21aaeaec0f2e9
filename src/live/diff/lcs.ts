/**
 * Common subsequences of two sequences of small integers (the shapes of two child lists, see
 * src/live/diff/match.ts), as flat pairs of indexes [a0, b0, a1, b1, …] in increasing order.
 */

/** Classic LCS table; returns flat pairs [a0, b0, a1, b1, …] in increasing order. */
export function lcs(a: readonly number[], b: readonly number[]): number[] {
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
export function greedy(a: readonly number[], b: readonly number[]): number[] {
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
