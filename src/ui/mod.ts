/**
 * svc-live/ui: the view tree. `Ui.h(tag, attrs, ...children)`, `Ui.keyed(key, node)` (the spec's
 * Std.Ui.Keyed), `Ui.raw(html)` (the only unescaped markup), `Ui.text(s)`, `Ui.each(items, key,
 * row)` (a keyed list whose unchanged items are not built or compared again; `<Each>` in JSX),
 * `Ui.lazy(fn, ...args)` (a part built again only when its arguments change), and `Ui.html\`…\``
 * (views as HTML templates, whose static parts are built once).
 */
import { each } from "./each.ts";
import { lazy } from "./lazy.ts";
import { h, keyed, raw, text } from "./node.ts";
import { html } from "./template.ts";

export { h, keyed, raw, text, TEXT_ONLY_TAGS, VOID_TAGS } from "./node.ts";
export { lazy } from "./lazy.ts";
export { Each, each, type EachProps, type ItemKey } from "./each.ts";
export { html } from "./template.ts";
export type { Child, Handlers, Message, MessageRecord, UiElement, UiNode, UiRaw, UiText } from "./node.ts";
export type { Attrs, AttrValue, HandlerProps, KeyHandler } from "./attrs.ts";
export type { Animation, CssProps, PseudoProp, StyleProps } from "./styles.ts";

/** The view builders: `Ui.h`, `Ui.keyed`, `Ui.html`, `Ui.raw`, `Ui.text`, `Ui.each`, `Ui.lazy`. */
export const Ui = { h, html, keyed, raw, text, each, lazy } as const;
