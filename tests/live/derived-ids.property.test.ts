/**
 * Derived ids (docs/protocol.md#derived-ids): the markup leaves out the ids an element's place
 * gives, and the client fills them in (client/dom.ts `fillIds`). The property: for random trees,
 * the ids the client derives over the server's markup are exactly the server's ids, for the page
 * and for every fragment a patch carries (an `html` patch's children, a `replace` or `{html}` kid
 * entry). The trees are the page shapes of specArb (tests/support/trees.ts), and trees with
 * tables, shared keys, styled elements, raw HTML and nestings the HTML parser rearranges, where
 * the renderer must write the ids (src/live/parser-fit.ts). Parsed with happy-dom, as the client
 * tests are; tests/e2e/derived-ids.test.ts runs the same check over Chromium's parser.
 */
import { test } from "node:test";
import fc from "fast-check";
import { assignIds } from "../../src/live/ids.ts";
import { parseIn } from "../support/dom.ts";
import { agree, casesOf } from "../support/derived-ids.ts";
import { build, specArb } from "../support/trees.ts";
import { mixedTreeArb } from "../support/mixed-trees.ts";
import { h, type UiElement } from "../../src/ui/node.ts";

const seed = Number(process.env["FC_SEED"] ?? Date.now() % 2 ** 31);
console.log(`derived-ids property: fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

test("the client derives exactly the server's ids from the page's markup and from every patch's", () => {
  fc.assert(
    fc.property(specArb, fc.nat(), (spec, pick) => {
      for (const c of casesOf(assignIds(build(spec)), pick)) agree(c, parseIn(c.contextTag, c.html, c.parentId), false);
    }),
    { seed, numRuns: 500 },
  );
});

/**
 * happy-dom is not a conforming HTML parser for table content: it moves a `<col>` or an injected
 * `<style>` out in front of a table, where browsers keep or wrap them, so random trees failed
 * here for happy-dom's sake (seeds 361433887 and 362058506, before src/live/parser-fit.ts took
 * both as moved; the fixed tests below). Here the trees of a fixed seed run (FC_SEED replays
 * another); the same property over random seeds runs against Chromium's own parser in
 * tests/e2e/derived-ids.test.ts, which is the parser that matters.
 */
const MIXED_SEED = Number(process.env["FC_SEED"] ?? 1);

test("tables, shared keys, styled elements, raw HTML and nestings the parser rearranges: an id never names the wrong element", () => {
  fc.assert(
    fc.property(mixedTreeArb, fc.nat(), (view, pick) => {
      for (const c of casesOf(assignIds(view), pick)) agree(c, parseIn(c.contextTag, c.html, c.parentId), true);
    }),
    { seed: MIXED_SEED, numRuns: 500 },
  );
});

test("a col straight in a table, which a parser may wrap in a colgroup or move out in front of the table, names no wrong element", () => {
  // Found by the property above (seed 361433887): happy-dom moves the col out, as it does stray table content.
  const view = h("main", { "data-n": "882" }, h("table", { "data-n": "872" }, h("col", { "data-n": "871" })));
  for (let pick = 0; pick < 4; pick++) {
    for (const c of casesOf(assignIds(view), pick)) agree(c, parseIn(c.contextTag, c.html, c.parentId), true);
  }
});

test("an injected style in a table context, which a parser may move out in front of the table, names no wrong element", () => {
  // Found by the property above (seed 362058506): happy-dom moves the caption's style out, as it does stray table content.
  const styled = (tag: string, n: string, ...kids: UiElement[]) => h(tag, { "data-n": n, hover: { color: "red" } } as never, ...kids);
  const views = [
    h("main", { "data-n": "1522" }, h("table", { "data-n": "1509" }, styled("caption", "1495"))),
    h(
      "main",
      { "data-n": "1" },
      h("table", { "data-n": "2" }, h("tbody", { "data-n": "3" }, h("tr", { "data-n": "4" }), styled("tr", "5", styled("td", "6")))),
      h("p", { "data-n": "7" }),
    ),
    h("main", { "data-n": "1" }, h("table", { "data-n": "2" }, styled("thead", "3", h("tr", { "data-n": "4" }, styled("th", "5"))))),
  ];
  for (const view of views) {
    for (let pick = 0; pick < 8; pick++) {
      for (const c of casesOf(assignIds(view), pick)) agree(c, parseIn(c.contextTag, c.html, c.parentId), true);
    }
  }
});
