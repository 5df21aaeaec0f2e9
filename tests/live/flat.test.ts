/**
 * The flat record of a render (src/live/flat.ts): it mirrors the live tree node for node, two
 * equal stretches of two records always stand for subtrees that render alike, and the diff takes
 * such a subtree as unchanged without reading its objects.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diff, diffTrees } from "../../src/live/diff.ts";
import { entryLength, type Flat, kidsStart, MAX_RECORD, opensElement, recordLengthAfter, sameEntries } from "../../src/live/flat.ts";
import { assignIds } from "../../src/live/ids.ts";
import { renderElement } from "../../src/live/render.ts";
import type { LiveElement, LiveTree } from "../../src/live/tree.ts";
import { h, raw, type UiElement } from "../../src/ui/node.ts";
import { build, mutate, specArb } from "./support/trees.ts";

/** A tree with its flat record, as a session renders it. */
function recorded(view: UiElement): LiveTree & { flat: Flat } {
  const tree = assignIds(view, 0);
  assert.ok(tree.flat !== undefined, "a record was asked for");
  return tree as LiveTree & { flat: Flat };
}

/** Every element of a tree recorded in full, with where its entries start. */
function placesOf(tree: LiveTree & { flat: Flat }): { el: LiveElement; at: number }[] {
  const places: { el: LiveElement; at: number }[] = [];
  const walk = (el: LiveElement, at: number) => {
    places.push({ el, at });
    let kid = kidsStart(tree.flat, at);
    for (const node of el.kids) {
      if (node.kind === "el" && opensElement(tree.flat, kid)) walk(node, kid);
      kid += entryLength(tree.flat, kid);
    }
  };
  walk(tree.root, 0);
  return places;
}

/** Asserts that the record at `at` describes `el`: seg, attributes in order, kids one for one; returns its length. */
function assertMirrors(flat: Flat, at: number, el: LiveElement): number {
  assert.equal(flat[at], at === 0 ? el.tag : el.seg, "an element's seg, the root's tag");
  const names = Object.keys(el.attrs);
  assert.equal(flat[at + 2], names.length);
  names.forEach((name, i) => {
    assert.equal(flat[at + 3 + 2 * i], name);
    assert.equal(flat[at + 4 + 2 * i], el.attrs[name]);
  });
  let kid = kidsStart(flat, at);
  for (const node of el.kids) {
    if (node.kind === "el" && opensElement(flat, kid)) assertMirrors(flat, kid, node);
    else if (node.kind === "el") assert.equal(flat[kid + 1], node, "a reused element is recorded as itself");
    else assert.equal(flat[kid + 1], node.kind === "text" ? node.text : node.html);
    kid += entryLength(flat, kid);
  }
  assert.equal(kid - at, flat[at + 1], "the span covers the kids exactly");
  return kid - at;
}

test("the record mirrors the tree node for node, and ends where the root's span ends", () => {
  fc.assert(
    fc.property(specArb, (spec) => {
      const tree = recorded(build(spec));
      assert.equal(assertMirrors(tree.flat, 0, tree.root), tree.flat.length);
    }),
    { numRuns: 500 },
  );
});

test("a view element handed back again is recorded as its reused live element", () => {
  const footer = h("footer", {}, h("p", {}, "static"));
  const view = (n: number) => h("main", {}, h("p", {}, `n ${n}`), footer);
  recorded(view(1));
  const tree = recorded(view(2));
  assert.equal(assertMirrors(tree.flat, 0, tree.root), tree.flat.length);
  assert.ok(tree.flat.includes(tree.root.kids[1]), "the footer's live element stands for its subtree");
});

test("the same view built twice has the same record, so an unchanged subtree is found equal", () => {
  fc.assert(
    fc.property(specArb, (spec) => {
      const a = recorded(build(spec)), b = recorded(build(structuredClone(spec)));
      assert.equal(a.flat.length, b.flat.length);
      assert.ok(sameEntries(a.flat, 0, b.flat, 0, a.flat.length));
    }),
    { numRuns: 300 },
  );
});

test("equal stretches of two records always stand for subtrees that render alike", () => {
  fc.assert(
    fc.property(specArb, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), (spec, picks) => {
      const a = recorded(build(spec)), b = recorded(build(mutate(spec, picks)));
      for (const x of placesOf(a)) {
        for (const y of placesOf(b)) {
          const length = entryLength(a.flat, x.at);
          if (length !== entryLength(b.flat, y.at) || !sameEntries(a.flat, x.at, b.flat, y.at, length)) continue;
          // Rendered under one id, so that only the subtrees themselves are compared.
          assert.equal(renderElement(x.el, "r"), renderElement(y.el, "r"));
          assert.equal(x.el.tag, y.el.tag);
        }
      }
    }),
    { numRuns: 300 },
  );
});

/** An object that fails the test if any of its properties is read. */
function untouchable(what: string): LiveElement {
  return new Proxy({} as LiveElement, {
    get: (_target, prop) => assert.fail(`the diff read ${String(prop)} of ${what}`),
  });
}

test("the diff takes a subtree whose record is unchanged as equal without reading its old objects", () => {
  const items = Array.from({ length: 50 }, (_, i) => `item ${i}`);
  const view = (count: number) =>
    h(
      "main",
      { class: "app" },
      h("p", { id: "count" }, `count ${count}`),
      h("ul", { class: "list" }, ...items.map((item) => h("li", {}, item))),
    );
  const before = recorded(view(1));
  const after = recorded(view(2));
  // The old list: every object of it out of reach. The record still holds its content.
  (before.root.kids as LiveElement[])[1] = untouchable("the old list");
  const newList = after.root.kids[1];
  const { patches, tree } = diffTrees(before, after);
  assert.deepEqual(patches, [{ id: "r.0#p", text: "count 2" }]);
  // The tree to keep holds the old list in place of the unchanged new one; the new render is as it was built.
  assert.equal(tree.root.kids[1], before.root.kids[1]);
  assert.equal(after.root.kids[1], newList);
});

test("a change inside a subtree is still found when its siblings are taken from the record", () => {
  const view = (last: string) => h("ul", {}, ...["a", "b", "c", last].map((text) => h("li", {}, text)));
  const before = recorded(view("d"));
  const after = recorded(view("e"));
  for (let i = 0; i < 3; i++) (before.root.kids as LiveElement[])[i] = untouchable(`li ${i}`);
  assert.deepEqual(diff(before, after), [{ id: "r.3#li", text: "e" }]);
});

test("diffs of trees with records give exactly the patches of the same trees without them", () => {
  fc.assert(
    fc.property(specArb, fc.array(fc.nat(), { maxLength: 6 }), (spec, picks) => {
      const next = mutate(spec, picks);
      const plain = diff(assignIds(build(spec)), assignIds(build(next)));
      assert.deepEqual(diff(recorded(build(spec)), recorded(build(next))), plain);
      // One side without a record: the walk compares objects all the way.
      assert.deepEqual(diff(recorded(build(spec)), assignIds(build(next))), plain);
    }),
    { numRuns: 1000 },
  );
});

test("a tree whose record would outgrow MAX_RECORD keeps none, and its diffs still work", () => {
  const rows = (n: number, changed: number) =>
    h("ul", {}, ...Array.from({ length: n }, (_, i) => h("li", { class: "row" }, i === changed ? "changed" : `row ${i}`)));
  const size = MAX_RECORD; // each row takes more than one entry, so this is well past the limit
  const before = assignIds(rows(size, -1), 0), after = assignIds(rows(size, 7), 0);
  assert.equal(before.flat, undefined);
  assert.equal(after.flat, undefined);
  assert.deepEqual(diff(before, after), [{ id: "r.7#li", text: "changed" }]);
  const small = assignIds(rows(10, -1), 0);
  assert.ok(small.flat !== undefined && small.flat.length < MAX_RECORD);
});

test("a session's render asks for a record sized like its last one, and none after a tree too large for one", () => {
  assert.equal(recordLengthAfter(undefined), 0);
  const small = assignIds(h("ul", {}, h("li", {}, "a"), h("li", {}, "b")), 0);
  assert.equal(recordLengthAfter(small), small.flat?.length);
  assert.ok((recordLengthAfter(small) ?? 0) > 0);
  const large = assignIds(h("div", {}, ...Array.from({ length: MAX_RECORD }, (_, i) => h("p", {}, String(i)))), 0);
  assert.equal(recordLengthAfter(large), undefined);
});

test("without a record asked for, a tree has none", () => {
  assert.equal(assignIds(h("p", {}, "x")).flat, undefined);
});

test("a record that passes MAX_RECORD in the kids after its last element is dropped all the same", () => {
  // One element, then raw kids only: no element opens after the limit is passed.
  const tree = assignIds(h("div", {}, ...Array.from({ length: MAX_RECORD / 2 + 8 }, () => raw("<b>x</b>"))), 0);
  assert.equal(tree.flat, undefined);
});
