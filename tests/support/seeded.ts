// The seeded random source of the tests that print their seed, so that a failing run replays.

/**
 * A small seeded generator (mulberry32): the same `start` gives the same numbers in [0, 1) each
 * run, so a test that prints its seed can be replayed with it.
 */
export function seeded(start: number): () => number {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
