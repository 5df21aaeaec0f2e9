/**
 * The JSX runtime: `"jsxImportSource": "svc-live"` (with `"jsx": "react-jsx"`) makes TSX build the
 * same view nodes `Ui.h` builds, through the same session log of calls
 * (docs/live-apps.md#unchanged-parts-are-not-built-again), so a TSX view renders and diffs as its
 * `Ui.h` twin does (docs/live-apps.md#jsx).
 *
 *   <li key={item.id} class="row" onClick={ui.msg("Remove", item.id)} hover={{ background: "#eee" }}>…</li>
 *
 * - An intrinsic element is `Ui.h(tag, props, ...children)`; `key` becomes its `svc-key`, the key
 *   `Ui.keyed` sets.
 * - A function component is called with its props; a `key` on it keys the element it returns.
 * - A fragment is its children, spliced into the parent's. A view's root must be an element.
 */
import { type Child, hWithChildren, keyed, type UiElement } from "../ui/node.ts";
import type { IntrinsicElementProps, Key } from "./elements.ts";

export type { ElementProps, GlobalAttributes, IntrinsicElementProps, Key, VoidElementProps } from "./elements.ts";
export type { JsxHandlerProps, Register, TsxMessageHint } from "./register.ts";

/** What a function component is: props in, a node (or text, or a list of them) out. */
export type Component<Props = object> = (props: Props) => Child;

type Props = { readonly children?: Child; readonly [prop: string]: unknown };

/** The JSX types of `jsxImportSource: "svc-live"`: intrinsic elements with typed attributes, handler props and style props. */
export declare namespace JSX {
  /**
   * What a TSX expression is. A fragment is typed as one too, although it is a list of children:
   * TypeScript gives every JSX expression this one type.
   */
  type Element = UiElement;
  /** Components may return anything a child may be. */
  // deno-lint-ignore no-explicit-any -- a component of any props: the compiler checks them
  type ElementType = string | ((props: any) => Child);
  /** The prop that holds an element's children: `children`. */
  interface ElementChildrenAttribute {
    /** The children prop. */
    // deno-lint-ignore ban-types -- TypeScript's convention: the name of this one property is what counts
    children: {};
  }
  /** The props every element and component takes: its `key`. */
  interface IntrinsicAttributes {
    /** Keys the element (its `svc-key`), or the element a component returns. */
    readonly key?: Key | null | undefined;
  }
  /** The HTML and SVG elements, each with its typed attributes, handler props and style props. */
  interface IntrinsicElements extends IntrinsicElementProps {}
}

/**
 * `<>…</>`: its children, spliced into the parent's. The compiler calls it; a component returns a
 * fragment to give several siblings.
 *
 * @example
 * ```ts
 * import { Fragment, jsx, jsxs } from "svc-live/jsx-runtime";
 *
 * // What the compiler makes of <dl><>…</></dl> for a term and its definition:
 * const entry = jsx(Fragment, { children: [jsx("dt", { children: "svc" }), jsx("dd", { children: "server-driven views" })] });
 * const list = jsxs("dl", { children: [entry] });
 * ```
 */
export function Fragment(props: { readonly children?: Child }): Child {
  return props.children;
}

/**
 * The compiler's call for an element with at most one child (`"jsx": "react-jsx"`): an intrinsic
 * element is `Ui.h(tag, props, child)`, a component is called with its props. Apps write TSX;
 * this is what it becomes.
 *
 * @example
 * ```ts
 * import { jsx } from "svc-live/jsx-runtime";
 *
 * // <button class="primary" onClick="Save">Save</button>
 * const save = jsx("button", { class: "primary", onClick: "Save", children: "Save" });
 * ```
 */
// deno-lint-ignore no-explicit-any -- a component of any props: the compiler checked them at the call
export function jsx(type: string | Component<any>, props: Props, key?: Key): Child {
  return typeof type === "string" ? intrinsic(type, props, key, false) : component(type, props, key);
}

/**
 * The compiler's call for an element with several children, in the array it made for this call
 * (which the element takes over).
 *
 * @example
 * ```ts
 * import { jsx, jsxs } from "svc-live/jsx-runtime";
 *
 * // <p>Hello, <strong>{name}</strong></p>
 * const greet = (name: string) => jsxs("p", { children: ["Hello, ", jsx("strong", { children: name })] });
 * ```
 */
// deno-lint-ignore no-explicit-any -- a component of any props: the compiler checked them at the call
export function jsxs(type: string | Component<any>, props: Props, key?: Key): Child {
  return typeof type === "string" ? intrinsic(type, props, key, true) : component(type, props, key);
}

/**
 * `Ui.h` from JSX props. The compiler makes a fresh props object and children array per call, so
 * both are handed over as they are: the props are the attribute bag (`children` in it is not an
 * attribute, src/ui/attrs.ts), the key is added to it as `svc-key`, and the element takes the
 * children array over.
 */
function intrinsic(tag: string, props: Props, key: Key | undefined, manyChildren: boolean): UiElement {
  if (key !== undefined && key !== null) (props as Record<string, unknown>)["svc-key"] = key;
  const children = props.children;
  const kids: Child[] = children === undefined ? [] : manyChildren && Array.isArray(children) ? (children as Child[]) : [children];
  return hWithChildren(tag, props as never, kids);
}

// deno-lint-ignore no-explicit-any -- a component of any props: the compiler checked them at the call
function component(type: Component<any>, props: Props, key: Key | undefined): Child {
  if (typeof type !== "function") throw new TypeError(`JSX: an element type must be a tag name or a function, not ${typeof type}`);
  if (type === Fragment) {
    if (key !== undefined && key !== null) throw new TypeError("JSX: a fragment takes no key; key the element inside it");
    return props.children;
  }
  const out = type(props);
  if (key === undefined || key === null) return out;
  if (typeof out !== "object" || out === null || Array.isArray(out) || (out as { kind?: unknown }).kind !== "el") {
    throw new TypeError("JSX: a keyed component must return an element");
  }
  return keyed(key, out as UiElement);
}

/**
 * The classic factory, which the compiler calls instead of `jsx` for an element whose `key` comes
 * after a spread (`<li {...props} key={id} />`); it imports it from the package's root.
 *
 * @example
 * ```ts
 * import { createElement } from "svc-live";
 *
 * // <li {...props} key={item.id}>{item.text}</li>
 * const row = (item: { id: number; text: string }, props: Record<string, unknown>) =>
 *   createElement("li", { ...props, key: item.id }, item.text);
 * ```
 */
// deno-lint-ignore no-explicit-any -- a component of any props: the compiler checked them at the call
export function createElement(type: string | Component<any>, props: Record<string, unknown> | null, ...children: Child[]): Child {
  const { key, ...rest } = props ?? {};
  if (children.length === 1) rest["children"] = children[0];
  else if (children.length > 1) rest["children"] = children;
  const k = key === undefined || key === null ? undefined : (key as Key);
  return children.length > 1 ? jsxs(type, rest as Props, k) : jsx(type, rest as Props, k);
}
