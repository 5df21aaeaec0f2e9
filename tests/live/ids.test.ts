/** Structural ids (docs/protocol.md#node-ids): the grammar, key priority, and stability. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { assignIds, parseId, sanitizeKey } from "../../src/live/ids.ts";
import {
  childId,
  findElement,
  forEachElement,
  handlerFor,
  isIndexFree,
  type LiveElement,
  type LiveNode,
  type LiveTree,
  passOf,
} from "../../src/live/tree.ts";
import { h, keyed } from "../../src/ui/node.ts";
import { recordData } from "../support/records.ts";
import { build, mutate, type Spec, specArb } from "../support/trees.ts";

/** Every id of a tree, in document order. */
function ids(tree: LiveTree): string[] {
  const out: string[] = [];
  forEachElement(tree, (_, id) => out.push(id));
  return out;
}
const idsOf = (el: ReturnType<typeof h>) => ids(assignIds(el));

test("ids follow the grammar's five forms, and text counts in the index", () => {
  const tree = h(
    "div",
    {},
    "text",
    h("p", {}),
    keyed("a", h("li", {})),
    h("input", { type: "radio", name: "color" }),
    h("input", { type: "radio", name: "color" }),
    h("span", { hover: { color: "red" } }),
  );
  assert.deepEqual(idsOf(tree), [
    "r",
    "r.1#p",
    "r.#li:a",
    "r.3#input:color",
    "r.4#input:color",
    "r.5#span.~pc",
    "r.5#span",
  ]);
});

test("key priority: svc-key first, then name on form controls only, then none", () => {
  assert.deepEqual(
    idsOf(
      h("div", {}, keyed("k", h("input", { name: "n" })), h("input", { name: "n" }), h("div", { name: "n" }), h("button", { name: "" })),
    ),
    [
      "r",
      "r.#input:k",
      "r.#input:n",
      "r.2#div",
      "r.3#button",
    ],
  );
  for (const tag of ["input", "textarea", "select", "form", "button", "fieldset"]) {
    assert.equal(idsOf(h("div", {}, h(tag, { name: "x" })))[1], `r.#${tag}:x`);
  }
});

test("sanitising replaces every character outside letters, digits, - and _ with _", () => {
  assert.equal(sanitizeKey("a b/c.d#e:f~g"), "a_b_c_d_e_f_g");
  assert.equal(sanitizeKey("Ok-1_2"), "Ok-1_2");
  assert.equal(sanitizeKey("é😀"), "__");
  // keys equal after sanitising are shared, so they keep the index and stay unique
  assert.deepEqual(idsOf(h("ul", {}, keyed("a b", h("li", {})), keyed("a_b", h("li", {})))), ["r", "r.0#li:a_b", "r.1#li:a_b"]);
});

test("long keyed lists (past the sibling scan) judge sharing per tag: shared keys keep their index, a key on another tag does not count", () => {
  const items = (tag: string, keys: string[]) => keys.map((k) => keyed(k, h(tag, {})));
  const many = Array.from({ length: 20 }, (_, i) => `k${i}`);
  // one tag, one key held twice
  assert.deepEqual(idsOf(h("ul", {}, items("li", [...many, "k3"]))).slice(1, 5), ["r.#li:k0", "r.#li:k1", "r.#li:k2", "r.3#li:k3"]);
  assert.equal(idsOf(h("ul", {}, items("li", [...many, "k3"]))).at(-1), "r.20#li:k3");
  // the same key on an li and a div is unique for each tag; a key held by two divs is shared
  const mixed = idsOf(h("div", {}, items("li", many), items("p", ["k5", "x", "x"])));
  assert.deepEqual(mixed.slice(-3), ["r.20#p:k5", "r.21#p:x", "r.22#p:x"].map((id, i) => (i === 0 ? "r.#p:k5" : id)));
  assert.equal(mixed[6], "r.#li:k5");
});

test("tags with digits and hyphens (h1, custom elements) are ids that parse back", () => {
  const all = idsOf(h("div", {}, h("h1", {}), keyed("x", h("my-widget", {})), h("x-a1", { hover: { color: "red" } })));
  assert.deepEqual(all, ["r", "r.0#h1", "r.#my-widget:x", "r.2#x-a1.~pc", "r.2#x-a1"]);
  assert.deepEqual(parseId("r.#my-widget:x"), { kind: "element", parent: "r", index: undefined, tag: "my-widget", key: "x" });
  assert.deepEqual(parseId("r.0#h1.12#x-a1:k_1"), { kind: "element", parent: "r.0#h1", index: 12, tag: "x-a1", key: "k_1" });
  assert.deepEqual(parseId("r.2#x-a1.~pc"), { kind: "style", owner: "r.2#x-a1", pass: "pc" });
  assert.deepEqual(parseId("r"), { kind: "root" });
});

test("ids outside the grammar do not parse", () => {
  for (
    const bad of [
      "",
      "x",
      "r.",
      "r.#div",
      "r.0div",
      "r.0#Div",
      "r.0#-a",
      "r.0#a-",
      "r.0#div:",
      "r.0#div:a.b",
      "r.~xx",
      "r.~pc.0#div",
      "r.0#div.~pc.~mq",
    ]
  ) {
    assert.equal(parseId(bad), undefined, bad);
  }
  assert.throws(() => h("1a"), TypeError);
  assert.throws(() => h("my_widget"), TypeError);
});

test("in every render ids are unique and each parses back to its parent", () => {
  fc.assert(
    fc.property(specArb, (spec) => {
      const all = ids(assignIds(build(spec)));
      assert.equal(new Set(all).size, all.length);
      for (const id of all) assert.notEqual(parseId(id), undefined, id);
    }),
    { numRuns: 500 },
  );
});

/** Each element by its walk path (child positions), with the tags and keys along that path. */
type At = { id: string; tag: string; chain: string };
function byPath(spec: Spec): Map<string, At> {
  const out = new Map<string, At>();
  const walk = (live: LiveElement, id: string, path: string, chain: string) => {
    const here = `${chain}/${live.tag}:${live.key ?? ""}:${isIndexFree(live)}`;
    out.set(path, { id, tag: live.tag, chain: here });
    let index = 0;
    for (const kid of live.kids as LiveNode[]) {
      if (kid.kind === "el" && passOf(kid) !== undefined) continue;
      if (kid.kind === "el") walk(kid, childId(id, kid.seg), `${path}/${index}`, here);
      index++;
    }
  };
  walk(assignIds(build(spec)).root, "r", "", "");
  return out;
}

test("the same walk path, tag and key give the same id across renders; a different tag a different id", () => {
  fc.assert(
    fc.property(specArb, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), (spec, picks) => {
      const a = byPath(spec);
      const b = byPath(mutate(spec, picks));
      for (const [path, x] of a) {
        const y = b.get(path);
        // the root is `r` whatever its tag (a root tag change is a replace, docs/protocol.md#patches)
        if (y === undefined || path === "") continue;
        if (x.tag !== y.tag) assert.notEqual(x.id, y.id);
        else if (x.chain === y.chain) assert.equal(x.id, y.id);
      }
      const tagOf = new Map([...a.values()].map((x) => [x.id, x.tag]));
      for (const y of b.values()) {
        if (y.id !== "r" && tagOf.has(y.id)) assert.equal(tagOf.get(y.id), y.tag, `${y.id} names one tag in both renders`);
      }
    }),
    { numRuns: 500 },
  );
});

test("a line inserted above an input's wrapper gives the wrapper a new index, never the old wrapper's id to the line", () => {
  const wrapper = h("div", {}, h("input", { name: "title" }));
  assert.deepEqual(idsOf(h("div", {}, wrapper)), ["r", "r.0#div", "r.0#div.#input:title"]);
  assert.deepEqual(idsOf(h("div", {}, h("p", {}, "line"), wrapper)), ["r", "r.0#p", "r.1#div", "r.1#div.#input:title"]);
});

test("handlerFor finds the message of a handler id, and nothing for ids that are gone or have no handler", () => {
  const tree = assignIds(
    h(
      "div",
      {},
      h("button", { onClick: ["Add", 1] }),
      h("input", { onKeydown: { key: "Enter", msg: "Send" } }),
      h("ul", {}, keyed("a", h("li", {}, h("button", { onClick: "Deep" })))),
    ),
  );
  assert.deepEqual(recordData(handlerFor(tree, "r.0#button", "click")), { msg: "Add", args: [1] });
  assert.deepEqual(recordData(handlerFor(tree, "r.1#input", "keydown")), { msg: "Send", args: [], key: "Enter" });
  assert.deepEqual(recordData(handlerFor(tree, "r.2#ul.#li:a.0#button", "click")), { msg: "Deep", args: [] });
  for (const id of ["r", "r.2#ul", "r.0#button.0#span", "r.9#button", "r.0#butto", "r.0#buttonx", "", "x"]) {
    assert.equal(handlerFor(tree, id, "click"), undefined, id);
  }
  assert.equal(handlerFor(tree, "r.0#button", "input"), undefined);
});

test("findElement walks an id's path to its element, styles included, and finds nothing for ids not in the tree", () => {
  fc.assert(
    fc.property(specArb, (spec) => {
      const tree = assignIds(build(spec));
      const all = new Set<string>();
      forEachElement(tree, (el, id) => {
        all.add(id);
        assert.equal(findElement(tree, id), el, id);
      });
      for (const id of all) {
        for (const near of [`${id}.0#div`, `${id}x`, id.slice(0, -1), `${id}.~mq`, `x${id}`]) {
          if (!all.has(near)) assert.equal(findElement(tree, near), undefined, near);
        }
      }
    }),
    { numRuns: 300 },
  );
});
