/**
 * The check the memoised views (Ui.lazy, Ui.html) are held to: a chain of a session's renders,
 * each with the session's memo, diffs and renders exactly as fresh builds of the
 * same view do, and its patches turn the first page into each next one.
 */
import assert from "node:assert/strict";
import { diff } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { RenderState, renderWith } from "../../src/live/render-state/render-state.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { applyPatches } from "./apply.ts";
import { canon, parse } from "./dom.ts";

export function assertRendersLikeFresh<M>(models: readonly M[], sessionView: (m: M) => UiElement, freshView: (m: M) => UiElement): void {
  const memo = new RenderState();
  let kept = assignIds(renderWith(memo, () => sessionView(models[0]!)));
  let freshKept = assignIds(freshView(models[0]!));
  const page = parse(render(kept));
  for (const model of models.slice(1)) {
    const next = assignIds(renderWith(memo, () => sessionView(model)));
    const freshNext = assignIds(freshView(model));
    const patches = diff(kept, next);
    assert.deepEqual(patches, diff(freshKept, freshNext));
    assert.equal(render(next), render(freshNext));
    applyPatches(page, patches);
    assert.deepEqual(canon(page), canon(parse(render(freshNext))));
    [kept, freshKept] = [next, freshNext];
  }
}
