/**
 * Dirty inputs through a render that comes without moves (docs/protocol.md#render): the session's
 * log no longer reaches back to the page's last applied frame, so the page's ids cannot be moved to
 * the render's first, and a reconcile by id alone may match a shifted id with another node.
 *
 * Before the reconcile, each dirty entry is taken out of the table with what it holds (the typed
 * value, the caret, focus) and what identifies its control apart from its id: tag, type, name, the
 * element id, the key and the handlers (their message attributes). The reconcile then treats
 * every control as the render says. After it, the entry goes to the one control of the page with
 * that identity, which gets the typed value back, and its pending and queued sends follow it. A
 * control whose identity is not unique in the page cannot be told apart: its typed value is dropped
 * and the caller logs it. The node may be another one than before, so an open IME composition on it
 * ends; the value, caret and focus are kept.
 */
import { ID_ATTR, MSG_ATTR_PREFIX } from "../src/protocol/mod.ts";
import { type Control, controlValue, isControl, isToggle, writeValue } from "./dom.ts";
import type { InputEntry, InputTable } from "./inputs.ts";

/** A dirty entry taken out of the table for a reconcile without moves. */
export type Carried = {
  readonly entry: InputEntry;
  readonly from: Control;
  readonly identity: string;
  readonly value: string;
  readonly focused: boolean;
  readonly caret: readonly [number, number] | undefined;
};

/** What identifies a control apart from its id: every attribute but the ids and the live state. */
export function identityOf(el: Element): string {
  const parts: string[] = [el.tagName];
  for (const attr of Array.from(el.attributes)) {
    const name = attr.name;
    if (name === ID_ATTR || name === "value" || name === "checked" || name === "class" || name === "style") continue;
    if (name === "type" || name === "name" || name === "id" || name.startsWith(MSG_ATTR_PREFIX) || name.startsWith("svc-")) {
      parts.push(`${name}=${attr.value}`);
    }
  }
  return parts.sort().join("\n");
}

/** A control's live state back to what its markup says (value, checked, selected). */
function showRendered(el: Control): void {
  if (isToggle(el)) (el as HTMLInputElement).checked = (el as HTMLInputElement).defaultChecked;
  else if (el.tagName === "SELECT") {
    for (const option of Array.from((el as HTMLSelectElement).options)) option.selected = option.defaultSelected;
  } else writeValue(el as HTMLInputElement | HTMLTextAreaElement, (el as HTMLInputElement | HTMLTextAreaElement).defaultValue);
}

/** Takes every dirty entry out of `inputs`, with its value, caret and focus. */
export function carryDirty(inputs: InputTable, doc: Document): Carried[] {
  const carried: Carried[] = [];
  for (const [el, entry] of [...inputs.entries]) {
    if (!inputs.dirty(entry)) continue;
    const focused = doc.activeElement === el;
    let caret: [number, number] | undefined;
    try {
      if (focused && "selectionStart" in el && el.selectionStart !== null) {
        caret = [el.selectionStart, el.selectionEnd ?? el.selectionStart];
      }
    } catch {
      // a type without a selection (number, email)
    }
    inputs.entries.delete(el);
    carried.push({ entry, from: el, identity: identityOf(el), value: controlValue(el), focused, caret });
  }
  return carried;
}

/**
 * Puts each carried entry on the one control under `root` with its identity: the typed value is
 * written back, focus and caret restored, and `moved` is told (its sends follow the control).
 * Returns the entries that found no unique control (their typed values are gone).
 */
export function landCarried(
  inputs: InputTable,
  root: Element,
  carried: readonly Carried[],
  moved: (from: Control, to: Control) => void,
): Carried[] {
  const lost: Carried[] = [];
  if (carried.length === 0) return lost;
  // A node the reconcile gave another identity still shows what was typed into it: it shows what
  // the render says instead (its typed value lands on its own control below).
  for (const held of carried) if (held.from.isConnected) showRendered(held.from);
  const byIdentity = new Map<string, Control[]>();
  for (const el of Array.from(root.querySelectorAll("input, textarea, select"))) {
    if (!isControl(el)) continue;
    const identity = identityOf(el);
    byIdentity.set(identity, [...(byIdentity.get(identity) ?? []), el]);
  }
  for (const held of carried) {
    const found = byIdentity.get(held.identity);
    const to = found?.length === 1 ? found[0]! : undefined;
    if (to === undefined || inputs.entries.has(to)) {
      if (held.entry.timer !== undefined) clearTimeout(held.entry.timer);
      lost.push(held);
      continue;
    }
    held.entry.el = to;
    inputs.entries.set(to, held.entry);
    if (isToggle(to)) (to as HTMLInputElement).checked = held.value !== "";
    else if (to.tagName === "SELECT") to.value = held.value;
    else writeValue(to as HTMLInputElement | HTMLTextAreaElement, held.value);
    // The reconcile, and showRendered, may have written the render's value on this very node, which
    // moves its caret (a shorter value clamps it): the caret goes back where the user had it, even
    // when focus never left (G1, docs/protocol.md#client-rules).
    if (held.focused) {
      if (to.ownerDocument.activeElement !== to) to.focus();
      if (held.caret !== undefined) {
        try {
          (to as HTMLInputElement).setSelectionRange(held.caret[0], held.caret[1]);
        } catch {
          // a type without a selection
        }
      }
    }
    if (to !== held.from) moved(held.from, to);
  }
  return lost;
}
