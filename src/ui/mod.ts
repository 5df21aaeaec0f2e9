/**
 * svc-live/ui: the view tree. `Ui.h(tag, attrs, ...children)`, `Ui.keyed(key, node)` (the spec's
 * Std.Ui.Keyed), `Ui.raw(html)` (the only unescaped markup), `Ui.text(s)` and `Ui.lazy(fn, ...args)`
 * (a part built again only when its arguments change), and `Ui.html\`…\`` (views as HTML templates,
 * whose static parts are built once).
 */
import { lazy } from "./lazy.ts";
import { h, keyed, raw, text } from "./node.ts";
import { html } from "./template.ts";

export { h, keyed, raw, text, TEXT_ONLY_TAGS, VOID_TAGS } from "./node.ts";
export { lazy } from "./lazy.ts";
export { html } from "./template.ts";
export type { Child, Handlers, Message, MessageRecord, UiElement, UiNode, UiRaw, UiText } from "./node.ts";
export type { Attrs, AttrValue, HandlerProps, KeyHandler } from "./attrs.ts";
export type { Animation, CssProps, PseudoProp, StyleProps } from "./styles.ts";
export type {
  ClickMessage,
  FormFields,
  HtmlHole,
  HtmlList,
  IsUntyped,
  KeyMessage,
  MessageMap,
  MessageMark,
  SubmitMessage,
  UntypedMessages,
  UpdateCall,
  ValueMessage,
} from "./messages.ts";
export type { UiElementFields } from "./types.ts";

/** The view builders: `Ui.h`, `Ui.keyed`, `Ui.html`, `Ui.raw`, `Ui.text`, `Ui.lazy`. */
export const Ui = { h, html, keyed, raw, text, lazy } as const;
