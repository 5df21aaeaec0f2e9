/**
 * Folding a session's kept tree (docs/deployment.md#memory, "the compact kept form"): after each
 * event, the small subtrees of the page the session keeps (its rows, its form fields) become folds,
 * each the tape of the calls that built it (src/live/render-state/fold/), and the session memo's list for the next
 * render is written from the folded tree.
 *
 * What is folded: below the root, every subtree of at most FOLD_MAX_CALLS calls whose parent's
 * subtree is larger (or is the root), and whose calls can be written (src/live/render-state/fold/tape-write.ts).
 * The rest of the page, its spine (the root, the list containers and what holds them), stays
 * elements: a few per page. A fold kept from the previous event is the same object in the new tree
 * (the view got it back, or the diff kept it) and is not looked into again, so the pass costs the
 * spine, one step per fold, and the subtrees the event built.
 *
 * The memo's list is the tree's calls in the order a view makes them, children before their
 * parents (src/live/render-state/element-log.ts): each spine element after its subtree, a fold as one entry.
 */
import { CHILDREN, KEYED } from "../call-record.ts";
import { FoldPart } from "./fold-part.ts";
import { FOLD_MAX_CALLS, writeTape } from "./tape-write.ts";
import { Part } from "../lazy-part.ts";
import type { UiElement, UiNode } from "../../../ui/node.ts";
import { placeFold } from "../../ids.ts";
import type { LiveElement, LiveNode, LiveTree } from "../../tree.ts";

/** Calls of a subtree larger than a fold holds, or that cannot be folded whole. */
const TOO_MANY = FOLD_MAX_CALLS + 1;

/**
 * Subtrees found unwritable (a view constant, a template's node, a value that is not plain data):
 * kept as the objects they are, and not written again while the page keeps them.
 */
const unwritable = new WeakSet<object>();

/**
 * A subtree a render built is kept as built until renders have handed it back unchanged this many
 * times. What an event changed, the next events are likely to change again (the field being typed
 * into, a counter): folded at once, it was written after every keystroke and replayed before the
 * next one (to find the handler's element), only to be built afresh by the render, which cost a
 * form's event about a fifth of its time (bench/event-ab.ts, against the same code folding
 * nothing). Two, so that typing with a click elsewhere in between does not fold the field either.
 */
const FOLD_AFTER_KEPT_UNCHANGED = 2;

/**
 * The most subtrees one keep leaves as built: an event changes a few, while a page's first render,
 * or one after its tree was released, builds all of them, and a page kept as built costs many
 * times its folds' memory. The rest are folded at once, as before.
 */
export const KEPT_AS_BUILT_PER_KEEP = 8;

/**
 * How many renders have handed back each subtree kept as built, since the render that built it: a
 * session's own (its `SessionRender`), as the subtrees are.
 */
export type KeptUnchanged = WeakMap<object, number>;

/** How a keep folds its tree. */
export type FoldOptions = {
  /** How many subtrees it meets for the first time it may leave as built (0: it folds all it can). */
  readonly keptAsBuilt?: number;
  /** The session's counts of renders that handed back its subtrees kept as built (a new map: none yet). */
  readonly keptUnchanged?: KeptUnchanged;
};

/**
 * Folds `tree` in place, leaving at most `options.keptAsBuilt` subtrees it meets for the first time
 * as built; the calls of the folded tree in the order a view makes them, for the memo.
 */
export function foldKeptTree(tree: LiveTree, options: FoldOptions = {}): UiElement[] {
  const pass = new FoldPass(options.keptAsBuilt ?? KEPT_AS_BUILT_PER_KEEP, options.keptUnchanged ?? new WeakMap());
  pass.below(tree.root, FOLDING);
  return pass.calls;
}

/** Whether a walk below an element folds what it can, or leaves it as built (below a subtree kept as built). */
type Below = typeof FOLDING | typeof AS_BUILT;
const FOLDING = "folding";
const AS_BUILT = "as built";

/** One keep's fold of its tree: the calls listed so far, and how many more subtrees it may leave as built. */
class FoldPass {
  readonly calls: UiElement[] = [];

  constructor(private mayKeepAsBuilt: number, private readonly keptUnchanged: KeptUnchanged) {}

  /** Folds what can be folded among `el`'s descendants (nothing when `below` is AS_BUILT), and lists `el`'s subtree's calls. */
  below(el: LiveElement, below: Below): void {
    const calls = this.calls;
    const kids = el.kids as LiveNode[];
    // An app's frozen view constant keeps its children as they are: they are walked, not replaced.
    const fixed = Object.isFrozen(kids) || Object.isFrozen(el.children);
    let view = 0; // where the next kid may sit among el's view children, when they are another list
    for (let i = 0; i < kids.length; i++) {
      const kid = kids[i] as LiveNode;
      if (kid.kind !== "el") continue;
      if (kid instanceof FoldPart) {
        calls.push(kid);
        continue;
      }
      if (kid instanceof Part) continue; // a Ui.lazy or Ui.each part keeps its call already
      if (below === AS_BUILT || fixed || unwritable.has(kid) || callsOf(kid, TOO_MANY) >= TOO_MANY) {
        this.below(kid, below);
        continue;
      }
      if (this.staysAsBuilt(kid)) {
        this.below(kid, AS_BUILT);
        continue;
      }
      const fold = foldOf(kid);
      if (fold === undefined) {
        this.below(kid, FOLDING);
        continue;
      }
      kids[i] = fold as LiveElement;
      view = replaceViewChild(el, kid, fold, view);
      calls.push(fold);
    }
    const call = el.call;
    if (call === undefined) return;
    if (call[0] === KEYED && (call[2] as UiElement).call !== undefined) calls.push(call[2] as UiElement);
    calls.push(el);
  }

  /** Whether the foldable subtree `kid` stays as built this time (counted as kept once more). */
  private staysAsBuilt(kid: LiveElement): boolean {
    const before = this.keptUnchanged.get(kid);
    const kept = before === undefined ? 0 : before + 1;
    if (kept >= FOLD_AFTER_KEPT_UNCHANGED || (before === undefined && this.mayKeepAsBuilt === 0)) return false;
    if (before === undefined) this.mayKeepAsBuilt--;
    this.keptUnchanged.set(kid, kept);
    return true;
  }
}

/** The fold of a kept subtree, placed where the subtree is; undefined when its calls cannot be written. */
function foldOf(kid: LiveElement): FoldPart | undefined {
  const tape = writeTape(kid);
  if (tape === undefined) {
    unwritable.add(kid);
    return undefined;
  }
  const fold = placeFold(FoldPart.of(tape, kid), kid);
  // Compact at once: the subtree it was made from is the view's, which the page no longer holds.
  fold.release();
  return fold;
}

/**
 * The calls of `el`'s subtree as a fold would hold them, counted up to `limit` (a spine element's
 * count stops there): a fold counts its own, an element that cannot be written counts as `limit`.
 */
function callsOf(el: UiElement, limit: number): number {
  if (el instanceof FoldPart) return el.calls;
  const call = el.call;
  if (call === undefined || el instanceof Part) return limit;
  let count = call[0] === KEYED ? 2 : 1;
  const mark = call.indexOf(CHILDREN);
  const children: readonly unknown[] = mark >= 0 ? call.slice(mark + 1) : el.children;
  for (const child of children) {
    if (typeof child !== "object" || (child as UiNode).kind !== "el") continue;
    count += callsOf(child as UiElement, limit - count);
    if (count >= limit) return limit;
  }
  return count;
}

/**
 * Puts `fold` in place of `kid` among `parent`'s view children too, when they are not its kids
 * themselves, so the next render's call of `parent` compares with the fold the view will get back
 * (src/live/render-state/element-log.ts). `from`: where to look first, as kids and view children run in one order.
 */
function replaceViewChild(parent: LiveElement, kid: LiveElement, fold: FoldPart, from: number): number {
  const children = parent.children as UiNode[];
  if ((children as unknown) === parent.kids) return from;
  for (let j = from; j < children.length; j++) {
    if (children[j] === (kid as unknown)) {
      children[j] = fold;
      return j + 1;
    }
  }
  return from;
}
