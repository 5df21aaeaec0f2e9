/**
 * A view element is its own node of the live tree the first time the id walk places it
 * (src/live/tree.ts), and a session's memo hands its elements back render after render
 * (src/live/render-state/element-log.ts). Both meet the hardest case here: parts built once outside the view
 * (some frozen, some with style props whose CSS names whole ids), placed in every render at places
 * that change, twice in one render, under parents that change, beside a random tree that is edited.
 * A chain of a session's renders, its kept tree the one the diff hands back (as a session keeps
 * it), must render, diff and patch exactly as fresh builds of the same views.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diffTrees } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { RenderState, renderWith } from "../../src/live/render-state/render-state.ts";
import { h, type UiElement } from "../../src/ui/node.ts";
import { applyPatches } from "../support/apply.ts";
import { canon, parse } from "../support/dom.ts";
import { build, mutate, type Spec, specArb } from "../support/trees.ts";

const seed = Number(process.env["FC_SEED"] ?? Date.now() % 2 ** 31);
console.log(`shared-parts property: fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

function deepFreeze<T extends object>(value: T): T {
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    if (typeof inner === "object" && inner !== null && !Object.isFrozen(inner)) deepFreeze(inner);
  }
  return Object.freeze(value);
}

/** One render: the edits of the random tree, and where the shared parts go (indexes into the parts, wrapped or not). */
type Step = { readonly picks: number[]; readonly placed: { readonly part: number; readonly wrapped: boolean }[]; readonly before: boolean };

const partArb = fc.record({
  spec: specArb,
  frozen: fc.boolean(),
  styled: fc.boolean(),
});
const stepArb = fc.record({
  picks: fc.array(fc.nat(), { maxLength: 3 }),
  placed: fc.array(fc.record({ part: fc.nat(), wrapped: fc.boolean() }), { maxLength: 4 }),
  before: fc.boolean(),
});

/** A part's element: its spec built, in a section that carries a style prop when `styled`. */
function partOf(part: { spec: Spec; styled: boolean }): UiElement {
  return h("section", part.styled ? { class: "part", hover: { color: "red" } } : { class: "part" }, build(part.spec));
}

/** The page of one step: the random tree and the parts in the step's places. */
function page(tree: UiElement, parts: readonly UiElement[], step: Step): UiElement {
  const placed = step.placed.map(({ part, wrapped }) => {
    const el = parts[part % parts.length]!;
    return wrapped ? h("div", { class: "wrap" }, el) : el;
  });
  return step.before ? h("main", {}, ...placed, tree) : h("main", {}, tree, ...placed);
}

test("property: parts built once, frozen or styled, placed anywhere render after render, render and patch as fresh builds", () => {
  fc.assert(
    fc.property(
      fc.array(partArb, { minLength: 1, maxLength: 3 }),
      specArb,
      fc.array(stepArb, { minLength: 2, maxLength: 5 }),
      (partSpecs, treeSpec, steps) => {
        // Built once, as an app's constants: the same objects in every render of the session.
        const shared = partSpecs.map((p) => (p.frozen ? deepFreeze(partOf(p)) : partOf(p)));
        const specs: Spec[] = [treeSpec];
        for (const step of steps.slice(1)) {
          specs.push(step.picks.length === 0 ? specs[specs.length - 1]! : mutate(specs[specs.length - 1]!, step.picks));
        }
        const memo = new RenderState();
        const sessionView = (i: number) => renderWith(memo, () => page(build(specs[i]!), shared, steps[i]!));
        // Fresh: every element built anew, parts too.
        const freshView = (i: number) => page(build(specs[i]!), partSpecs.map(partOf), steps[i]!);

        let kept = assignIds(sessionView(0));
        let freshKept = assignIds(freshView(0));
        assert.equal(render(kept), render(freshKept));
        const dom = parse(render(kept));
        for (let i = 1; i < steps.length; i++) {
          const next = assignIds(sessionView(i));
          const freshNext = assignIds(freshView(i));
          assert.equal(render(next), render(freshNext), `render ${i}`);
          const diffed = diffTrees(kept, next);
          assert.deepEqual(diffed.patches, diffTrees(freshKept, freshNext).patches, `patches ${i}`);
          applyPatches(dom, diffed.patches);
          assert.deepEqual(canon(dom), canon(parse(render(freshNext))), `page after patches ${i}`);
          // The tree a session keeps: the diff's, whose equal parts are the older objects.
          assert.equal(render(diffed.tree), render(freshNext), `kept tree ${i}`);
          kept = diffed.tree;
          freshKept = freshNext;
        }
      },
    ),
    { seed, numRuns: 300 },
  );
});
