/**
 * One copy of a short text that folds of many sessions keep alike (docs/deployment.md#memory,
 * "shared texts").
 *
 * Why: sessions of one app mostly show the same data (a catalogue, a table of orders, the labels of
 * a form), so the folds of twenty sessions keep twenty copies of each row's texts. Every event
 * compares the view's new texts with its session's kept ones, and reading twenty copies spread
 * over the heap is what made an event of a session among many cost much more than an event of a
 * lone session (bench/RESULTS.md, "Shared texts", has the figures). A fold that keeps the copy
 * every other fold keeps reads memory the other sessions' events just read, and the copies are not
 * kept at all.
 *
 * What is shared: strings of at most SHARED_TEXT_LENGTH characters, taken when a fold is written
 * (after the event that built its row, not on every event). The table is bounded: two generations
 * of at most GENERATION_SIZE texts; when the current one is full, it becomes the older one and the
 * older one is dropped, so a text in use by a fold written since then stays shared, and one no
 * longer written goes with its generation (folds that hold it keep their own reference).
 * A text is a value: sharing one copy changes nothing any session can read.
 */

/** The longest text shared: a label, a number, a name; longer texts are seldom alike and cost more to look up. */
export const SHARED_TEXT_LENGTH = 64;
/** How many texts one generation holds (two are kept): a 2,000-row table of seven texts a row fits in one. */
export const GENERATION_SIZE = 16_384;

let current = new Map<string, string>();
let older = new Map<string, string>();

/** `value`, or the copy of it already shared, when it is a short string; other values as they are. */
export function sharedText<T>(value: T): T {
  if (typeof value !== "string" || value.length > SHARED_TEXT_LENGTH) return value;
  const known = current.get(value);
  if (known !== undefined) return known as T;
  const kept = older.get(value) ?? value;
  if (current.size >= GENERATION_SIZE) {
    older = current;
    current = new Map();
  }
  current.set(kept, kept);
  return kept as T;
}

/** How many texts are shared now (both generations; a text in both counts twice): for tests. */
export function sharedTextCount(): number {
  return current.size + older.size;
}
