/**
 * Attribute normalisation for `Ui.h`: handler props, style props and plain attributes become the
 * element's final, rendered attribute strings.
 *
 * Why the empty string never survives: a patch's `attrs` uses "" to mean "remove the attribute"
 * (live-input-authority.md §Patch), so a rendered `x=""` could not be patched into existence. The
 * tree therefore treats "", false, null and undefined alike as "absent", and a boolean `true`
 * renders as the attribute's own name (`checked="checked"`), which the HTML parser reads as true.
 */
import type { JsonValue } from "../json.ts";
import {
  EVENT_KINDS, HID_ATTR, ID_ATTR, KEY_FILTER_ATTR, messageAttr, ON_ATTR, type EventKind,
} from "../live/protocol.ts";
import type { Handlers, Message, MessageRecord, PassTemplate } from "./node.ts";
import { declarations, passTemplates, STYLE_PROP_NAMES, type CssProps, type StyleProps } from "./styles.ts";

/** A keydown handler with a key filter: `{ key: "Enter", msg: "Send" }`. */
export type KeyHandler = Message | { readonly key: string; readonly msg: Message };

export type HandlerProps = {
  readonly onClick?: Message;
  readonly onInput?: Message;
  readonly onChange?: Message;
  readonly onSubmit?: Message;
  readonly onKeydown?: KeyHandler;
};

export type AttrValue = string | number | boolean | null | undefined;

/** What `Ui.h` accepts as its second argument. */
export type Attrs = HandlerProps &
  StyleProps & {
    readonly [name: string]:
      | AttrValue
      | KeyHandler
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
/** Attributes only the renderer writes. */
const RESERVED: ReadonlySet<string> = new Set([ID_ATTR, HID_ATTR, ON_ATTR, KEY_FILTER_ATTR, ...EVENT_KINDS.map(messageAttr)]);
const ATTR_NAME = /^[a-z_:][a-z0-9_:.-]*$/;

export type NormalAttrs = {
  attrs: Record<string, string>;
  handlers: Handlers | undefined;
  passes: readonly PassTemplate[] | undefined;
  /** The `value` of a textarea or select, which is not an attribute of theirs (see node.ts). */
  textValue: string | undefined;
};

export function normalizeAttrs(tag: string, input: Attrs): NormalAttrs {
  const attrs: Record<string, string> = {};
  let handlers: Partial<Record<EventKind, MessageRecord>> | undefined;
  let styleProps: Record<string, unknown> | undefined;
  let textValue: string | undefined;
  for (const prop of Object.keys(input)) {
    const value = input[prop];
    const kind = HANDLER_PROPS[prop];
    if (kind !== undefined) {
      if (value === undefined || value === null || value === false) continue;
      (handlers ??= {})[kind] = messageRecord(prop, value);
      continue;
    }
    if (STYLE_PROP_NAMES.has(prop)) {
      if (value !== undefined && value !== null) (styleProps ??= {})[prop] = value;
      continue;
    }
    const name = prop.toLowerCase();
    if (!ATTR_NAME.test(name)) throw new TypeError(`Ui.h: bad attribute name ${JSON.stringify(prop)}`);
    if (RESERVED.has(name)) throw new TypeError(`Ui.h: ${name} is written by the renderer`);
    // Inline script handlers would bypass the protocol; handlers name messages instead.
    if (name.startsWith("on")) throw new TypeError(`Ui.h: use a message handler (onClick: "Msg"), not ${prop}`);
    const text = attrString(name, value);
    if ((tag === "textarea" || tag === "select") && name === "value") {
      textValue = text ?? "";
      continue;
    }
    if (text !== undefined) attrs[name] = text;
  }
  if (styleProps?.["style"] !== undefined) {
    const style = styleProps["style"];
    const css = typeof style === "string" ? style : declarations(style as CssProps);
    if (css !== "") attrs["style"] = css;
  }
  if (handlers !== undefined) {
    const kinds = EVENT_KINDS.filter((k) => handlers?.[k] !== undefined);
    attrs[ON_ATTR] = kinds.join(" ");
    for (const kind of kinds) {
      const record = handlers[kind]!;
      attrs[messageAttr(kind)] = record.args.length === 0 ? record.msg : JSON.stringify([record.msg, ...record.args]);
    }
    const filter = handlers.keydown?.key;
    if (filter !== undefined && filter !== "") attrs[KEY_FILTER_ATTR] = filter;
  }
  const passes = styleProps === undefined ? undefined : passTemplates(styleProps as StyleProps);
  return { attrs, handlers, passes, textValue };
}

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
    return { ...messageRecord("onKeydown", msg), key };
  }
  if (typeof value === "string" && value !== "") return { msg: value, args: [] };
  if (Array.isArray(value) && typeof value[0] === "string" && value[0] !== "") {
    return { msg: value[0], args: value.slice(1) as JsonValue[] };
  }
  throw new TypeError(`Ui.h: ${prop} must name a message: "Msg" or ["Msg", ...args]`);
}
