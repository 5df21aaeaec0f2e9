/**
 * The path a diff walks (src/live/diff/diff.ts): one pair of elements per depth from the roots, the old
 * and the new element at that depth, and the ids joined from their segs only when a patch names
 * one or the client's reported values are read (docs/protocol.md#ids-that-move).
 */
import { ROOT_ID } from "../../protocol/mod.ts";
import type { IdPaths, Reported } from "./attrs.ts";
import { childId, type LiveElement } from "../tree.ts";

/**
 * A pair of elements on the walk's path: the old and the new element at one depth, and what the
 * walk knows of them. One object per depth, reused from sibling to sibling: a walk visits every
 * element, and allocates nothing per visit.
 */
export type Pair = {
  readonly depth: number;
  before: LiveElement;
  after: LiveElement;
};

/** The pairs on the path being compared (depth 0 is the roots), and the ids they stand for. */
export class PairPath implements IdPaths {
  private readonly path: Pair[] = [];

  constructor(readonly reported: Reported | undefined) {}

  /** The pair of the roots. */
  root(before: LiveElement, after: LiveElement): Pair {
    return this.slot(0, before, after);
  }

  /** The id the client posted for the old element at `depth` on the path. */
  oldId(depth: number): string {
    let id = ROOT_ID;
    for (let i = 1; i <= depth; i++) id = childId(id, (this.path[i] as Pair).before.seg);
    return id;
  }

  /** The id of the new element at `depth` on the path: what patches name it by. */
  newId(depth: number): string {
    let id = ROOT_ID;
    for (let i = 1; i <= depth; i++) id = childId(id, (this.path[i] as Pair).after.seg);
    return id;
  }

  /** The tag of the new element's parent at `depth` on the path; "body" for the root's (where the page holds it). */
  parentTagOf(depth: number): string {
    return depth > 0 ? (this.path[depth - 1] as Pair).after.tag : "body";
  }

  /**
   * The old id of the select the element at `depth` is in, if any (an option's reported value is
   * its select's): its parent, or the select an optgroup parent is in.
   */
  selectIdOf(depth: number): string | undefined {
    const parent = depth > 0 ? this.path[depth - 1] : undefined;
    if (parent === undefined) return undefined;
    if (parent.after.tag === "select") return this.oldId(depth - 1);
    return parent.after.tag === "optgroup" ? this.selectIdOf(depth - 1) : undefined;
  }

  /** The pair of two kids of `parent`, in the slot one deeper. */
  protected kid(parent: Pair, before: LiveElement, after: LiveElement): Pair {
    return this.slot(parent.depth + 1, before, after);
  }

  private slot(depth: number, before: LiveElement, after: LiveElement): Pair {
    const pair = (this.path[depth] ??= { depth, before, after });
    pair.before = before;
    pair.after = after;
    return pair;
  }
}
