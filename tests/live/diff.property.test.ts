/**
 * The diff's defining property (docs/protocol.md#patches): applying diff(old, new) to the DOM
 * of render(old) gives exactly the DOM of render(new), ids included; and diff(t, t) is empty.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diff } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { applyPatches } from "../support/apply.ts";
import { canon, parse } from "../support/dom.ts";
import { build, mutate, specArb } from "../support/trees.ts";

const RUNS = 1000;

test("applying diff(old, new) to render(old) gives exactly the DOM of render(new)", () => {
  fc.assert(
    fc.property(specArb, fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), (spec, picks) => {
      const before = assignIds(build(spec));
      const after = assignIds(build(mutate(spec, picks)));
      const dom = parse(render(before));
      applyPatches(dom, diff(before, after));
      assert.deepEqual(canon(dom), canon(parse(render(after))));
    }),
    { numRuns: RUNS },
  );
});

test("diffing a tree against itself, or against an equal rebuild, gives no patches", () => {
  fc.assert(
    fc.property(specArb, (spec) => {
      const tree = assignIds(build(spec));
      assert.deepEqual(diff(tree, tree), []);
      assert.deepEqual(diff(build(spec), build(structuredClone(spec))), []);
    }),
    { numRuns: Math.floor(RUNS / 2) },
  );
});

test("unrelated random trees also patch into each other", () => {
  fc.assert(
    fc.property(specArb, specArb, (a, b) => {
      const dom = parse(render(build(a)));
      applyPatches(dom, diff(build(a), build(b)));
      assert.deepEqual(canon(dom), canon(parse(render(build(b)))));
    }),
    { numRuns: Math.floor(RUNS / 3) },
  );
});
