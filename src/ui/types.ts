/**
 * The view tree's types: what `Ui.h` and its siblings build (src/ui/node.ts) and what the attribute,
 * style and memo modules read. Types only, so those modules and the builders do not import each
 * other in a circle.
 */
import type { JsonValue } from "../json.ts";
import type { EventKind, Pass } from "../protocol/mod.ts";
import type { IsUntyped, MessageMark, UntypedMessages } from "./messages.ts";

export type { Message } from "./messages.ts";

/** A normalised message: what the server dispatches when the handler fires. */
export type MessageRecord = {
  /** The message's name. */
  readonly msg: string;
  /** Its arguments, JSON values, in order. */
  readonly args: readonly JsonValue[];
  /** keydown only: the `KeyboardEvent.key` the handler fires for (e.g. "Enter"). */
  readonly key?: string;
};

/** An element's handlers, by event kind. */
export type Handlers = Readonly<Partial<Record<EventKind, MessageRecord>>>;

/** One injected style pass: its CSS with `\0` where the owner's selector goes. */
export type PassTemplate = { readonly pass: Pass; readonly css: string };

/** What the live layer caches on a view element: a live element, known here only by its id segment. */
export interface LiveMark {
  readonly seg: string;
}

/**
 * What few elements carry, in one object beside them rather than in a field each of every element
 * of every kept page (docs/deployment.md#memory): most elements have none, and share `undefined`.
 */
export interface ElementExtras {
  /** A view element's style props, which the id walk injects as style nodes before it (src/live/ids.ts). */
  readonly passes: readonly PassTemplate[] | undefined;
  /** An injected style node's pass. */
  readonly pass: Pass | undefined;
  /**
   * The live element the id walk last built from this view element, when that is another object
   * (the element was placed before under another seg); null when the element is resolved again on
   * every render (its subtree's injected styles name whole ids). Not part of the view's meaning.
   */
  readonly live: LiveMark | null | undefined;
}

/**
 * An element of a view, as `Ui.h` or JSX builds it. `M`, the message map its handlers follow
 * (docs/live-apps.md#typed-messages), exists at the type level only: an element of no declared map
 * is the plain {@link UiElementFields}, which fits any view.
 */
export type UiElement<M = UntypedMessages> = IsUntyped<M> extends true ? UiElementFields : UiElementFields & MessageMark<M>;

/** The fields of every view element, whatever messages its handlers send. */
export interface UiElementFields {
  /** Always "el". */
  readonly kind: "el";
  /** Lowercase tag: a letter, then letters, digits and hyphens (docs/protocol.md#id-grammar). */
  readonly tag: string;
  /** Rendered attributes, final strings; never the empty string (an empty or false attribute is left out). */
  readonly attrs: Readonly<Record<string, string>>;
  /** The element's handlers by event kind, or undefined when it has none. */
  readonly handlers: Handlers | undefined;
  /** The element's children, adjacent texts merged. */
  readonly children: readonly UiNode[];
  /**
   * The key by priority (svc-key, then name on form controls), sanitised (docs/protocol.md#keys):
   * worked out once, when the element is built, so the id walk, which reads every child's key on
   * every render, reads a final field instead of looking through the attribute bag.
   */
  readonly key: string | undefined;
  /**
   * Within a live session's render, what the `Ui.h` or `Ui.keyed` call that built this element is
   * compared with by the next render's calls (docs/live-apps.md#unchanged-parts-are-not-built-again);
   * undefined outside one. Not part of the view's meaning.
   */
  call: readonly unknown[] | undefined;
  /**
   * Written by the id walk the first time it places this element in a live tree: the element then
   * is that tree's node as well (a `LiveElement`), rather than a second object per element beside
   * it. Undefined until then. Not part of the view's meaning.
   */
  seg: string | undefined;
  /** The children as the id walk placed them (style nodes included). Not part of the view's meaning. */
  kids: readonly UiNode[] | undefined;
  /** Style passes, an injected style's pass, the id walk's cache (see ElementExtras); undefined for most elements. */
  extras: ElementExtras | undefined;
}
/** A text node of a view. */
export interface UiText {
  /** Always "text". */
  readonly kind: "text";
  /** The text, unescaped; the renderer escapes it. */
  readonly text: string;
}
/** Raw HTML: the only way to emit unescaped markup. The app vouches for its content. */
export interface UiRaw {
  /** Always "raw". */
  readonly kind: "raw";
  /** The markup, written to the page as it is. */
  readonly html: string;
}
/** A node of a view: an element, a text or raw markup. */
export type UiNode = UiElement | UiText | UiRaw;

/** What `h` accepts as a child: nodes, strings and numbers; null, undefined and booleans vanish. */
export type Child<M = UntypedMessages> = UiElement<M> | UiText | UiRaw | string | number | boolean | null | undefined | readonly Child<M>[];
