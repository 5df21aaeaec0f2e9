/**
 * Random view trees without regard to HTML's content models: tables with and without their
 * sections, blocks inside paragraphs, nested links, forms and list items, foreign content, raw
 * HTML, whitespace in tables, shared keys and names, styled elements. For the derived-id
 * properties (tests/live/derived-ids.property.test.ts, tests/e2e/derived-ids.test.ts), where the
 * renderer must write every id the parser could move.
 */
import fc from "fast-check";
import { type Child, h, keyed, raw, type UiElement } from "../../src/ui/node.ts";

const CONTAINERS = [
  "div",
  "p",
  "span",
  "a",
  "b",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "table",
  "thead",
  "tbody",
  "tr",
  "td",
  "th",
  "caption",
  "colgroup",
  "form",
  "button",
  "select",
  "option",
  "h1",
  "h2",
  "section",
  "svg",
  "g",
  "label",
  "nobr",
] as const;
const VOIDS = ["input", "col", "br", "hr"] as const;

const textArb = fc.constantFrom("x", " ", "\n", "a b", "<&>", "é");
const rawArb = fc.constantFrom("<b>bold</b>", "plain", "<i>it</i>tail", "<div>block</div>");
const attrsArb = fc.record(
  {
    name: fc.constantFrom("n", "m", "a b"),
    "svc-key": fc.constantFrom("k", "j", "k 1"),
    class: fc.constantFrom("c"),
    onClick: fc.constantFrom("Go"),
    hover: fc.constant({ color: "red" }),
  },
  { requiredKeys: [] },
);

type Node = UiElement | string | ReturnType<typeof raw>;

/**
 * Every element gets its own `data-n`, so a check can tell which of the server's elements a
 * parsed element is, wherever the parser put it (tests/support/derived-ids.ts).
 */
let next = 0;
const numbered = (attrs: Record<string, unknown>) => ({ ...attrs, [ELEMENT_NUMBER]: String(next++) });
/** The attribute that numbers the elements of a mixed tree. */
export const ELEMENT_NUMBER = "data-n";

const { tree } = fc.letrec<{ tree: UiElement; node: Node }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.tuple(fc.constantFrom(...VOIDS), attrsArb).map(([tag, attrs]) => h(tag, numbered(attrs) as never)),
    fc.tuple(fc.constantFrom("textarea", "pre"), attrsArb, textArb).map(([tag, attrs, text]) => h(tag, numbered(attrs) as never, text)),
    fc.tuple(fc.constantFrom(...CONTAINERS), attrsArb, fc.array(tie("node"), { maxLength: 4 }), fc.option(fc.constantFrom("k", "j")))
      .map(([tag, attrs, kids, key]) => {
        const el = h(tag, numbered(attrs) as never, ...(kids as Child[]));
        return key === null ? el : keyed(key, el);
      }),
  ),
  node: fc.oneof(
    { depthSize: "small" },
    tie("tree"),
    tie("tree"),
    textArb,
    rawArb.map((html) => raw(html)),
  ),
}));

/** A random view tree under a `main` root. */
export const mixedTreeArb: fc.Arbitrary<UiElement> = fc.array(tree, { maxLength: 4 }).map((kids) => h("main", numbered({}), ...kids));
