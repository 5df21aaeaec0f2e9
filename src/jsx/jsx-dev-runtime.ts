/**
 * The development JSX runtime (`"jsx": "react-jsxdev"`, and Bun's default outside production): the
 * same nodes as `svc-live/jsx-runtime`; the source position the compiler adds is not kept.
 */
import { type Component, jsx, jsxs } from "./jsx-runtime.ts";
import type { Key } from "./elements.ts";
import type { Child } from "../ui/node.ts";

export { Fragment, type JSX } from "./jsx-runtime.ts";

/**
 * The development JSX factory (`jsx: "react-jsxdev"`): the same nodes as `jsx` and `jsxs`; the
 * compiler passes whether the children array is its own.
 *
 * @example
 * ```ts
 * import { jsxDEV } from "svc-live/jsx-dev-runtime";
 *
 * // <em>draft</em> under "react-jsxdev"
 * const label = jsxDEV("em", { children: "draft" }, undefined, false);
 * ```
 */
// deno-lint-ignore no-explicit-any -- a component of any props: the compiler checked them at the call
export function jsxDEV(type: string | Component<any>, props: { readonly children?: Child }, key?: Key, isStaticChildren?: boolean): Child {
  return isStaticChildren === true ? jsxs(type, props, key) : jsx(type, props, key);
}

export { jsx, jsxs };
