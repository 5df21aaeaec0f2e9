/**
 * svc/ui: the view tree. `Ui.h(tag, attrs, ...children)`, `Ui.keyed(key, node)` (the spec's
 * Std.Ui.Keyed), `Ui.raw(html)` (the only unescaped markup) and `Ui.text(s)`.
 */
import { h, keyed, raw, text } from "./node.ts";

export { h, keyed, raw, text, TEXT_ONLY_TAGS, VOID_TAGS } from "./node.ts";
export type { Child, Handlers, Message, MessageRecord, UiElement, UiNode, UiRaw, UiText } from "./node.ts";
export type { Attrs, AttrValue, HandlerProps, KeyHandler } from "./attrs.ts";
export type { Animation, CssProps, PseudoProp, StyleProps } from "./styles.ts";

export const Ui = { h, keyed, raw, text } as const;
