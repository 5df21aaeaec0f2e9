/**
 * `Ui.html`: views written as HTML templates, whose static parts are known once and never built,
 * walked or compared again (the split LiveView's HEEx and Lit make at compile time).
 *
 *   const field = (name: string, value: string) => Ui.html`
 *     <div class="field">
 *       <label for=${name}>${name}</label>
 *       <input id=${name} name=${name} value=${value} onInput=${["SetField", name]}>
 *     </div>`;
 *
 * A template is parsed once, at its first use (src/ui/template-parse.ts, which gives the language),
 * and compiled into a builder that makes the same elements `Ui.h` would make from the same markup:
 * every element goes through `Ui.h`'s own normalisation, so ids, keys, handlers and styles are
 * exactly `Ui.h`'s. What the compiler adds:
 *
 * - an element with no hole anywhere inside it is built once per template and the same object is
 *   handed back by every call, in every session; the id walk and the diff skip an element they
 *   have seen as one object (src/live/ids.ts, src/live/diff/diff.ts), so a page's static markup costs
 *   nothing per render;
 * - within a live session's render, a template call whose values are the same as those of a call
 *   of the same template in the previous render gets that render's element back without building
 *   anything (the memo `Ui.lazy` uses, src/ui/lazy.ts). Values are compared as data: strings and
 *   numbers by value, arrays and plain objects (handler messages, style objects) entry by entry,
 *   elements by identity; the memo keeps a copy of the plain data it compared, so a model mutated
 *   in place is still seen as changed;
 * - a call whose values did change starts from the same template's previous call (the nearest in
 *   call order, as the memo finds it): an element none of whose holes changed is taken from it, so
 *   only the elements on the path to a changed value are built again, as LiveView's change
 *   tracking re-renders only the expressions whose assigns changed. An event that changes one
 *   field of a form builds that field's input and the elements above it, and nothing else.
 *
 * Outside a session's render (a test, a static page), `html` simply builds.
 */
import { type Child, elementOf, text, type UiElement, type UiNode, type UiRaw, type UiText } from "./node.ts";
import type { HtmlHole, UntypedMessages } from "./messages.ts";
import { keptCopy, sameValue } from "./same-value.ts";
import { parseTemplate, type TemplateAttr, type TemplateElement } from "./template-parse.ts";
import { type ArgRule, type MemoBuild, viewRender } from "./view-render.ts";

/**
 * A compiled element with holes. It builds its element from the values; with `reuse` (the same
 * template's previous call in this session, and which of its values changed), an element none of
 * whose holes changed is that call's element again, so a changed count rebuilds the elements on
 * its path and nothing beside them. Every element it ends up with is noted in `parts`, by its
 * number in the template, for the next call.
 */
type Build = (values: readonly unknown[], reuse: Reuse | undefined, parts: UiElement[]) => UiElement;
type Reuse = { readonly parts: readonly UiElement[]; readonly changed: readonly boolean[] };

type Dynamic = {
  readonly constant?: undefined;
  readonly build: Build;
  /** How many elements with holes the template has (its parts). */
  readonly partCount: number;
  /** The build the session memo calls on a miss (made once, so a call allocates no closure). */
  readonly memoBuild: MemoBuild;
};
type Compiled = { readonly constant: UiElement } | Dynamic;

/** One compiled template per call site: a tagged template's strings array is the same object on every call. */
const COMPILED = new WeakMap<readonly string[], Compiled>();

/**
 * `Ui.html\`…\``: a view written as an HTML template; the template's one root element, with the
 * hole values in place (docs/live-apps.md#html-templates). In the view of an app that declares its
 * messages, a message in a hole is checked against them.
 *
 * @returns the template's root element
 * @throws {TypeError} naming the place, for a mistake in the template, the first time it is used
 * @example
 * ```ts
 * import { Ui } from "svc-live";
 *
 * const row = (t: { id: number; text: string }) => Ui.html`
 *   <li svc-key=${t.id}>${t.text} <button onClick=${["Remove", t.id]}>✕</button></li>`;
 * const view = (todos: { id: number; text: string }[]) => Ui.html`<ul class="todos">${todos.map(row)}</ul>`;
 * ```
 */
export function html<M = UntypedMessages>(
  strings: TemplateStringsArray,
  ...values: NoInfer<HtmlHole<M, UiElement<M> | UiText | UiRaw>>[]
): UiElement<M> {
  return htmlElement(strings, values) as unknown as UiElement<M>;
}

function htmlElement(strings: TemplateStringsArray, values: readonly unknown[]): UiElement {
  let compiled = COMPILED.get(strings);
  if (compiled === undefined) {
    if (!Array.isArray(strings) || !Array.isArray((strings as { raw?: unknown }).raw)) {
      throw new TypeError("Ui.html: use it as a template tag: Ui.html`<p>${text}</p>`");
    }
    compiled = compileTemplate(parseTemplate(strings));
    COMPILED.set(strings, compiled);
  }
  if (compiled.constant !== undefined) return compiled.constant;
  const render = viewRender();
  if (render === undefined) return compiled.build(values, undefined, new Array<UiElement>(compiled.partCount));
  return render.memo({ key: strings, args: values, build: compiled.memoBuild, rule: BY_VALUE });
}

/** Handler props written in lowercase, as HTML spells event attributes, name the same handlers as Ui.h's camelCase props. */
const HANDLER_NAMES: Readonly<Record<string, string>> = {
  onclick: "onClick",
  oninput: "onInput",
  onchange: "onChange",
  onsubmit: "onSubmit",
  onkeydown: "onKeydown",
};

function propName(name: string): string {
  return HANDLER_NAMES[name.toLowerCase()] ?? name;
}

/** The holes of an element and everything inside it. */
function holesOf(node: TemplateElement, into: number[] = []): number[] {
  for (const attr of node.attrs) for (const part of attr.parts) if (typeof part === "number") into.push(part);
  for (const child of node.children) {
    if (child.kind === "hole") into.push(child.index);
    else if (child.kind === "el") holesOf(child, into);
  }
  return into;
}

function compileTemplate(root: TemplateElement): Compiled {
  const counter = { parts: 0 };
  const compiled = compileElement(root, counter);
  if (typeof compiled !== "function") return { constant: compiled };
  const build = compiled;
  const partCount = counter.parts;
  return {
    build,
    partCount,
    memoBuild(_template, values, previous) {
      let reuse: Reuse | undefined;
      if (previous?.parts !== undefined) {
        const changed = new Array<boolean>(values.length);
        for (let k = 0; k < values.length; k++) changed[k] = !sameValue(previous.args[k], values[k]);
        reuse = { parts: previous.parts, changed };
      }
      const parts = reuse === undefined ? new Array<UiElement>(partCount) : reuse.parts.slice();
      return { element: build(values, reuse, parts), parts };
    },
  };
}

/** A child slot of a compiled element: a node built once, a hole's index, or a builder. */
type Slot = UiNode | number | Build;

/** An element without holes becomes its element, built once; one with holes, its builder. */
function compileElement(node: TemplateElement, counter: { parts: number }): UiElement | Build {
  const holes = holesOf(node);
  if (holes.length === 0) {
    const attrs: Record<string, unknown> = {};
    for (const attr of node.attrs) attrs[propName(attr.name)] = attr.parts.length === 0 ? true : attr.parts[0];
    const children = node.children.map((
      child,
    ) => (child.kind === "text" ? text(child.text) : (compileElement(child as TemplateElement, counter) as UiElement)));
    return elementOf(node.tag, attrs, children);
  }
  const part = counter.parts++;
  const tag = node.tag;
  const attrsOf = compileAttrs(node.attrs);
  const slots: Slot[] = node.children.map((child): Slot => {
    if (child.kind === "hole") return child.index;
    if (child.kind === "text") return text(child.text);
    return compileElement(child, counter);
  });
  const count = slots.length;
  return (values, reuse, parts) => {
    if (reuse !== undefined && !anyChanged(reuse.changed, holes)) return reuse.parts[part]!;
    const children = new Array<Child>(count);
    for (let k = 0; k < count; k++) {
      const slot = slots[k]!;
      children[k] = typeof slot === "number" ? (values[slot] as Child) : typeof slot === "function" ? slot(values, reuse, parts) : slot;
    }
    return (parts[part] = elementOf(tag, attrsOf(values), children));
  };
}

function anyChanged(changed: readonly boolean[], holes: readonly number[]): boolean {
  for (let k = 0; k < holes.length; k++) if (changed[holes[k]!]) return true;
  return false;
}

/** The attribute bag of an element: the same object each time when no value has a hole. */
function compileAttrs(attrs: readonly TemplateAttr[]): (values: readonly unknown[]) => Record<string, unknown> {
  const names = attrs.map((a) => propName(a.name));
  if (!attrs.some((a) => a.parts.some((p) => typeof p === "number"))) {
    const fixed: Record<string, unknown> = {};
    attrs.forEach((a, k) => (fixed[names[k]!] = a.parts.length === 0 ? true : a.parts[0]));
    return () => fixed;
  }
  const values = attrs.map((a) => attrValue(a));
  return (holes) => {
    const bag: Record<string, unknown> = {};
    for (let k = 0; k < names.length; k++) bag[names[k]!] = values[k]!(holes);
    return bag;
  };
}

/** An attribute's value: true (bare), its static string, a whole hole's value as it is, or a text joined from parts. */
function attrValue(attr: TemplateAttr): (holes: readonly unknown[]) => unknown {
  const parts = attr.parts;
  if (parts.length === 0) return () => true;
  const [first] = parts;
  if (parts.length === 1) return typeof first === "number" ? (holes) => holes[first] : () => first;
  return (holes) => {
    let out = "";
    for (const part of parts) out += typeof part === "number" ? partText(attr.name, holes[part]) : part;
    return out;
  };
}

/** A hole inside a quoted value is text: null, undefined and false are empty. */
function partText(name: string, value: unknown): string {
  if (value === null || value === undefined || value === false) return "";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  throw new TypeError(`Ui.html: a hole inside ${name}'s quoted value must be a string, number or boolean`);
}

/** A template's values are compared as data, and the memo keeps a copy of them (src/ui/same-value.ts). */
const BY_VALUE: ArgRule = {
  same(kept, values) {
    if (kept.length !== values.length) return false;
    for (let k = 0; k < kept.length; k++) if (!sameValue(kept[k], values[k])) return false;
    return true;
  },
  keep: (values) => values.map((value) => keptCopy(value)),
};
