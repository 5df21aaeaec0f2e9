/**
 * Writing a patch's attributes under the authority rule (docs/protocol.md#client-rules, rules 1
 * and 5).
 *
 * The keys the rule governs are a control's live state: `value` on a text-like input, `checked` on
 * a checkbox or radio, `selected` on an option (its entry is the enclosing select), and the text of
 * a textarea (which the renderer writes as its content, not as an attribute). For each such key,
 * with the control's entry E:
 *
 *   1. E dirty: the key is dropped: the live property is not touched. A text control's `value`
 *      attribute still follows the render (the browser's dirty value flag keeps a typed-in control's
 *      property apart from it), so a later reconcile compares against what the server last
 *      rendered; `checked` and `selected` are dropped outright (on a radio or option the user did
 *      not pick, the attribute alone would move the selection).
 *   2. the value equals E.liveValue: an echo, dropped the same way.
 *   3. the frame is older than E's acknowledgement point (E.ackFrame): the whole patch is stale.
 *   4. otherwise the attribute and the property are written, and E.liveValue follows.
 *
 * A control without an entry (never touched) is written directly. Removing value, checked,
 * selected or disabled resets the property too (rule 5).
 */
import { CHECKED_ON, REMOVED } from "../src/protocol/mod.ts";
import { type Control, isToggle, tagOf, writeValue } from "./dom.ts";
import { type InputEntry, type InputTable, showsServerValue } from "./inputs.ts";

type Verdict = "write" | "attr-only" | "stale";

/** The control whose live state attribute `name` of `el` carries, or undefined. */
function governed(el: Element, name: string): Control | undefined {
  const tag = tagOf(el);
  if (tag === "input") return (isToggle(el) ? name === "checked" : name === "value") ? (el as HTMLInputElement) : undefined;
  if (tag === "option" && name === "selected") return (el.closest("select") as HTMLSelectElement | null) ?? undefined;
  return undefined;
}

/** Whether writing `value` for attribute `name` of `el` would show what E already shows. */
function isEcho(entry: InputEntry, { el, name, value }: AttrWrite): boolean {
  if (name === "selected") return (value !== REMOVED) === ((el as HTMLOptionElement).value === entry.liveValue);
  if (name === "checked") return (value === REMOVED ? "" : CHECKED_ON) === entry.liveValue;
  return value === entry.liveValue;
}

/** One attribute a patch or a reconcile would write: `value` "" removes it. */
type AttrWrite = { readonly el: Element; readonly name: string; readonly value: string };

function verdict(inputs: InputTable, control: Control, write: AttrWrite, frameSeq: number): Verdict {
  // A radio group is one choice: the user's pick of one radio is protected on all of them.
  if (inputs.radioGroupDirty(control)) return "attr-only"; // case 1
  const entry = inputs.of(control);
  if (entry === undefined) return "write";
  if (inputs.dirty(entry)) return "attr-only"; // case 1
  if (isEcho(entry, write)) return "attr-only"; // case 2
  if (frameSeq < entry.ackFrame) return "stale"; // case 3
  return "write"; // case 4
}

/**
 * Checks a patch's attrs before any of its operations run: true when rule 1 case 3 drops the whole
 * patch.
 */
export function isStale(inputs: InputTable, el: Element, attrs: Readonly<Record<string, string>>, frameSeq: number): boolean {
  for (const name of Object.keys(attrs)) {
    const control = governed(el, name);
    if (control !== undefined && verdict(inputs, control, { el, name, value: attrs[name] as string }, frameSeq) === "stale") return true;
  }
  return false;
}

/** Applies attrs to `el` ("" removes), governed keys under the authority rule. */
export function applyAttrs(inputs: InputTable, el: Element, attrs: Readonly<Record<string, string>>, frameSeq: number): void {
  for (const name of Object.keys(attrs)) {
    const value = attrs[name] as string;
    const control = governed(el, name);
    const write = control === undefined || verdict(inputs, control, { el, name, value }, frameSeq) === "write";
    // A dropped checked or selected leaves even the attribute: on a radio or option the user did
    // not pick, the attribute alone would move the selection.
    if (!write && name !== "value") continue;
    if (value === REMOVED) el.removeAttribute(name);
    else el.setAttribute(name, value);
    if (write) writeProperty(el, name, value);
    if (write && control !== undefined) {
      const entry = inputs.of(control);
      if (entry !== undefined) showsServerValue(entry);
    }
  }
}

/** Types whose `.value` is the attribute itself (no separate live value to reset). */
const DEFAULT_MODE = /^(checkbox|radio|hidden|submit|reset|button|image)$/;

/** The property behind an attribute written by a patch (rule 5): live state, not just markup. */
function writeProperty(el: Element, name: string, value: string): void {
  const tag = tagOf(el);
  const on = value !== REMOVED;
  if (name === "value" && tag === "input" && !DEFAULT_MODE.test((el as HTMLInputElement).type)) {
    writeValue(el as HTMLInputElement, on ? value : "");
  } else if (name === "checked" && tag === "input") (el as HTMLInputElement).checked = on;
  else if (name === "selected" && tag === "option") (el as HTMLOptionElement).selected = on;
  else if (name === "disabled" && !on && "disabled" in el) (el as HTMLInputElement).disabled = false;
}

/**
 * A textarea's new rendered text (a `text` or `html` patch, or a reconcile): its default value
 * follows the render; its live value under the authority rule. Returns false when stale.
 */
export function applyTextareaText(inputs: InputTable, el: HTMLTextAreaElement, text: string, frameSeq: number): boolean {
  const v = verdict(inputs, el, { el, name: "value", value: text }, frameSeq);
  if (v === "stale") return false;
  const live = el.value;
  el.defaultValue = text;
  if (v === "write") {
    writeValue(el, text);
    const entry = inputs.of(el);
    if (entry !== undefined) showsServerValue(entry);
  } else if (el.value !== live) writeValue(el, live);
  return true;
}
