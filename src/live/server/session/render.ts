/**
 * A session's rendered tree, kept between events as a cache of view(model): the diff of the next
 * event compares with it, and a session without one (its tree released) renders it again from
 * the model. Beside the tree it keeps the memo of that render's Ui.lazy, template and Ui.h calls
 * (src/ui/lazy.ts), which the next render reuses and which goes with the tree.
 */
import type { UiElement } from "../../../ui/node.ts";
import { RenderState, renderWith } from "../../render-state/render-state.ts";
import { IdWalk } from "../../ids.ts";
import { type ClientValues, type Diffed, diffTrees } from "../../diff/diff.ts";
import type { RenderProbe } from "../../probe.ts";
import type { LiveTree } from "../../tree.ts";
import { estimateTreeBytes } from "./tree-bytes.ts";
import { foldKeptTree, KEPT_AS_BUILT_PER_KEEP, type KeptUnchanged } from "../../render-state/fold/fold-tree.ts";

/**
 * How many kept trees go by between two measures of the tree's bytes: a measure walks the whole
 * tree, and a page grows or shrinks by little per event, so most events only read the last one.
 */
const MEASURE_EVERY = 32;

/** How a session renders. */
export type SessionRenderOptions = {
  /**
   * How many subtrees a keep may leave as built until later renders hand them back unchanged
   * (src/live/render-state/fold/fold-tree.ts); 0 folds all it can at once.
   */
  readonly keptAsBuilt?: number;
  /** The test hook its renders count into (src/live/probe.ts); none: nothing is counted. */
  readonly probe?: RenderProbe | undefined;
};

export class SessionRender<Model> {
  private tree: LiveTree | undefined;
  private memo: RenderState | undefined;
  /** About how many bytes the kept tree costs (src/live/server/session/tree-bytes.ts), and the trees kept since it was measured. */
  private bytes = 0;
  private keptSinceMeasure = 0;
  /** How many renders have handed back each subtree this session keeps as built (src/live/render-state/fold/fold-tree.ts). */
  private readonly keptUnchanged: KeptUnchanged = new WeakMap();

  private readonly keptAsBuilt: number;
  /** The test hook its renders count into (src/live/probe.ts), if any. */
  readonly probe: RenderProbe | undefined;

  constructor(private readonly view: (model: Model) => UiElement, options: SessionRenderOptions = {}) {
    this.keptAsBuilt = options.keptAsBuilt ?? KEPT_AS_BUILT_PER_KEEP;
    this.probe = options.probe;
  }

  /** The kept tree, if any. */
  get kept(): LiveTree | undefined {
    return this.tree;
  }

  /** The view of `model` with ids, its Ui.lazy parts reused from the previous render where they can be. */
  render(model: Model): LiveTree {
    const memo = this.memo ??= new RenderState(this.probe);
    return new IdWalk(this.probe).tree(oneElement(renderWith(memo, () => this.view(model))));
  }

  /** The patches from the kept tree `before` to `after`, and the tree to keep (src/live/diff/diff.ts). */
  diff(before: LiveTree, after: LiveTree, clientValues: ClientValues | undefined): Diffed {
    return diffTrees(before, after, clientValues, this.probe);
  }

  /**
   * Keeps the tree of the last event. It is never rendered afresh from the model on a schedule: such
   * an event costs a whole render, many times the events around it, and a tab's events stay flat
   * without it (docs/deployment.md#cost-per-event).
   */
  keep(tree: LiveTree): void {
    // A tree rendered again after a release is of about the page last measured, and is counted at
    // that size: measuring it would walk the whole tree on every event of a session past the
    // budget, which renders its tree from the model each time (bench/table.bench.ts, released).
    const unmeasured = this.tree === undefined && this.bytes === 0;
    // Kept compact: its small subtrees folded, and the memo told to match the next render's calls
    // against the folded tree (src/live/render-state/fold/fold-tree.ts).
    if (tree !== this.tree) {
      const calls = foldKeptTree(tree, { keptAsBuilt: this.keptAsBuilt, keptUnchanged: this.keptUnchanged });
      this.memo?.elements().replacePrevious(calls);
    }
    this.tree = tree;
    if (unmeasured || ++this.keptSinceMeasure >= MEASURE_EVERY) {
      this.bytes = estimateTreeBytes(tree);
      this.keptSinceMeasure = 0;
    }
  }

  /** About how many bytes of heap the kept tree and its memo cost; 0 without one. */
  get keptBytes(): number {
    return this.tree === undefined ? 0 : this.bytes;
  }

  /**
   * Frees the tree and its memo; the next event renders the tree again from the model. The last
   * measure of its bytes stays, for the tree rendered again (`keep`).
   */
  release(): void {
    this.tree = undefined;
    this.memo = undefined;
  }
}

/**
 * A view returns one element, the page's root (docs/protocol.md#node-ids). A fragment, a list or
 * a text is refused here with a message that says so, rather than failing deep in the id walk.
 */
function oneElement(root: UiElement): UiElement {
  if ((root as { kind?: unknown } | null)?.kind === "el") return root;
  const what = Array.isArray(root)
    ? "a list of nodes (a fragment?)"
    : root === null || root === undefined
    ? String(root)
    : typeof root === "object"
    ? `a ${String((root as { kind?: unknown }).kind)} node`
    : `a ${typeof root}`;
  throw new TypeError(
    `a live app's view must return one element, the page's root; it returned ${what}: wrap it in an element such as <main>`,
  );
}
