/**
 * What the view builders ask of a render under way. A view is a plain function of the model: the
 * builders (`Ui.h`, `Ui.keyed`, `Ui.lazy`, `Ui.each`, `Ui.html`) describe elements and nothing else.
 * A live session's render may answer a builder's call from its previous render instead (its render
 * state, src/live/render-state/): the builders then hand their call to that render, through the
 * one slot below, and build it themselves when no render is under way (a test, a static page).
 *
 * The slot is the only state of the view layer, and it holds nothing between renders: it is set
 * for the length of one session's render (`withViewRender`), which no other render interleaves
 * with, as a view runs to its end synchronously.
 */
import type { Attrs } from "./attrs.ts";
import type { Child, UiElement } from "./types.ts";

/**
 * One memoised call of a render: its arguments as the rule kept them, its element, and the parts a
 * template built it from (src/ui/template.ts), which the next call of the template may reuse where
 * their values did not change.
 */
export type MemoEntry = {
  readonly args: readonly unknown[];
  readonly element: UiElement;
  readonly parts: readonly UiElement[] | undefined;
};

/** What a memoised call builds on a miss: its element, and a template's parts. */
export type Built = { readonly element: UiElement; readonly parts?: readonly UiElement[] };

/**
 * The build of a miss, given the key (a lazy function, a template), the call's arguments and the
 * previous call of the key nearest to it. One function per kind of call, made once: a call that
 * hits allocates nothing.
 */
export type MemoBuild = (key: object, args: readonly unknown[], previous: MemoEntry | undefined) => Built;

/**
 * How a kind of memoised call compares and keeps its arguments: `Ui.lazy` compares them with
 * `Object.is` and keeps them as they are; a template (src/ui/template.ts) compares plain data by
 * value and keeps a copy of it.
 */
export type ArgRule = {
  readonly same: (kept: readonly unknown[], args: readonly unknown[]) => boolean;
  readonly keep: (args: readonly unknown[]) => readonly unknown[];
};

/** A memoised call: its key (a lazy function, a template's strings), its arguments, how it builds and compares. */
export type MemoCall = {
  readonly key: object;
  readonly args: readonly unknown[];
  readonly build: MemoBuild;
  readonly rule: ArgRule;
};

/** A `Ui.each` call: the items, the key of an item, the row of an item. */
export type EachCall = {
  readonly items: readonly unknown[];
  readonly key: (item: unknown) => string | number;
  readonly row: (item: unknown) => UiElement;
};

/** The answers of a render under way to the builders' calls. */
export interface ViewRender {
  /** The element of `Ui.h(tag, attrs, ...children)`. */
  element(tag: string, attrs: Attrs | null | undefined, children: Child[]): UiElement;
  /** The element of `Ui.keyed(key, node)`. */
  keyed(key: string, node: UiElement): UiElement;
  /** The element of a memoised call (`Ui.lazy`, a template with holes). */
  memo(call: MemoCall): UiElement;
  /** The rows of `Ui.each`. */
  each(call: EachCall): UiElement[];
  /** The element of `Ui.lazy(fn, ...args)`. */
  lazy(fn: (...args: readonly unknown[]) => UiElement, args: readonly unknown[]): UiElement;
}

/** An element that makes its own keyed copy: a part of a live render keeps its call, not a copy of its subtree. */
export const KEYED_COPY: unique symbol = Symbol("keyed copy");

/** What an element with its own keyed copy answers: the copy, or undefined to be copied as any element. */
export type KeyedCopy = {
  readonly [KEYED_COPY]: (attrs: Readonly<Record<string, string>>, key: string | undefined) => UiElement | undefined;
};

let underWay: ViewRender | undefined;

/** The render under way, or undefined outside a session's render. */
export function viewRender(): ViewRender | undefined {
  return underWay;
}

/** Runs `fn` with `render` as the render under way (none, for undefined), and puts back the outer one. */
export function withViewRender<T>(render: ViewRender | undefined, fn: () => T): T {
  const outer = underWay;
  underWay = render;
  try {
    return fn();
  } finally {
    underWay = outer;
  }
}
