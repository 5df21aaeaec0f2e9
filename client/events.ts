/**
 * DOM events: delegation from the document to the handler elements of the root (those with a
 * `data-svc-<kind>` message attribute, docs/protocol.md#markup-attributes), debounce, IME composition, focus, anchors and unload (docs/protocol.md
 * docs/protocol.md#client-rules 6-9; docs/protocol.md#input-state).
 *
 * Listeners sit on the document, so they survive a replaced root; an event counts only when its
 * target is inside the element with svc-id "r". A handler is the nearest element, from the target
 * up to the root, with a message attribute for the event kind.
 */
import { ID_ATTR, KEY_FILTER_ATTR, MSG_ATTR_PREFIX, ROOT_ID } from "../src/protocol/mod.ts";
import type { LiveClient } from "./client.ts";
import { type Control, controlValue, DEBOUNCE_ATTR, eventValue, formFields, idOf, isControl, isToggle, messageOf, tagOf } from "./dom.ts";
import type { InputEntry, Send } from "./inputs.ts";

type Found = { inRoot: boolean; handler: Element | undefined; anchor: Element | undefined };

/** Walks from the target to the root: the handler for `kind` and, for clicks, the anchor. */
function lookup(target: EventTarget | null, kind: string): Found {
  const found: Found = { inRoot: false, handler: undefined, anchor: undefined };
  const attr = kind === "" ? undefined : MSG_ATTR_PREFIX + kind;
  const node = target as Node | null;
  for (
    let el = node && node.nodeType !== undefined ? (node.nodeType === 1 ? (node as Element) : node.parentElement) : null;
    el;
    el = el.parentElement
  ) {
    if (found.handler === undefined && attr !== undefined && el.hasAttribute(attr)) found.handler = el;
    if (found.anchor === undefined && tagOf(el) === "a" && el.hasAttribute("href")) found.anchor = el;
    if (idOf(el) === ROOT_ID) {
      found.inRoot = true;
      return found;
    }
  }
  return found;
}

/** The send for a handler element's message of `kind`, or undefined when it names none. */
function sendOf(handler: Element | undefined, kind: string): Send | undefined {
  if (handler === undefined) return undefined;
  const message = messageOf(handler, kind);
  if (message === undefined || !handler.hasAttribute(ID_ATTR)) return undefined;
  return { msg: message.msg, args: message.args, handler, kind };
}

function debounceOf(control: Element, handler: Element, fallback: number): number {
  if (isToggle(control) || tagOf(control) === "select") return 0;
  const raw = control.getAttribute(DEBOUNCE_ATTR) ?? handler.getAttribute(DEBOUNCE_ATTR);
  const ms = raw === null ? NaN : Number(raw);
  return Number.isFinite(ms) && ms >= 0 ? ms : fallback;
}

/** A listener of the document: the client, the event, and the window the client listens in. */
type Listener = (client: LiveClient, event: Event, win: Window & typeof globalThis) => void;

/** The control an event targets, when it is inside the root. */
function controlIn(event: Event): Control | undefined {
  const target = event.target;
  return isControl(target) && lookup(target, "").inRoot ? target : undefined;
}

/** Schedules the input handler's send for a control's current value, debounced. */
function scheduleInput(client: LiveClient, control: Control, entry: InputEntry): void {
  const found = lookup(control, "input");
  const send = sendOf(found.handler, "input");
  if (send === undefined || found.handler === undefined) return;
  client.schedule(entry, { ...send, control, entry }, debounceOf(control, found.handler, client.options.debounceMs));
}

function onInput(client: LiveClient, event: Event): void {
  const control = controlIn(event);
  const entry = control && client.inputs.ensure(control);
  if (control === undefined || entry === undefined) return;
  // docs/protocol.md#client-rules 7: nothing is dispatched, nor liveValue moved, while a composition is open.
  if ((event as InputEvent).isComposing || entry.composing) return;
  entry.liveValue = controlValue(control);
  entry.typed = true;
  if (entry.imeValue !== undefined) {
    const repeat = entry.imeValue === entry.liveValue;
    entry.imeValue = undefined;
    if (repeat) return; // the input event that follows compositionend with the committed text
  }
  scheduleInput(client, control, entry);
}

function onChange(client: LiveClient, event: Event): void {
  const control = controlIn(event);
  if (control === undefined) return;
  const found = lookup(control, "change");
  const send = sendOf(found.handler, "change");
  if (send === undefined) return;
  const entry = client.inputs.ensure(control);
  // The value as the user chose it (see Send.value).
  const value = eventValue(control);
  if (entry === undefined) return client.dispatch({ ...send, control, value });
  client.flushEntry(entry); // its typed value goes before the change
  entry.liveValue = controlValue(control);
  // A change is the user's new act: its send takes a seq of its own when it is posted, even for a
  // value this control carried before (InputTable.snapshot).
  const full: Send = { ...send, control, entry, value };
  entry.pending = full;
  client.dispatch(full);
}

function onCompositionStart(client: LiveClient, event: Event): void {
  const control = controlIn(event);
  const entry = control && client.inputs.ensure(control);
  if (entry === undefined) return;
  client.flushEntry(entry); // what was typed before the composition goes as it is
  entry.composing = true;
}

function onCompositionEnd(client: LiveClient, event: Event): void {
  const control = controlIn(event);
  const entry = control && client.inputs.ensure(control);
  if (control === undefined || entry === undefined) return;
  entry.composing = false;
  entry.liveValue = controlValue(control);
  entry.imeValue = entry.liveValue;
  entry.typed = true;
  // One dispatch of the committed text (docs/protocol.md#client-rules 7).
  scheduleInput(client, control, entry);
}

function onKeydown(client: LiveClient, event: Event): void {
  const key = event as KeyboardEvent;
  // An Enter that confirms a composition is not the user's Enter (docs/protocol.md#client-rules 7).
  if (key.isComposing || key.keyCode === 229) return;
  const target = key.target;
  if (isControl(target) && client.inputs.of(target)?.composing) return;
  const found = lookup(target, "keydown");
  if (!found.inRoot || found.handler === undefined) return;
  const filter = found.handler.getAttribute(KEY_FILTER_ATTR);
  if (filter !== null && filter !== "" && key.key !== filter) return;
  const send = sendOf(found.handler, "keydown");
  if (send !== undefined) client.dispatch(send);
}

function onClick(client: LiveClient, event: Event): void {
  const found = lookup(event.target, "click");
  if (!found.inRoot) return;
  const send = sendOf(found.handler, "click");
  // docs/protocol.md#client-rules 8: an anchor flushes everything pending first and keeps its default action.
  if (found.anchor !== undefined) client.navigate(send);
  else if (send !== undefined) client.dispatch(send);
}

function onSubmit(client: LiveClient, event: Event, win: Window & typeof globalThis): void {
  const form = event.target as Element | null;
  if (form === null || tagOf(form) !== "form") return;
  const found = lookup(form, "submit");
  const send = sendOf(found.handler, "submit");
  if (!found.inRoot || send === undefined) return;
  event.preventDefault();
  send.args = [...send.args, formFields(form as HTMLFormElement, client.host.FormData ?? win.FormData)];
  // Submitting ends the protection of the form's untracked fields (G1: "until ... submits").
  for (const entry of client.inputs.entries.values()) if (form.contains(entry.el)) entry.typed = false;
  client.dispatch(send);
}

function onFocusIn(client: LiveClient, event: Event): void {
  const entry = isControl(event.target) ? client.inputs.of(event.target) : undefined;
  if (entry !== undefined) entry.typed = false;
}

function onFocusOut(client: LiveClient, event: Event): void {
  const entry = isControl(event.target) ? client.inputs.of(event.target) : undefined;
  if (entry !== undefined) client.flushEntry(entry);
}

/** The document's listeners, by event type, in the order they are attached. */
const ON_DOCUMENT: Readonly<Record<string, Listener>> = {
  input: onInput,
  change: onChange,
  compositionstart: onCompositionStart,
  compositionend: onCompositionEnd,
  keydown: onKeydown,
  click: onClick,
  submit: onSubmit,
  focusin: onFocusIn,
  focusout: onFocusOut,
};

/** Attaches the listeners; returns the function that detaches them. */
export function listen(client: LiveClient, win: Window & typeof globalThis): () => void {
  const listeners: [EventTarget, string, (event: Event) => void][] = Object.entries(ON_DOCUMENT).map((
    [type, on],
  ) => [client.host.doc, type, (event: Event) => on(client, event, win)]);
  listeners.push([win, "pagehide", () => client.unload()]);
  for (const [target, type, fn] of listeners) target.addEventListener(type, fn);
  return () => {
    for (const [target, type, fn] of listeners) target.removeEventListener(type, fn);
  };
}
