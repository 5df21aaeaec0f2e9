// The split client against the live client (docs/protocol.md#the-split-client), over random view
// trees and random edits (tests/support/trees.ts) diffed by the server's diff: frame after
// frame, the split client's DOM is exactly the live client's, and its tree is exactly the render.
// Then the same with a script removing, before each frame, elements the frame keeps or addresses:
// the split client rebuilds them from its tree, with no desync, and still ends exactly as the
// render, where the live client would resync. FC_SEED replays a run.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Window } from "happy-dom";
import { diff } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import type { LiveTree } from "../../src/live/tree.ts";
import { ID_ATTR, type Patch } from "../../src/protocol/mod.ts";
import { Applier } from "../../client/apply.ts";
import { fillPage } from "../../client/dom.ts";
import { InputTable } from "../../client/inputs.ts";
import { SplitApplier } from "../../client/split/apply.ts";
import { markupOf } from "../../client/split/tree.ts";
import { canon, domSettled } from "../support/dom.ts";
import { build, mutate, type Spec, specArb } from "../support/trees.ts";

const seed = Number(process.env["FC_SEED"] ?? Date.now() % 2 ** 31);
console.log(`split client property: fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

const win = new Window({ url: "http://app.test/" });
const doc = win.document as unknown as Document;

/** A page holding `markup` as its root, with ids filled in, and an applier of each kind over it. */
function pageOf(markup: string) {
  const body = doc.createElement("body");
  body.innerHTML = markup;
  // A document of its own per page: ids are looked up document-wide.
  const own = doc.implementation.createHTMLDocument("");
  own.body.replaceWith(own.importNode(body, true));
  fillPage(own);
  return own;
}

const rootOf = (d: Document) => d.querySelector(`[${ID_ATTR}="r"]`) as Element;

/** The render's markup as the DOM holds it. */
function rendered(tree: LiveTree): unknown {
  return canon(rootOf(pageOf(render(tree))));
}

/** The ids a frame keeps or addresses, which a script may take out of the DOM before it applies. */
function touched(patches: readonly Patch[]): string[] {
  // A patch after a move names its element by its new id, which before the frame may be another
  // element's, one no patch of the frame touches (seed 624529178: a form's kept line, removed as
  // the line of the form that took its id). Ids at or below a new id are left out.
  const movedTo: string[] = [];
  for (const patch of patches) {
    for (const entry of patch.kids ?? []) if ("id" in entry && entry.id !== entry.keep) movedTo.push(entry.id);
  }
  const named = (id: string) => !movedTo.some((to) => id === to || id.startsWith(`${to}.`));
  const ids: string[] = [];
  for (const patch of patches) {
    if (patch.id !== "r" && named(patch.id)) ids.push(patch.id);
    for (const entry of patch.kids ?? []) if ("keep" in entry && named(entry.keep)) ids.push(entry.keep);
  }
  return ids;
}

const stepsArb = fc.tuple(specArb, fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }));

function trees([spec, edits]: [Spec, number[][]]): LiveTree[] {
  const out = [assignIds(build(spec))];
  let current = spec;
  for (const picks of edits) {
    current = mutate(current, picks);
    out.push(assignIds(build(current)));
  }
  return out;
}

// Async, a turn of the event loop between runs: happy-dom holds every parsed page with a `<select>`
// until a task it queued has run, and 300 runs in one synchronous loop ran a Deno test process out
// of its 4 GB heap (tests/support/dom.ts domSettled).
test("frame after frame, the split client's DOM is the live client's and its tree is the render", async () => {
  await fc.assert(
    fc.asyncProperty(stepsArb, async (steps) => {
      await domSettled();
      const [first, ...rest] = trees(steps);
      const livePage = pageOf(render(first!));
      const splitPage = pageOf(render(first!));
      const live = new Applier(livePage, new InputTable(livePage));
      const split = new SplitApplier(splitPage, new InputTable(splitPage));
      let prev = first!;
      rest.forEach((next, i) => {
        const patches = diff(prev, next);
        live.patches(patches, i + 1);
        split.patches(patches, i + 1);
        assert.deepEqual(canon(rootOf(splitPage)), canon(rootOf(livePage)));
        assert.deepEqual(canon(rootOf(pageOf(markupOf(splitPage, split.tree.root!)))), rendered(next));
        prev = next;
      });
      assert.equal(split.rebuilt, 0);
    }),
    { seed, numRuns: 300 },
  );
});

test("with kept and addressed elements removed from the DOM before each frame, the split client rebuilds them and ends as the render", async () => {
  let removedAny = 0;
  await fc.assert(
    fc.asyncProperty(stepsArb, fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), async (steps, picks) => {
      await domSettled();
      const [first, ...rest] = trees(steps);
      const page = pageOf(render(first!));
      const split = new SplitApplier(page, new InputTable(page));
      let prev = first!;
      rest.forEach((next, i) => {
        const patches = diff(prev, next);
        const ids = touched(patches);
        let removed = 0;
        for (const pick of picks) {
          if (ids.length === 0) break;
          const el = page.querySelector(`[${ID_ATTR}="${ids[pick % ids.length]}"]`);
          if (el === null) continue;
          el.remove();
          removed++;
        }
        removedAny += removed;
        split.patches(patches, i + 1);
        // Every element a patch touched is back, so the page is the render wherever a frame reached;
        // an element removed whose only patch was its removal stays out, as in the render.
        assert.deepEqual(canon(rootOf(pageOf(markupOf(page, split.tree.root!)))), rendered(next));
        assert.deepEqual(canon(rootOf(page)), rendered(next));
        prev = next;
      });
    }),
    { seed, numRuns: 300 },
  );
  assert.ok(removedAny > 100, `the runs removed elements (${removedAny})`);
});
