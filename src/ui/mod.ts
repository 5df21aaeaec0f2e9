/**
 * svc-live/ui: the view tree. `Ui.h(tag, attrs, ...children)`, `Ui.keyed(key, node)` (the spec's
 * Std.Ui.Keyed), `Ui.raw(html)` (the only unescaped markup), `Ui.text(s)`, `Ui.each(items, key,
 * row)` (a keyed list whose unchanged items are not built or compared again; `<Each>` in JSX),
 * `Ui.lazy(fn, ...args)` (a part built again only when its arguments change), and `Ui.html\`…\``
 * (views as HTML templates, whose static parts are built once).
 */
import * as eachParts from "./each.ts";
import * as lazyParts from "./lazy.ts";
import * as nodes from "./node.ts";
import * as templates from "./template.ts";
import * as typedUi from "./typed.ts";

export { h, keyed, raw, text, TEXT_ONLY_TAGS, VOID_TAGS } from "./node.ts";
export { lazy } from "./lazy.ts";
export { Each, each, type EachProps, type ItemKey } from "./each.ts";
export { html } from "./template.ts";
export { type HandlerArgs, typed, type TypedUi } from "./typed.ts";
export type { Child, Handlers, Message, MessageRecord, UiElement, UiNode, UiRaw, UiText } from "./node.ts";
export type { Attrs, AttrValue, HandlerProps, KeyHandler } from "./attrs.ts";
export type { Animation, CssProps, PseudoProp, StyleProps } from "./styles.ts";
export type {
  CheckedMessage,
  ClickMessage,
  ControlValue,
  FormFields,
  HandlerForm,
  HtmlHole,
  HtmlList,
  HtmlStyle,
  IsUntyped,
  KeyMessage,
  MessageMap,
  MessageMark,
  MessageName,
  MessageNames,
  SubmitMessage,
  UntypedMessages,
  UpdateCall,
  ValueMessage,
} from "./messages.ts";
export type { UiElementFields } from "./types.ts";

/** The view builders: `Ui.h`, `Ui.keyed`, `Ui.html`, `Ui.raw`, `Ui.text`, `Ui.each`, `Ui.lazy`, and `Ui.typed<Messages>()`, the same builders checked against an app's messages. */
// deno-lint-ignore no-namespace -- a namespace of aliases: the API reference shows each member's own signature and docs
export namespace Ui {
  export import h = nodes.h;
  export import html = templates.html;
  export import keyed = nodes.keyed;
  export import raw = nodes.raw;
  export import text = nodes.text;
  export import each = eachParts.each;
  export import lazy = lazyParts.lazy;
  export import typed = typedUi.typed;
}
