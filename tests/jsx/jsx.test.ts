/**
 * The JSX runtime builds the nodes Ui.h builds: the same elements, the same HTML, the same patches
 * through a session's chain of renders, and clear errors for bad input.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { render } from "../../src/live/render.ts";
import { assignIds } from "../../src/live/ids.ts";
import { h } from "../../src/ui/node.ts";
import { Fragment, jsx, jsxs } from "../../src/jsx/jsx-runtime.ts";
import { jsxDEV } from "../../src/jsx/jsx-dev-runtime.ts";
import { assertRendersLikeFresh } from "../support/renders.ts";
import { type TodoModel, todoModelArb } from "../support/todos.ts";
import { spreadThenKey, spreadThenKeyTwin } from "./spread-key.tsx";
import { hView, jsxView } from "./todo-views.tsx";
import { eachHView, eachJsxView } from "./each-views.tsx";

const model: TodoModel = {
  title: "Todo & more",
  count: 2,
  rows: [
    { id: 3, text: "c <d>", done: true, tags: ["x", "y"] },
    { id: 7, text: "a", done: false, tags: [] },
  ],
};

/** An element without its cached live element, for deep comparison. */
function plain(node: unknown): unknown {
  if (typeof node !== "object" || node === null) return node;
  if (Array.isArray(node)) return node.map(plain);
  const { live: _live, ...rest } = node as Record<string, unknown>;
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, plain(v)]));
}

test("a TSX view builds the same elements and HTML as its Ui.h twin", () => {
  assert.deepEqual(plain(jsxView(model)), plain(hView(model)));
  assert.equal(render(assignIds(jsxView(model))), render(assignIds(hView(model))));
  const html = render(assignIds(jsxView(model)));
  assert.match(html, /<li svc-id="r.3#ul.#li:3" class="done" svc-key="3">/);
  assert.match(html, /data-svc-click="\[&quot;Remove&quot;,3\]"/);
  assert.match(html, /<h1 style="font-weight:600;">/);
  assert.match(html, /\]:hover\{background:#eee !important;\}<\/style>/);
  assert.match(html, /data-svc-keyfilter="Enter"/);
});

test("through a session's renders a TSX view gives the patches and HTML of fresh Ui.h builds", () => {
  fc.assert(
    fc.property(fc.array(todoModelArb, { minLength: 2, maxLength: 6 }), (models) => assertRendersLikeFresh(models, jsxView, hView)),
    { numRuns: 200, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31), verbose: 1 },
  );
});

test("<Each> builds the list Ui.keyed over a map builds, and through a session's renders gives its patches", () => {
  assert.equal(render(assignIds(eachJsxView(model))), render(assignIds(eachHView(model))));
  assert.match(render(assignIds(eachJsxView(model))), /<ul svc-id="r"><li class="done" svc-key="3">/);
  fc.assert(
    fc.property(fc.array(todoModelArb, { minLength: 2, maxLength: 6 }), (models) => assertRendersLikeFresh(models, eachJsxView, eachHView)),
    { numRuns: 100 },
  );
});

test("key= sets svc-key, which Ui.keyed sets; a keyed component keys the element it returns", () => {
  const li = jsx("li", { children: "x" }, "a b") as ReturnType<typeof h>;
  assert.equal(li.attrs["svc-key"], "a b");
  assert.equal(li.key, "a_b");
  const Item = (props: { label: string }) => jsx("li", { children: props.label });
  const keyedItem = jsx(Item, { label: "y" }, 5) as ReturnType<typeof h>;
  assert.equal(keyedItem.key, "5");
  assert.deepEqual(keyedItem.children, [{ kind: "text", text: "y" }]);
});

test("fragments splice their children into the parent, nested and empty ones too", () => {
  const inner = jsxs(Fragment, { children: ["b", jsx("i", { children: "c" })] });
  const outer = jsxs("p", { children: ["a", inner, jsx(Fragment, {}), jsxs(Fragment, { children: [null, false, "d"] })] });
  assert.equal(render(assignIds(outer as ReturnType<typeof h>)), render(assignIds(h("p", {}, "ab", h("i", {}, "c"), "d"))));
});

test("the development runtime builds the same nodes", () => {
  const dev = jsxDEV(
    "ul",
    { children: [jsxDEV("li", { children: "a" }, 1, false), jsxDEV("li", { children: "b" }, 2, false)] },
    undefined,
    true,
  );
  const prod = jsxs("ul", { children: [jsx("li", { children: "a" }, 1), jsx("li", { children: "b" }, 2)] });
  assert.deepEqual(plain(dev), plain(prod));
});

test("a single child that is an array is copied, never written into", () => {
  const items = ["a", 1, "b"];
  const ul = jsx("ul", { children: items }) as ReturnType<typeof h>;
  assert.deepEqual(items, ["a", 1, "b"]);
  assert.deepEqual(ul.children, [{ kind: "text", text: "a1b" }]);
});

test("bad input throws a clear TypeError at the call", () => {
  assert.throws(() => jsx("li", { onClick: () => 1 }), /onClick must name a message/);
  assert.throws(() => jsx("div", { onclick: "alert(1)" }), /use a message handler/);
  assert.throws(() => jsx("input", { children: "x" }), /void and takes no children/);
  assert.throws(() => jsx("bad tag", {}), /bad tag/);
  assert.throws(() => jsx(42 as never, {}), /tag name or a function/);
  assert.throws(() => jsx(Fragment, { children: "x" }, "k"), /fragment takes no key/);
  assert.throws(() => jsx(() => "text", {}, "k"), /keyed component must return an element/);
});

test("a key after a spread goes through createElement and keys the element as key= does", () => {
  const attrs = { class: "row", title: "t" };
  assert.deepEqual(plain(spreadThenKey(attrs, 4)), plain(spreadThenKeyTwin(attrs, 4)));
  assert.equal(spreadThenKey(attrs, 4).key, "4");
});

test("a live app whose view returns a fragment gets an error that says a view returns one element", async () => {
  const { Live } = await import("../../src/live/mod.ts");
  const app = Live.app<{ n: number }>({
    init: () => ({ n: 0 }),
    update: (model) => model,
    view: () => Fragment({ children: [h("p", {}, "one"), h("p", {}, "two")] }) as ReturnType<typeof h>,
  });
  // A first view that throws is answered by the page route's own 500 page, which in development
  // shows the error's message (docs/live-apps.md#development).
  try {
    const resp = await app.fetch(new Request("http://app.test/"));
    assert.equal(resp.status, 500);
    assert.match(await resp.text(), /must return one element.*fragment/);
  } finally {
    app.close();
  }
});
