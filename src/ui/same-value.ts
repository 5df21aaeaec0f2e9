/**
 * Values compared as data, for the session memo's rules (src/ui/lazy.ts): what `Ui.html` and
 * `Ui.h` compare a call's values with, and keep of them, to tell whether a call of this render
 * would build what the same call built in the previous render.
 *
 * Strings and numbers compare by value, arrays and plain objects (handler messages, style objects)
 * entry by entry, elements by identity (they are never changed once built). The memo keeps a copy
 * of the plain data it compared, so a model or attribute bag mutated in place is still seen as
 * changed; anything else (a class instance, data nested past MAX_DEPTH) is kept as a value equal to
 * nothing, so a call holding it is simply built again. A handler's record (`HandlerMessage`), which
 * the memo keeps in place of a copy of a message, equals the message it was made from.
 */
import { HandlerMessage } from "./handler-message.ts";

/** Deeper plain data is not compared: a call holding it is built again on every render. */
const MAX_DEPTH = 16;
/** What the memo keeps in place of a value it cannot compare: equal to nothing. */
const NEVER: unique symbol = Symbol("never equal");

const isElement = (value: object): boolean => (value as { kind?: unknown }).kind === "el";
const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Values equal as data: what a call built from one it would build from the other. */
export function sameValue(kept: unknown, value: unknown): boolean {
  // === first: the common case, and cheaper than Object.is on every engine. 0 and -0 render
  // alike, so their being "the same" here is right; NaN is the one value unequal to itself.
  if (kept === value) return true;
  if (typeof kept === "number") return typeof value === "number" && kept !== kept && value !== value;
  if (typeof kept !== "object" || kept === null || typeof value !== "object" || value === null) return false;
  if (Array.isArray(kept)) {
    if (!Array.isArray(value) || kept.length !== value.length) return false;
    // Entries the same value (a message's name and plain arguments) are settled here, without a call.
    for (let k = 0; k < kept.length; k++) {
      const a = kept[k], b = value[k];
      if (a !== b && !sameValue(a, b)) return false;
    }
    return true;
  }
  // A handler's record kept in place of the message it was made from (src/live/render-state/element-log.ts).
  if (kept instanceof HandlerMessage) return kept.madeFrom(value);
  // Kept elements are the objects themselves: identity only.
  if (Array.isArray(value) || isElement(kept) || isElement(value) || !isPlainObject(value)) return false;
  return sameFields(kept as Record<string, unknown>, value as Record<string, unknown>);
}

/**
 * Two plain objects with the same keys in the same order, and the same values as data. Order
 * counts: it is the order in which an element's attributes are written out.
 */
function sameFields(kept: Readonly<Record<string, unknown>>, value: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(kept);
  let k = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) return false;
    if (k >= keys.length || keys[k] !== key || !sameValue(kept[key], value[key])) return false;
    k++;
  }
  return k === keys.length;
}

/** A copy of a value's plain data (elements themselves), so that a later change in place is seen. */
export function keptCopy(value: unknown, depth = 0): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth > MAX_DEPTH) return NEVER;
  if (Array.isArray(value)) return value.map((entry) => keptCopy(entry, depth + 1));
  if (isElement(value)) return value;
  if (!isPlainObject(value)) return NEVER;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = keptCopy((value as Record<string, unknown>)[key], depth + 1);
  return copy;
}
