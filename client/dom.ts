/**
 * DOM helpers of the browser client: finding nodes by id, parsing patch markup, reading a control's
 * value and a handler's message. Web APIs only (CONTRIBUTING.md#conventions).
 */
import { CHECKED_ON, childId, ChildSegs, ID_ATTR, KEY_ATTR, keyFromAttrs, MSG_ATTR_PREFIX, ROOT_ID } from "../src/protocol/mod.ts";

/** A JSON value, as the event body carries it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The message of a handler kind: `data-svc-<kind>` (MSG_ATTR_PREFIX in src/protocol/markup.ts). */
export { MSG_ATTR_PREFIX };
/** Per-element debounce override in milliseconds (the spec leaves the interval open). */
export const DEBOUNCE_ATTR = "data-svc-debounce";
/** Set on <html> while an event request is in flight: the loader a page may style. */
export const BUSY_ATTR = "data-svc-busy";

export const tagOf = (el: Element): string => el.tagName.toLowerCase();

export function isControl(node: unknown): node is Control {
  if (node === null || typeof node !== "object" || (node as Node).nodeType !== 1) return false;
  const tag = tagOf(node as Element);
  return tag === "input" || tag === "textarea" || tag === "select";
}

/** A checkbox or radio: its state is `.checked`, reported as CHECKED_ON or "". */
export function isToggle(el: Element): boolean {
  if (tagOf(el) !== "input") return false;
  const type = (el as HTMLInputElement).type;
  return type === "checkbox" || type === "radio";
}

/** What an input or change message appends to its args: the checked state or the value. */
export function eventValue(el: Control): Json {
  return isToggle(el) ? (el as HTMLInputElement).checked : el.value;
}

/** An appended value (`eventValue`) as inputState reports it: a checked state as CHECKED_ON or "" (protocol.ts). */
export function reportedForm(value: Json): string {
  return typeof value === "boolean" ? (value ? CHECKED_ON : "") : String(value);
}

/** What inputState reports for a control now. */
export function controlValue(el: Control): string {
  return reportedForm(eventValue(el));
}

export function idOf(el: Element): string | null {
  return el.getAttribute(ID_ATTR);
}

/** The element with this id, or null. Ids never hold quotes or backslashes (docs/protocol.md#node-ids grammar). */
export function byId(doc: Document, id: string): Element | null {
  return doc.querySelector(`[${ID_ATTR}="${id}"]`);
}

/**
 * Parses markup as the children of a `contextTag` element, in the page's document, and fills in
 * the ids it leaves out (`fillIds`). `parentId`: the id of the element whose children the nodes
 * become, all of them; undefined when they are one child (a `replace` or an `{html}` kid entry),
 * whose markup writes its id.
 */
export function parseMarkup(doc: Document, contextTag: string, html: string, parentId?: string): Node[] {
  const context = doc.createElement(contextTag === "html" ? "body" : contextTag);
  context.innerHTML = html;
  const nodes = Array.from(context.childNodes);
  fillIds(nodes, parentId);
  return nodes;
}

/** Fills in the ids of the page's root and everything in it, as the page's markup left them out. */
export function fillPage(doc: Document): void {
  const root = byId(doc, ROOT_ID);
  if (root !== null) fillIds(root.childNodes, ROOT_ID);
}

/**
 * Writes `svc-id` on every element among `nodes` and below that the markup left without one
 * (docs/protocol.md#derived-ids), with the derivation the server ran when it left them out
 * (`ChildSegs`, src/protocol/derive.ts); everything else in the client reads ids from the
 * attribute. `parentId`: the id of the parent whose children `nodes` are, all of them; without
 * it, only elements that carry an id, and what is below them, get ids.
 */
export function fillIds(nodes: ArrayLike<Node>, parentId: string | undefined): void {
  const segs = parentId === undefined ? undefined : new ChildSegs();
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as Node;
    if (node.nodeType === 3) {
      segs?.text();
      continue;
    }
    if (node.nodeType !== 1) {
      if (node.nodeType === 8) segs?.comment();
      continue;
    }
    const el = node as Element;
    let id = el.getAttribute(ID_ATTR);
    const written = id !== null;
    if (id === null && segs !== undefined) {
      const tag = tagOf(el);
      const seg = segs.derive(tag, keyFromAttrs(tag, el.getAttribute(KEY_ATTR), el.getAttribute("name")));
      if (seg !== undefined) el.setAttribute(ID_ATTR, id = childId(parentId as string, seg));
    }
    if (id !== null) segs?.element(id, written);
    fillIds(el.childNodes, id ?? undefined);
  }
}

/** The message a handler element sends for `kind`, or undefined when it names none. */
export function messageOf(el: Element, kind: string): { msg: string; args: Json[] } | undefined {
  const raw = el.getAttribute(MSG_ATTR_PREFIX + kind);
  if (raw === null || raw === "") return undefined;
  if (raw.charCodeAt(0) !== 91 /* [ */) return { msg: raw, args: [] };
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (Array.isArray(parsed) && typeof parsed[0] === "string") return { msg: parsed[0], args: parsed.slice(1) as Json[] };
  } catch {
    // a name that happens to start with "[" is sent as it is
  }
  return { msg: raw, args: [] };
}

/**
 * Writes a text control's value, keeping the caret where it was when the control has focus
 * (G1: "the caret does not jump"). No write when the value is already there.
 */
export function writeValue(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  if (el.value === value) return;
  const focused = el.ownerDocument.activeElement === el;
  let start: number | null = null;
  let end: number | null = null;
  if (focused) {
    try {
      start = el.selectionStart;
      end = el.selectionEnd;
    } catch {
      // types without selection (number, email) keep the browser's behaviour
    }
  }
  el.value = value;
  if (start !== null) {
    try {
      el.setSelectionRange(Math.min(start, value.length), Math.min(end ?? start, value.length));
    } catch {
      // as above
    }
  }
}

/** The fields of a form as strings (FormData entries), for a submit message's last argument. */
export function formFields(form: HTMLFormElement, FormDataCtor: typeof FormData): Record<string, Json> {
  const fields: Record<string, Json> = {};
  const data = new FormDataCtor(form);
  data.forEach((value, name) => {
    fields[name] = typeof value === "string" ? value : (value as File).name;
  });
  return fields;
}
