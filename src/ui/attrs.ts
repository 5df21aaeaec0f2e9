/**
 * Attribute normalisation for `Ui.h`: handler props, style props and plain attributes become the
 * element's final, rendered attribute strings.
 *
 * Why the empty string never survives: a patch's `attrs` uses "" to mean "remove the attribute"
 * (docs/protocol.md#attribute-removal), so a rendered `x=""` could not be patched into existence. The
 * tree therefore treats "", false, null and undefined alike as "absent", and a boolean `true`
 * renders as the attribute's own name (`checked="checked"`), which the HTML parser reads as true.
 * One exception: an option's `value=""` is kept, since an option without a value takes its text as
 * its value (`<option value="">choose</option>` is a select's "nothing chosen"); the diff replaces
 * an option whose value becomes or stops being "" rather than patch it (src/live/diff/diff.ts).
 */
import type { JsonValue } from "../json.ts";
import { EVENT_KINDS, type EventKind, HID_ATTR, ID_ATTR, KEY_ATTR, KEY_FILTER_ATTR, messageAttr, ON_ATTR } from "../protocol/mod.ts";
import type { Handlers, Message, MessageRecord, PassTemplate } from "./types.ts";
import type { ClickMessage, KeyMessage, SubmitMessage, UntypedMessages, ValueMessage } from "./messages.ts";
import { HandlerMessage } from "./handler-message.ts";
import { noteHandlerMessage } from "./declared-messages.ts";
import { type CssProps, declarations, passTemplates, STYLE_PROP_NAMES, type StyleProps } from "./styles.ts";

/** A keydown handler with a key filter: `{ key: "Enter", msg: "Send" }`. */
export type KeyHandler = Message | {
  /** The `KeyboardEvent.key` the handler fires for ("Enter", "Escape"). */
  readonly key: string;
  /** The message it dispatches. */
  readonly msg: Message;
};

/**
 * The handler props of an element: each names the message to dispatch. Under a message map `M`
 * (docs/live-apps.md#typed-messages) each must name one of its messages, with arguments of its
 * types; `onInput` and `onChange` name a message whose last argument takes the control's value, and
 * `onSubmit` one whose last argument takes the form's fields.
 */
export type HandlerProps<M = UntypedMessages> = {
  /** A click dispatches this message: `"Inc"`, or `["Remove", id]` with its arguments. */
  readonly onClick?: ClickMessage<M> | null | false;
  /** Each edit of the control dispatches this message, with the control's value as its last argument. */
  readonly onInput?: ValueMessage<M> | null | false;
  /** A committed change (a checkbox ticked, a select chosen, a field left) dispatches this message, with the control's value last. */
  readonly onChange?: ValueMessage<M> | null | false;
  /** A form's submit dispatches this message, with the form's fields last; the page does not navigate. */
  readonly onSubmit?: SubmitMessage<M> | null | false;
  /** A key press dispatches this message; `{ key: "Enter", msg: "Send" }` only for that key. */
  readonly onKeydown?: KeyMessage<M> | null | false;
};

/** An attribute's value: `""`, `false`, `null` and `undefined` leave it out; `true` writes the attribute's own name. */
export type AttrValue = string | number | boolean | null | undefined;

/** What `Ui.h` accepts as its second argument; its handler props follow the message map `M`. */
export type Attrs<M = UntypedMessages> =
  & HandlerProps<M>
  & StyleProps
  & {
    readonly [name: string]:
      | AttrValue
      | KeyHandler
      | KeyMessage<M>
      | CssProps
      | Readonly<Record<string, CssProps>>
      | Readonly<Record<string, string>>
      | StyleProps["animation"];
  };

const HANDLER_PROPS: Readonly<Record<string, EventKind>> = {
  onClick: "click",
  onInput: "input",
  onChange: "change",
  onSubmit: "submit",
  onKeydown: "keydown",
};
/** The event kind a handler prop sets (`onInput`: "input"), or undefined for any other prop. */
export function handlerKind(prop: string): EventKind | undefined {
  return Object.hasOwn(HANDLER_PROPS, prop) ? HANDLER_PROPS[prop] : undefined;
}

/** Attributes only the renderer writes. */
const RESERVED: ReadonlySet<string> = new Set([ID_ATTR, HID_ATTR, ON_ATTR, KEY_FILTER_ATTR, ...EVENT_KINDS.map(messageAttr)]);
const ATTR_NAME = /^[a-z_:][a-z0-9_:.-]*$/;

export type NormalAttrs = {
  readonly attrs: Readonly<Record<string, string>>;
  readonly handlers: Handlers | undefined;
  readonly passes: readonly PassTemplate[] | undefined;
  /** The `value` of a textarea or select, which is not an attribute of theirs (see node.ts). */
  readonly textValue: string | undefined;
  /**
   * The `svc-key` and `name` attributes, noted while the attributes are written: the element's key
   * is worked out from them (node.ts), and reading them back from a bag of varying shape cost more
   * than writing the whole bag (bench/live.bench.ts).
   */
  readonly key: string | undefined;
  readonly name: string | undefined;
};

/**
 * What a prop name is, decided once per distinct name and cached: the handler kind it sets, a style
 * prop, or the attribute it renders as. Only names that passed every check are cached, so the
 * cache never hides an error; it is bounded, and names beyond the bound are checked every time.
 */
type PropInfo = { readonly handler: EventKind | undefined; readonly style: boolean; readonly attr: string };
const PROP_INFO = new Map<string, PropInfo>();
const PROP_INFO_LIMIT = 4096;
for (const prop of Object.keys(HANDLER_PROPS)) PROP_INFO.set(prop, { handler: HANDLER_PROPS[prop], style: false, attr: "" });
for (const prop of STYLE_PROP_NAMES) PROP_INFO.set(prop, { handler: undefined, style: true, attr: "" });
/**
 * `children` is no attribute: the JSX runtime (src/jsx/) hands the compiler's props over as the
 * bag, children included, rather than copy every other prop out of it per element.
 */
export const CHILDREN_PROP = "children";

function propInfo(prop: string): PropInfo {
  const known = PROP_INFO.get(prop);
  if (known !== undefined) return known;
  const kind = handlerKind(prop);
  if (kind !== undefined) return { handler: kind, style: false, attr: "" };
  const name = prop.toLowerCase();
  if (!ATTR_NAME.test(name)) throw new TypeError(`Ui.h: bad attribute name ${JSON.stringify(prop)}`);
  if (RESERVED.has(name)) throw new TypeError(`Ui.h: ${name} is written by the renderer`);
  // Inline script handlers would bypass the protocol; handlers name messages instead.
  if (name.startsWith("on")) throw new TypeError(`Ui.h: use a message handler (onClick: "Msg"), not ${prop}`);
  const info: PropInfo = { handler: undefined, style: false, attr: name };
  if (PROP_INFO.size < PROP_INFO_LIMIT) PROP_INFO.set(prop, info);
  return info;
}

/**
 * The attributes of every element without any: one shared frozen object, so the diff sees two
 * attribute-less elements as equal by identity, and a view allocates nothing for them.
 */
export const NO_ATTRS: Readonly<Record<string, string>> = Object.freeze({});
/** The result for an empty attribute bag, the most common one. */
const NO_NORMAL_ATTRS: NormalAttrs = Object.freeze({
  attrs: NO_ATTRS,
  handlers: undefined,
  passes: undefined,
  textValue: undefined,
  key: undefined,
  name: undefined,
});

function isEmpty(attrs: object): boolean {
  for (const _ in attrs) return false;
  return true;
}

/** Whether a bag has no attribute: none at all, or only a JSX bag's `children`. */
function hasNoAttributes(attrs: object): boolean {
  for (const key in attrs) if (key !== CHILDREN_PROP) return false;
  return true;
}

export function normalizeAttrs(tag: string, input: Attrs): NormalAttrs {
  if (hasNoAttributes(input)) return NO_NORMAL_ATTRS;
  const attrs: Record<string, string> = {};
  // Handlers by their index in EVENT_KINDS, so they are written in that order without looking
  // each kind up by name in an object of varying shape.
  let records: (MessageRecord | undefined)[] | undefined;
  let styleProps: Record<string, unknown> | undefined;
  let textValue: string | undefined, key: string | undefined, name: string | undefined;
  const valueIsText = tag === "textarea" || tag === "select";
  for (const prop of Object.keys(input)) {
    // A JSX bag's children are the element's children, not an attribute (checked before the lookup: every JSX element has them).
    if (prop === CHILDREN_PROP) continue;
    const value = input[prop];
    const info = propInfo(prop);
    if (info.handler !== undefined) {
      if (value === undefined || value === null || value === false) continue;
      (records ??= new Array<MessageRecord | undefined>(EVENT_KINDS.length))[KIND_INDEX[info.handler]] = messageRecord(prop, value);
      continue;
    }
    if (info.style) {
      if (value !== undefined && value !== null) (styleProps ??= {})[prop] = value;
      continue;
    }
    const attr = info.attr;
    const text = value === "" && attr === "value" && tag === "option" ? "" : attrString(attr, value);
    if (valueIsText && attr === "value") {
      textValue = text ?? "";
      continue;
    }
    if (text === undefined) continue;
    attrs[attr] = text;
    if (attr === "name") name = text;
    else if (attr === KEY_ATTR) key = text;
  }
  if (styleProps?.["style"] !== undefined) {
    const style = styleProps["style"];
    const css = typeof style === "string" ? style : declarations(style as CssProps);
    if (css !== "") attrs["style"] = css;
  }
  const handlers = records === undefined ? undefined : writeHandlers(attrs, records);
  const passes = styleProps === undefined ? undefined : passTemplates(styleProps as StyleProps);
  return { attrs: isEmpty(attrs) ? NO_ATTRS : attrs, handlers, passes, textValue, key, name };
}

const KIND_INDEX = Object.fromEntries(EVENT_KINDS.map((kind, i) => [kind, i])) as Readonly<Record<EventKind, number>>;
const MESSAGE_ATTR_LIST = EVENT_KINDS.map(messageAttr);

/**
 * Writes one message attribute per kind, in EVENT_KINDS order, and the key filter; returns the
 * handlers record. The client finds a handler by its message attribute (docs/protocol.md#markup-attributes).
 */
function writeHandlers(attrs: Record<string, string>, records: readonly (MessageRecord | undefined)[]): Handlers {
  let handlers: Partial<Record<EventKind, MessageRecord>> | undefined;
  let only = -1;
  for (let i = 0; i < EVENT_KINDS.length; i++) {
    const record = records[i];
    if (record === undefined) continue;
    if (only === -1) only = i;
    else (handlers ??= ONE_HANDLER[EVENT_KINDS[only]!]!(records[only]!))[EVENT_KINDS[i]!] = record;
    attrs[MESSAGE_ATTR_LIST[i]!] = messageAttrValue(record);
  }
  handlers ??= ONE_HANDLER[EVENT_KINDS[only]!]!(records[only]!);
  const filter = handlers.keydown?.key;
  if (filter !== undefined && filter !== "") attrs[KEY_FILTER_ATTR] = filter;
  return handlers;
}

/**
 * The handlers of an element with one handler, the usual case, as an object literal of that one
 * field: the engine sizes a literal to its fields, where an object grown from `{}` reserves four
 * (24 bytes more per handler of every kept page, docs/deployment.md#memory).
 */
const ONE_HANDLER: Readonly<Record<EventKind, (record: MessageRecord) => Partial<Record<EventKind, MessageRecord>>>> = {
  click: (record) => ({ click: record }),
  input: (record) => ({ input: record }),
  change: (record) => ({ change: record }),
  submit: (record) => ({ submit: record }),
  keydown: (record) => ({ keydown: record }),
};

/**
 * A message attribute: the name alone, or the JSON array `[msg, ...args]`. Handlers with a few plain
 * arguments (`["SetField", "email"]`) are the common case and are rendered on every view, so their
 * JSON is written directly when nothing in them needs escaping; anything else goes to JSON.stringify.
 */
function messageAttrValue(record: MessageRecord): string {
  const args = record.args;
  if (args.length === 0) return record.msg;
  if (!PLAIN_JSON_STRING.test(record.msg) || args.length > 4) return JSON.stringify([record.msg, ...args]);
  let out = `["${record.msg}"`;
  for (const arg of args) {
    if (typeof arg === "string" && PLAIN_JSON_STRING.test(arg)) out += `,"${arg}"`;
    else if (typeof arg === "number" && Number.isFinite(arg) && !Object.is(arg, -0)) out += `,${arg}`;
    else return JSON.stringify([record.msg, ...args]);
  }
  return `${out}]`;
}

/** Printable ASCII without `"` and `\`: such a string is its own JSON string body. */
const PLAIN_JSON_STRING = /^[ !#-[\]-~]*$/;

function attrString(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null || value === false || value === "") return undefined;
  if (value === true) return name;
  if (typeof value === "string") return value.includes("\0") ? value.replaceAll("\0", "\uFFFD") : value;
  if (typeof value === "number") return String(value);
  throw new TypeError(`Ui.h: attribute ${name} must be a string, number or boolean`);
}

function messageRecord(prop: string, value: unknown): MessageRecord {
  if (prop === "onKeydown" && typeof value === "object" && value !== null && !Array.isArray(value)) {
    const { key, msg } = value as { key?: unknown; msg?: unknown };
    if (typeof key !== "string" || key === "") throw new TypeError("Ui.h: onKeydown's key filter must be a non-empty string");
    const record = messageRecord("onKeydown", msg);
    return { msg: record.msg, args: record.args, key };
  }
  if (typeof value === "string" && value !== "") {
    noteHandlerMessage(value);
    return HandlerMessage.of(value, undefined);
  }
  if (Array.isArray(value) && typeof value[0] === "string" && value[0] !== "") {
    noteHandlerMessage(value[0]);
    return HandlerMessage.of(value[0], value as readonly JsonValue[]);
  }
  throw new TypeError(`Ui.h: ${prop} must name a message: "Msg" or ["Msg", ...args]`);
}
