/**
 * Where the ids of an event went (docs/protocol.md#ids-that-move).
 *
 * A tab names its handler and its dirty inputs by the ids of the tree it shows, that is, after the
 * frames it had applied (`lastAppliedSeq` in the body). Frames it had not applied yet may have
 * moved those nodes: a row inserted above a list renames every row below it (`{keep, id}` in a
 * `kids` patch). The session therefore keeps, for its most recent frames, what each frame did to
 * ids, and maps an event's ids forward onto the current tree:
 *
 * - a `kids` patch on P: a node below P lies under exactly one of P's old children (the longest
 *   kept id equal to it or a prefix of it followed by "."; an injected style's id extends its
 *   owner's). A kept child moves it to the child's new id, renamed or not; a child not kept took
 *   it out of the tree. The renames of one patch are thus one simultaneous mapping, and patches
 *   apply in frame order, each to the ids the ones before it produced;
 * - `remove` and `replace` on X: X and everything below it left (a replaced node is a new node);
 * - `html`, `text` and `attrs` move no id (an `html` patch's children may lose nodes: the caller
 *   still checks the mapped id against the current tree).
 *
 * The log is bounded (frames and kept ids); an event older than its horizon is mapped as before
 * this log existed, by its ids as they are.
 */
import type { Move, Patch } from "../../../protocol/mod.ts";

/** What one patch did to ids: a kids list (old child id -> new child id) or a removal. */
type KidsStep = { readonly parent: string; readonly kept: ReadonlyMap<string, string> };
type Step = KidsStep | { readonly gone: string };

/** The id left the tree. */
export const GONE = Symbol("gone");
/** Frames the id has been through are no longer in the log. */
export const UNKNOWN = Symbol("unknown");
export type Resolved = string | typeof GONE | typeof UNKNOWN;

const MAX_FRAMES = 256;
const MAX_IDS = 20_000;

export class RenameLog {
  /** Frames (by seq) that moved or removed ids, oldest first; frames that did not are not kept. */
  private readonly frames: { readonly seq: number; readonly steps: readonly Step[]; readonly size: number }[] = [];
  private size = 0;
  /** Every frame above this seq is in the log (when it moved ids). */
  private horizon: number;

  constructor(seq = 0) {
    this.horizon = seq;
  }

  /** Records frame `seq` (called for every frame, in seq order). */
  record(seq: number, patches: readonly Patch[]): void {
    const steps = stepsOf(patches);
    if (steps.length === 0) return;
    let size = 0;
    for (const step of steps) size += "gone" in step ? 1 : step.kept.size + 1;
    this.frames.push({ seq, steps, size });
    this.size += size;
    while (this.frames.length > MAX_FRAMES || (this.size > MAX_IDS && this.frames.length > 1)) {
      const dropped = this.frames.shift()!;
      this.size -= dropped.size;
      this.horizon = dropped.seq;
    }
  }

  /** Forgets every frame up to `seq` (a session whose tree was dropped: nothing older is mapped). */
  reset(seq: number): void {
    this.frames.length = 0;
    this.size = 0;
    this.horizon = seq;
  }

  /**
   * What the frames after `since` did to ids, for a tab that catches up from a full render
   * (docs/protocol.md#ids-that-move), composed into one step per list (see composeMoves): as long
   * as the tree's changed lists, however many frames passed. Undefined when the log no longer
   * reaches back so far.
   */
  movesSince(since: number): Move[] | undefined {
    if (since < this.horizon) return undefined;
    const steps: Step[] = [];
    for (const frame of this.frames) if (frame.seq > since) steps.push(...frame.steps);
    return composeMoves(steps);
  }

  /** The current id of the node a tab that had applied frames up to `since` calls `id`. */
  resolve(id: string, since: number): Resolved {
    if (since < this.horizon) return UNKNOWN;
    let current: string | typeof GONE = id;
    for (const frame of this.frames) {
      if (frame.seq <= since) continue;
      current = through(frame.steps, current);
      if (current === GONE) return GONE;
    }
    return current;
  }
}

/** What a frame's patches do to ids, in order. */
function stepsOf(patches: readonly Patch[]): Step[] {
  const steps: Step[] = [];
  for (const patch of patches) {
    if (patch.kids !== undefined) {
      const kept = new Map<string, string>();
      for (const kid of patch.kids) if ("keep" in kid) kept.set(kid.keep, "id" in kid ? kid.id : kid.keep);
      steps.push({ parent: patch.id, kept });
    }
    if (patch.replace !== undefined || patch.remove === true) steps.push({ gone: patch.id });
  }
  return steps;
}

/** Where `id` goes through `steps`, in order: its id after them, or GONE. */
function through(steps: readonly Step[], id: string): string | typeof GONE {
  let current = id;
  for (const step of steps) {
    const next = "gone" in step ? removeStep(step.gone, current) : kidsStep(step.parent, step.kept, current);
    if (next === GONE) return GONE;
    current = next;
  }
  return current;
}

/**
 * A map keyed by ids of the tree before `patches`, keyed by the ids after them: a renamed node's
 * entry follows it, a node that left loses its entry (the session's stored input seqs follow their
 * inputs so). The same map when no key moved.
 */
export function followRenames<V>(map: ReadonlyMap<string, V>, patches: readonly Patch[]): ReadonlyMap<string, V> {
  if (map.size === 0) return map;
  const steps = stepsOf(patches);
  if (steps.length === 0) return map;
  let moved: Map<string, V> | undefined;
  for (const [id, value] of map) {
    const at = through(steps, id);
    if (at === id && moved === undefined) continue;
    moved ??= entriesBefore(map, id);
    if (at !== GONE) moved.set(at, value);
  }
  return moved ?? map;
}

/** Whether `id` lies strictly below `ancestor` (a `.` follows it). */
const below = (id: string, ancestor: string) =>
  id.length > ancestor.length && id.startsWith(ancestor) && id.charCodeAt(ancestor.length) === 46; /* . */

function removeStep(gone: string, id: string): string | typeof GONE {
  return id === gone || below(id, gone) ? GONE : id;
}

function kidsStep(parent: string, kept: ReadonlyMap<string, string>, id: string): string | typeof GONE {
  if (!below(id, parent)) return id;
  // The candidates are the prefixes of id below parent, ending where a "." starts a segment; the
  // longest kept one wins (an injected style `<owner>.~pass` is a sibling of its owner).
  for (let end = id.length; end > parent.length; end = id.lastIndexOf(".", end - 1)) {
    const to = kept.get(end === id.length ? id : id.slice(0, end));
    if (to !== undefined) return to + id.slice(end);
  }
  return GONE;
}

/** The id a node had before `step`, for its id after it; NEW when the step made it. */
const NEW = Symbol("new");

function backStep(step: Step, id: string, inverse: (step: KidsStep) => ReadonlyMap<string, string>): string | typeof NEW {
  if ("gone" in step) return id === step.gone || below(id, step.gone) ? NEW : id;
  if (!below(id, step.parent)) return id;
  const from = inverse(step);
  for (let end = id.length; end > step.parent.length; end = id.lastIndexOf(".", end - 1)) {
    const old = from.get(end === id.length ? id : id.slice(0, end));
    if (old !== undefined) return old + id.slice(end);
  }
  return NEW;
}

/**
 * The moves of `steps` (the log's steps after a tab's lastAppliedSeq, in order) composed for a tab
 * whose ids are those from before them (docs/protocol.md#ids-that-move):
 *
 * - a `{gone}` for each element that existed before the steps and was removed or replaced, first;
 * - one `{parent, kept}` per list that existed before the steps and was reconciled by some of
 *   them: its children before the steps that are still in the tree, each with its id now. The
 *   children a list had are those its first kids step kept (or had removed before), so the first
 *   step names them; each is followed to the end. Lists come deepest first, so the parent a move
 *   names, and the children it renames, still carry the tab's ids when it is replayed (a move only
 *   renames below its own parent).
 *
 * Replayed in order by the client's `move`, this gives every kept node the id it has now and
 * removes the rest, as the frames themselves would; its length is bounded by the lists, not by the
 * number of frames.
 */
function composeMoves(steps: readonly Step[]): Move[] {
  const inverses = new Map<KidsStep, Map<string, string>>();
  const inverse = (step: KidsStep) => {
    let map = inverses.get(step);
    if (map === undefined) {
      map = new Map();
      for (const [old, now] of step.kept) map.set(now, old);
      inverses.set(step, map);
    }
    return map;
  };
  // The id `id` (at step `at`) had before every step, or NEW.
  const back = (at: number, id: string): string | typeof NEW => {
    let current = id;
    for (let i = at - 1; i >= 0; i--) {
      const before = backStep(steps[i]!, current, inverse);
      if (before === NEW) return NEW;
      current = before;
    }
    return current;
  };
  const gone = new Set<string>();
  const lists = new Map<string, [string, string][]>();
  for (const [i, step] of steps.entries()) {
    if ("gone" in step) {
      const was = back(i, step.gone);
      if (was !== NEW) gone.add(was);
      continue;
    }
    const parent = back(i, step.parent);
    if (parent === NEW || lists.has(parent)) continue;
    const after = steps.slice(i);
    const kept: [string, string][] = [];
    for (const child of step.kept.keys()) {
      const was = back(i, child);
      const now = through(after, child);
      if (was !== NEW && now !== GONE) kept.push([was, now]);
    }
    lists.set(parent, kept);
  }
  const depth = (id: string) => id.split(".").length;
  const moves: Move[] = [...gone].map((id) => ({ gone: id }));
  for (const parent of [...lists.keys()].sort((a, b) => depth(b) - depth(a))) moves.push({ parent, kept: lists.get(parent)! });
  return moves;
}

/**
 * An event's handler id and inputState ids mapped onto the current tree. Inputs that left the tree
 * are dropped; undefined when the handler left. Without `since` (an older client) the ids are taken
 * as they are.
 */
export function resolveEvent<E extends { readonly handlerId: string | undefined }, R>(
  log: RenameLog,
  entry: E,
  inputs: ReadonlyMap<string, R>,
  since: number | undefined,
): { entry: E; inputs: ReadonlyMap<string, R> } | undefined {
  if (since === undefined) return { entry, inputs };
  let handlerId = entry.handlerId;
  if (handlerId !== undefined) {
    const at = log.resolve(handlerId, since);
    if (at === GONE) return undefined;
    if (at !== UNKNOWN) handlerId = at;
  }
  let moved: Map<string, R> | undefined;
  for (const [id, report] of inputs) {
    const at = log.resolve(id, since);
    if (at === id || at === UNKNOWN) {
      moved?.set(id, report);
      continue;
    }
    // Copy the ids seen so far unchanged, then continue with the mapped ones.
    moved ??= entriesBefore(inputs, id);
    if (at !== GONE) moved.set(at, report);
  }
  return { entry: handlerId === entry.handlerId ? entry : { ...entry, handlerId }, inputs: moved ?? inputs };
}

/** A new map of `map`'s entries before `id`, in order: where a copy starts that differs from `id` on. */
function entriesBefore<V>(map: ReadonlyMap<string, V>, id: string): Map<string, V> {
  const copy = new Map<string, V>();
  for (const [earlier, value] of map) {
    if (earlier === id) break;
    copy.set(earlier, value);
  }
  return copy;
}
