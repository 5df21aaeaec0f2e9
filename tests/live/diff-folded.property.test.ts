/**
 * The diff's defining property (tests/live/diff.property.test.ts) over a session's folded page
 * (src/live/render-state/fold/fold-tree.ts): a session that renders a random tree and keeps it, its small
 * subtrees folded, then renders edited trees one event after another (each render's calls matched
 * against the folds the event before kept), must patch, render and diff exactly as fresh builds of
 * the same trees without a session (tests/support/folds.ts). Between events the kept page is read
 * (a resync's render, a diff) or not, so folds are matched both after they built their subtree
 * again and without.
 *
 * Folds share their shapes across sessions (src/live/render-state/fold/shape.ts), so a failing case may need the
 * cases before it: FC_SEED replays the whole run.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diff, diffTrees } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { KEPT_AS_BUILT_PER_KEEP } from "../../src/live/render-state/fold/fold-tree.ts";
import { SessionRender } from "../../src/live/server/session/render.ts";
import { releaseWarmParts } from "../../src/live/render-state/lazy-part.ts";
import { h, keyed, type UiElement } from "../../src/ui/node.ts";
import { domSettled } from "../support/dom.ts";
import { assertFoldedSessionLikeFresh, type Read, same, type SessionEvent } from "../support/folds.ts";
import { build, mutate, type Spec, specArb } from "../support/trees.ts";

const seed = Number(process.env["FC_SEED"] ?? Date.now() % 2 ** 31);
console.log(`diff-folded property: fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

/**
 * A wider page: several random trees under one root, so that some pages are larger than a fold
 * holds (src/live/render-state/fold/tape-write.ts FOLD_MAX_CALLS) and keep a spine of elements above their folds.
 */
const pageArb: fc.Arbitrary<Spec> = fc.array(specArb, { minLength: 2, maxLength: 10 })
  .map((kids): Spec => ({ tag: "div", ctx: "flow", attrs: {}, kids }));

/** One event: the edits of the tree (none: the same page again), and what reads the kept page after it. */
const stepArb = fc.record({
  picks: fc.oneof(
    { weight: 5, arbitrary: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }) },
    { weight: 1, arbitrary: fc.constant<readonly number[]>([]) },
  ),
  read: fc.constantFrom<Read>("none", "render", "diff"),
});

/** The events of a sequence of edits, each applied to the tree the one before made. */
function eventsOf(first: Spec, steps: readonly { picks: readonly number[]; read: Read }[]): SessionEvent<Spec>[] {
  let spec = first;
  return steps.map((step) => ({ model: spec = mutate(spec, step.picks), read: step.read }));
}

test("a session's folded page patches, renders and diffs as fresh builds, event after event", async () => {
  // Half the sessions fold every subtree at each keep, half leave what a render built as built
  // until later renders hand it back unchanged, as a live session does (src/live/render-state/fold/fold-tree.ts).
  const seen = { eager: 0, folded: 0, matched: 0, deferred: 0, foldedLater: 0 };
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(specArb, pageArb),
      fc.array(stepArb, { minLength: 1, maxLength: 6 }),
      fc.constantFrom(0, KEPT_AS_BUILT_PER_KEEP),
      async (first, steps, keptAsBuilt) => {
        const { folded, matched } = assertFoldedSessionLikeFresh(first, eventsOf(first, steps), build, build, keptAsBuilt);
        if (keptAsBuilt === 0) {
          seen.eager++;
          if (folded) seen.folded++;
          if (matched) seen.matched++;
        } else {
          seen.deferred++;
          if (folded) seen.foldedLater++;
        }
        await domSettled();
      },
    ),
    { seed, numRuns: 250, includeErrorInReport: true },
  );
  console.log(
    `diff-folded property: ${seen.folded} of ${seen.eager} cases folding at once folded, ${seen.matched} had a render hand back a kept fold; ` +
      `${seen.foldedLater} of ${seen.deferred} cases keeping what a render built folded later`,
  );
  // The property says something of folded pages only if pages were folded, and folds matched by the next render.
  assert.ok(seen.folded >= seen.eager / 2, `only ${seen.folded} of ${seen.eager} cases folded anything`);
  assert.ok(seen.matched >= seen.eager / 3, `only ${seen.matched} of ${seen.eager} cases had a render hand back a kept fold`);
  assert.ok(seen.foldedLater >= seen.deferred / 5, `only ${seen.foldedLater} of ${seen.deferred} deferring cases folded later`);
});

test("a session's folded page diffed against a render of the same page gives no patches", () => {
  fc.assert(
    fc.property(fc.oneof(specArb, pageArb), fc.integer({ min: 1, max: 3 }), (spec, events) => {
      const session = new SessionRender<Spec>(build, { keptAsBuilt: 0 });
      session.keep(session.render(spec));
      for (let i = 0; i < events; i++) {
        // A copy of the tree: the same calls, made of other objects.
        const { patches, tree } = diffTrees(session.kept!, session.render(structuredClone(spec)));
        same(patches, [], `event ${i}: against the session's render`);
        session.keep(tree);
        releaseWarmParts(); // what the folds built for the event: the diff below reads their tapes
        same(diff(session.kept!, assignIds(build(spec))), [], `event ${i}: against a fresh build`);
      }
    }),
    { seed, numRuns: 150, includeErrorInReport: true },
  );
});

/** The events of a view over a list of models, each read as a resync would after it. */
const eventsFor = <M>(models: readonly M[]): SessionEvent<M>[] => models.map((model) => ({ model, read: "render" }));

/** The check, in a session that folds at each keep and in one that leaves what a render built as built for a while. */
function likeFreshBothWays<M>(first: M, events: readonly SessionEvent<M>[], view: (model: M) => UiElement): void {
  for (const keptAsBuilt of [0, KEPT_AS_BUILT_PER_KEEP]) assertFoldedSessionLikeFresh(first, events, view, view, keptAsBuilt);
}

// Cases the properties here and in tests/live/lazy-parts.property.test.ts found, written out.

test("an element with style props whose attributes changed keeps its injected styles on the next events", () => {
  // The diff keeps a copy of the changed element (src/live/tree.ts withKids), which must still be
  // an element with style props to the fold pass and to the next render.
  const view = (cls: string) => h("main", {}, h("p", { class: cls, hover: { color: "red" } }, "x"));
  likeFreshBothWays("b", eventsFor(["a", "a", "a"]), view);
});

test("a subtree with injected styles placed under a renamed parent names its new ids in its styles", () => {
  // The form changes (its input), then its parent loses its key: the form the next render gets back
  // holds styles whose CSS names whole ids, which must be those of its new place.
  type M = { key: boolean; value: string };
  const view = (m: M) => {
    const div = h(
      "div",
      {},
      h("form", { name: "f" }, h("ul", { hover: { color: "red" } }, h("li", {}, "x")), h("input", { name: "t", value: m.value })),
    );
    return h("main", {}, m.key ? keyed("b", div) : div);
  };
  likeFreshBothWays({ key: true, value: "a" }, eventsFor([{ key: true, value: "b" }, { key: false, value: "b" }]), view);
});

test("a fold keyed from outside (Ui.keyed of a call that matched a fold) is not handed back for the call without the key", () => {
  const pages: (() => UiElement)[] = [
    () => h("main", {}, h("div", {}), h("div", {}), h("div", {})),
    () => h("main", {}, keyed("a", h("div", {})), h("div", {}), h("div", {})),
    () => h("main", {}, h("div", {}), h("div", {})),
  ];
  const view = (i: number) => pages[i]!();
  likeFreshBothWays(0, eventsFor([1, 2]), view);
});

test("a keyed list folded in many sessions keeps each fold's keys", () => {
  // Every session shows the same rows, so the first folds of the list's shape agree on their keys
  // as on their other values (src/live/render-state/fold/shape.ts refinedShape); a key tells rows apart and is
  // never a constant, and the folds made after must replay theirs. The attribute makes the shape
  // this test's own, whatever other tests folded before.
  const view = (texts: string[]) =>
    h("main", {}, h("ul", {}, ...texts.map((t, i) => keyed(String(i), h("li", { "data-case": "shared-keys" }, t)))));
  for (let session = 0; session < 6; session++) {
    likeFreshBothWays(["a", "b"], [{ model: ["a", "b"], read: "render" }, { model: ["b", "a"], read: "diff" }], view);
  }
});
