/**
 * View elements handed back again: a static part built once outside `view`, or a memoised subtree.
 * Its live element is kept (src/live/ids.ts), the diff skips it, and wherever it is placed it
 * renders with the ids of its place (docs/protocol.md#node-ids).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diff } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { h } from "../../src/ui/node.ts";
import { applyPatches } from "../support/apply.ts";
import { canon, parse } from "../support/dom.ts";
import { build, mutate, specArb } from "../support/trees.ts";

test("a view element handed back again keeps its live element, and the diff does not walk it", () => {
  const footer = h("footer", {}, h("p", {}, "static"), h("button", { onClick: "Help" }, "?"));
  const view = (count: number) => h("main", {}, h("p", {}, `count ${count}`), footer);
  const a = assignIds(view(1)), b = assignIds(view(2));
  assert.equal(a.root.kids[1], b.root.kids[1]);
  assert.deepEqual(diff(a, b), [{ id: "r.0#p", text: "count 2" }]);
});

test("a reused element under another parent or index renders with the ids of its new place", () => {
  fc.assert(
    fc.property(specArb, fc.nat(3), (spec, pad) => {
      const shared = build(spec);
      const first = h("div", {}, shared);
      const second = h("section", {}, ...Array.from({ length: pad }, (_, i) => h("span", {}, `pad ${i}`)), h("div", {}, shared));
      const fresh = h("section", {}, ...Array.from({ length: pad }, (_, i) => h("span", {}, `pad ${i}`)), h("div", {}, build(spec)));
      assert.equal(render(first), render(h("div", {}, build(spec))));
      assert.equal(render(second), render(fresh));
    }),
    { numRuns: 300 },
  );
});

test("diffs between views that share elements give exactly the new DOM", () => {
  fc.assert(
    fc.property(specArb, specArb, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.boolean(), (a, b, picks, moveShared) => {
      const shared = build(b);
      const before = h("div", {}, build(a), h("div", {}, shared));
      const after = moveShared
        ? h("div", {}, h("div", {}, shared), build(mutate(a, picks)))
        : h("div", {}, build(mutate(a, picks)), h("div", {}, shared));
      const prev = assignIds(before), next = assignIds(after);
      const dom = parse(render(prev));
      applyPatches(dom, diff(prev, next));
      assert.deepEqual(canon(dom), canon(parse(render(next))));
      assert.deepEqual(diff(next, assignIds(after)), []);
    }),
    { numRuns: 300 },
  );
});

test("a frozen view constant is rendered and diffed like any other element", () => {
  const deepFreeze = <T extends object>(value: T): T => {
    for (const key of Object.keys(value)) {
      const inner = (value as Record<string, unknown>)[key];
      if (typeof inner === "object" && inner !== null && !Object.isFrozen(inner)) deepFreeze(inner);
    }
    return Object.freeze(value);
  };
  const footer = deepFreeze(h("footer", {}, h("p", {}, "static"), h("button", { onClick: "Help" }, "?")));
  const view = (count: number) => h("main", {}, h("p", {}, `count ${count}`), footer);
  const a = assignIds(view(1)), b = assignIds(view(2));
  assert.equal(
    render(a),
    render(assignIds(h("main", {}, h("p", {}, "count 1"), h("footer", {}, h("p", {}, "static"), h("button", { onClick: "Help" }, "?"))))),
  );
  assert.deepEqual(diff(a, b), [{ id: "r.0#p", text: "count 2" }]);
});
