/**
 * About how many bytes of heap a session's kept tree costs (docs/deployment.md#memory): what a
 * session measures of the tree it keeps, and what the registry's byte budget
 * (src/live/server/registry/tree-budget.ts) adds up.
 */
import { Part } from "../../render-state/lazy-part.ts";
import { FoldPart } from "../../render-state/fold/fold-part.ts";
import type { LiveElement, LiveTree } from "../../tree.ts";

/**
 * About how many bytes of heap a session's kept tree costs: per element, the live element, its view
 * element, what its call is compared with (src/live/render-state/element-log.ts), their arrays and attribute bags; per character
 * of text and attribute values, a byte. Calibrated against the heap of active sessions
 * (bench/table.bench.ts, memory).
 */
export const BYTES_PER_ELEMENT = 290;

/**
 * About how many bytes of heap a lazy part that keeps its call costs (src/live/render-state/lazy-part.ts): the
 * part, its arguments and its entry in the session's memo (calibrated as above). Its arguments'
 * own data is the model's, which the estimate does not count for any element.
 */
export const BYTES_PER_LAZY_PART = 350;

/**
 * About how many bytes of heap a fold costs (src/live/render-state/fold/fold-part.ts) besides its values: the
 * part, its list of values and its entry in the session memo's list; each value a slot, and each
 * character of a string value a byte (calibrated as above). Its shape is shared with every fold of
 * the same calls and is not counted.
 */
export const BYTES_PER_FOLD = 360;
const BYTES_PER_FOLD_VALUE = 8;

/** About how many bytes a fold's values cost: a slot each, and their strings' characters. */
function foldBytes(fold: FoldPart): number {
  let bytes = BYTES_PER_FOLD;
  for (const value of fold.values) bytes += BYTES_PER_FOLD_VALUE + (typeof value === "string" ? value.length : 0);
  return bytes;
}

/**
 * One walk over the tree: its elements and the characters of their texts and attribute values. A
 * lazy part that keeps its call only is counted as one, without building its subtree, and a fold
 * by its values.
 */
export function estimateTreeBytes(tree: LiveTree): number {
  let elements = 0;
  let parts = 0;
  let folds = 0;
  let chars = 0;
  const stack: LiveElement[] = [tree.root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    elements++;
    const attrs = el.attrs;
    for (const name in attrs) chars += (attrs[name] as string).length;
    for (const kid of el.kids) {
      if (kid instanceof FoldPart) folds += foldBytes(kid);
      else if (kid instanceof Part && kid.compact) parts++;
      else if (kid.kind === "el") stack.push(kid);
      else if (kid.kind === "text") chars += kid.text.length;
      else chars += kid.html.length;
    }
  }
  return elements * BYTES_PER_ELEMENT + parts * BYTES_PER_LAZY_PART + folds + chars;
}
