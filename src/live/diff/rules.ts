/**
 * What the diff (src/live/diff/diff.ts) decides about a pair of elements from the elements alone: a
 * form or an option that must be replaced rather than patched (docs/protocol.md#patches,
 * `replace`), and a pair that matching would pair whatever its shape.
 */
import type { LiveElement, LiveNode } from "../tree.ts";

/**
 * Whether `el` is the only element of its tag among `kids` (short lists only). Such a pair in the
 * same slot is one matching pairs whatever its shape: no other element could take either side by
 * shape (step 2), and leftovers of one tag pair in order (step 3). A table whose tbody gained a
 * row is then diffed in place instead of matched.
 */
export function onlyOfTag(kids: readonly LiveNode[], el: LiveElement): boolean {
  if (kids.length > 8) return false;
  for (const kid of kids) if (kid !== el && kid.kind === "el" && kid.tag === el.tag) return false;
  return true;
}

/**
 * An option whose value becomes, or stops being, the empty string (src/ui/attrs.ts): a patch's
 * attrs cannot set "" (it removes the attribute, and the option's value becomes its text), so the
 * option is replaced.
 */
export function emptyValueChanged(p: LiveElement, n: LiveElement): boolean {
  if (n.tag !== "option" || p.tag !== "option") return false;
  const a = p.attrs["value"], b = n.attrs["value"];
  return a !== b && (a === "" || b === "");
}

/** A form whose submit handler or action differs from the form in the same slot (docs/protocol.md#patches, `replace`). */
export function formChanged(p: LiveElement, n: LiveElement): boolean {
  if (n.tag !== "form" || p.tag !== "form") return false;
  if (p.attrs["action"] !== n.attrs["action"]) return true;
  const a = p.handlers?.submit, b = n.handlers?.submit;
  if (a === b) return false;
  if (a === undefined || b === undefined) return true;
  if (a.msg !== b.msg) return true;
  return (a.args.length !== 0 || b.args.length !== 0) && JSON.stringify(a.args) !== JSON.stringify(b.args);
}
