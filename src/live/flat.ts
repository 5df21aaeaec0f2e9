/**
 * A render's content, flat: one array that records, in document order, everything the diff
 * compares of every node of a live tree (src/live/tree.ts). The id walk writes it while it builds
 * the tree (src/live/ids.ts); the diff reads it to find, by comparing two stretches of two arrays,
 * that a subtree did not change, without visiting the subtree's objects (src/live/diff.ts).
 *
 * Why: a session's previous tree was built many events ago, and on a busy server it has long left
 * the processor's caches. Walking it object by object (element, kids array, text node, attribute
 * bag: several cache lines per element, scattered over the heap) cost three times what the same
 * walk costs on a warm tree (the cold-tree row of bench/diff.bench.ts: the 93-element form of
 * bench/live-app.ts with 2 MB of other memory read between two events of a session, as a server's
 * other requests do). The flat record of that form is one array of about 400 entries, read front to back, and
 * most entries are the same string objects in both renders (attribute names, constant texts), so
 * comparing them does not read the strings.
 *
 * Layout. An element is
 *
 *   seg, span, attribute count, (name, value) per attribute, then each kid in order
 *
 * where `span` is the number of entries of the whole element, kids included; the root, whose seg
 * is "r" in every tree, is recorded with its tag in place of its seg. A text kid is
 * TEXT followed by its text, raw HTML is RAW followed by its markup, and an element the view
 * handed back again, whose live element was reused as it was (src/live/ids.ts), is REUSED
 * followed by that live element, which stands for its whole subtree. A kid's first entry is thus
 * its seg (a string) or a marker (an object), and the record parses one way only.
 *
 * Equal stretches mean equal subtrees: a seg holds the tag, the key and the index; the
 * attributes hold the name, the type and the handlers (their messages are rendered as
 * attributes, src/ui/attrs.ts); the kids are recorded in full. The converse does not hold (the
 * same attributes written in another order, a subtree reused in one render and rebuilt in the
 * other): then the diff compares the objects, as it would without the record.
 */
import type { Flat, LiveElement, LiveTree } from "./tree.ts";

export type { Flat };

/** Markers of the kids that are not elements built in this render. */
const TEXT = { flat: "text" } as const;
const RAW = { flat: "raw" } as const;
const REUSED = { flat: "reused" } as const;

/** Where the kids of the element at `at` start. */
export function kidsStart(flat: Flat, at: number): number {
  return at + 3 + 2 * (flat[at + 2] as number);
}

/** Whether the kid that starts at `at` is an element recorded in full (not text, raw HTML or a reused element). */
export function opensElement(flat: Flat, at: number): boolean {
  return typeof flat[at] === "string";
}

/** The number of entries of the kid that starts at `at`: an element's span, or a marker and its value. */
export function entryLength(flat: Flat, at: number): number {
  return opensElement(flat, at) ? (flat[at + 1] as number) : 2;
}

/** Whether the `length` entries from `a` in `x` equal those from `b` in `y`. */
export function sameEntries(x: Flat, a: number, y: Flat, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (x[a + k] !== y[b + k]) return false;
  return true;
}

/**
 * The longest record kept: 16,384 entries (128 KB, under the size at which the engine puts an
 * array in its large-object space, which costs far more to allocate). A tree of some 2,000
 * elements and more is diffed without one: building a record that size on every render costs
 * more than walking the tree saves (bench/diff.bench.ts, 10,000 nodes).
 */
export const MAX_RECORD = 16_384;

/**
 * The record length to ask of a render that follows `last`, a session's previous tree: about the
 * length of its record, since a view renders trees of about one size; 0 for a first render; none
 * when `last` had none (it was too large for one, and this tree is about as large, so a record
 * would be written up to MAX_RECORD in vain).
 */
export function recordLengthAfter(last: LiveTree | undefined): number | undefined {
  return last === undefined ? 0 : last.flat?.length;
}

/**
 * Builds a flat record while the id walk goes down the tree, or nothing: a writer made without an
 * expected length records nothing, and one whose record outgrows MAX_RECORD stops and keeps none.
 */
export class FlatWriter {
  private readonly out: unknown[];
  private length = 0;
  private recording: boolean;

  /**
   * `expected`: about how many entries the record will have (the session's last record's length),
   * so that the array does not grow by steps; undefined to record nothing.
   */
  constructor(expected: number | undefined) {
    this.recording = expected !== undefined;
    this.out = expected !== undefined && expected > 0 ? new Array(Math.min(expected, MAX_RECORD)) : [];
  }

  /** The finished record, or undefined when there is none (not asked for, or longer than MAX_RECORD). */
  finish(): Flat | undefined {
    if (!this.recording || this.length > MAX_RECORD) return undefined;
    this.out.length = this.length;
    return this.out;
  }

  /** Opens an element: its seg and attributes. Returns where it starts, for `close`. */
  open(seg: string, attrs: Readonly<Record<string, string>>): number {
    if (!this.recording) return 0;
    const out = this.out;
    const at = this.length;
    // Checked per element: the kids written after the last check still count at `finish`.
    if (at > MAX_RECORD) {
      this.recording = false;
      out.length = 0;
      return 0;
    }
    // Written front to back, so that an array that runs out of room grows as if pushed to.
    out[at] = seg;
    out[at + 1] = 0;
    out[at + 2] = 0;
    let w = at + 3;
    for (const name in attrs) {
      out[w] = name;
      out[w + 1] = attrs[name];
      w += 2;
    }
    out[at + 2] = (w - at - 3) / 2;
    this.length = w;
    return at;
  }

  /** Closes the element opened at `at`: its span is now known. */
  close(at: number): void {
    if (this.recording) this.out[at + 1] = this.length - at;
  }

  text(text: string): void {
    this.pair(TEXT, text);
  }

  raw(html: string): void {
    this.pair(RAW, html);
  }

  reused(live: LiveElement): void {
    this.pair(REUSED, live);
  }

  private pair(marker: object, value: unknown): void {
    if (!this.recording) return;
    const at = this.length;
    this.out[at] = marker;
    this.out[at + 1] = value;
    this.length = at + 2;
  }
}
