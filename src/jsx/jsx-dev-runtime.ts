/**
 * The development JSX runtime (`"jsx": "react-jsxdev"`, and Bun's default outside production): the
 * same nodes as src/jsx/jsx-runtime.ts; the source position the compiler adds is not kept.
 */
import { type Component, jsx, jsxs } from "./jsx-runtime.ts";
import type { Key } from "./elements.ts";
import type { Child } from "../ui/node.ts";

export { Fragment, type JSX } from "./jsx-runtime.ts";

/** The development JSX factory (`jsx: "react-jsxdev"`): the same nodes as `jsx`. */
// deno-lint-ignore no-explicit-any -- a component of any props: the compiler checked them at the call
export function jsxDEV(type: string | Component<any>, props: { readonly children?: Child }, key?: Key, isStaticChildren?: boolean): Child {
  return isStaticChildren === true ? jsxs(type, props, key) : jsx(type, props, key);
}

export { jsx, jsxs };
