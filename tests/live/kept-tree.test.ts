/**
 * The render a session keeps between events. The diff returns it beside the patches: the new
 * render with the parts that equal the old one replaced by the old objects (src/live/diff/diff.ts), so
 * the kept tree must still mean exactly the new render: it renders the same markup as a fresh
 * render, and the next diff from it is right. Neither tree given to the diff changes. A change the
 * client already shows (the authority map hides its patch) is a change all the same.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diff, diffTrees } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { forEachElement, type LiveElement, type LiveTree } from "../../src/live/tree.ts";
import { h } from "../../src/ui/node.ts";
import { applyPatches } from "../support/apply.ts";
import { canon, parse } from "../support/dom.ts";
import { build, mutate, specArb } from "../support/trees.ts";

/** A chain of renders, each diffed against the kept one. */
function chainProperty() {
  return fc.property(
    specArb,
    fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
    (first, steps) => {
      let spec = first;
      let kept = assignIds(build(spec));
      const dom = parse(render(kept));
      for (const picks of steps) {
        // Every other step is an equal rebuild: the whole new render is then equal to the kept one.
        spec = picks[0]! % 2 === 0 ? structuredClone(spec) : mutate(spec, picks);
        const next = assignIds(build(spec));
        const keptMarkup = render(kept), nextMarkup = render(next);
        const diffed = diffTrees(kept, next);
        applyPatches(dom, diffed.patches);
        const fresh = render(assignIds(build(spec)));
        assert.equal(render(kept), keptMarkup, "the old tree is unchanged");
        assert.equal(render(next), nextMarkup, "the new tree is unchanged");
        assert.equal(render(diffed.tree), fresh, "the tree to keep means the new render");
        assert.deepEqual(canon(dom), canon(parse(fresh)));
        kept = diffed.tree;
      }
    },
  );
}

test("a chain of renders, each diffed against the kept one, patches the DOM right and keeps renders that mean the new view", () => {
  fc.assert(chainProperty(), { numRuns: 400 });
});

test("an unchanged part of the new render is the old render's objects, a changed part is new", () => {
  const view = (count: number) =>
    h("main", {}, h("header", {}, h("h1", {}, "Title"), h("p", {}, `count ${count}`)), h("ul", {}, h("li", {}, "one"), h("li", {}, "two")));
  const before = assignIds(view(1));
  const after = assignIds(view(2));
  const builtKids = after.root.kids, builtHeaderKids = (after.root.kids[0] as LiveElement).kids;
  const { patches, tree } = diffTrees(before, after);
  assert.deepEqual(patches, [{ id: "r.0#header.1#p", text: "count 2" }]);
  const [oldHeader, oldList] = before.root.kids as LiveElement[];
  const [newHeader, newList] = tree.root.kids as LiveElement[];
  assert.equal(newList, oldList, "the equal list is the old one");
  assert.notEqual(newHeader, oldHeader, "the header holds the change");
  assert.equal(newHeader!.kids[0], oldHeader!.kids[0], "its equal heading is the old one");
  assert.equal(newHeader!.kids[1], (after.root.kids[0] as LiveElement).kids[1], "its changed text is the new one");
  assert.notEqual(tree.root, after.root, "the elements holding old parts are copies");
  assert.equal(after.root.kids, builtKids, "the new render is as it was built");
  assert.equal((after.root.kids[0] as LiveElement).kids, builtHeaderKids);
  assert.equal(render(tree), render(assignIds(view(2))));
});

test("an equal render is kept as the old one", () => {
  const view = () => h("main", {}, h("p", {}, "a"), h("p", {}, "b"));
  const before = assignIds(view());
  const after = assignIds(view());
  const builtKids = after.root.kids;
  const { patches, tree } = diffTrees(before, after);
  assert.deepEqual(patches, []);
  assert.equal(tree.root, before.root);
  assert.equal(after.root.kids, builtKids);
});

test("the diff changes neither tree it is given", () => {
  fc.assert(
    fc.property(specArb, fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), (spec, picks) => {
      const before = assignIds(build(spec));
      const after = assignIds(build(mutate(spec, picks)));
      const copies = [structuredClone(before), structuredClone(after)];
      const objects = [...objectsOf(before), ...objectsOf(after)];
      diff(before, after);
      // Cloned as the copies were, so that both sides are plain data (handler records are class instances).
      assert.deepEqual(structuredClone([before, after]), copies);
      // Equal content could hide a swap: every element still holds the very kids it was built with.
      const now = [...objectsOf(before), ...objectsOf(after)];
      assert.equal(now.length, objects.length);
      for (let i = 0; i < now.length; i++) assert.equal(now[i], objects[i]);
    }),
    { numRuns: 300 },
  );
});

test("a value the client already shows is not patched, and the kept render still holds the new value", () => {
  const field = (value: string) => h("form", {}, h("input", { name: "title", value, onInput: "Set" }), h("p", {}, "hint"));
  const typed = assignIds(field("abc"));
  // The client typed "abc": its patch is hidden, yet the input differs from the old one.
  assert.deepEqual(diff(assignIds(field("ab")), typed, { "r.#input:title": "abc" }), []);
  let value: string | undefined;
  forEachElement(typed, (el) => (el.tag === "input" ? (value = el.attrs["value"]) : undefined));
  assert.equal(value, "abc");
  // The model resets the field to its old value: that is a change from what the client shows.
  assert.deepEqual(diff(typed, assignIds(field("ab"))), [{ id: "r.#input:title", attrs: { value: "ab" } }]);
});

/** Every element of the tree and its kids array, in document order. */
function objectsOf(tree: LiveTree): unknown[] {
  const out: unknown[] = [];
  const walk = (el: LiveElement): void => {
    out.push(el, el.kids);
    for (const kid of el.kids) if (kid.kind === "el") walk(kid);
  };
  walk(tree.root);
  return out;
}
