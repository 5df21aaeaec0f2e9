/**
 * The check the property tests over a session's folded page hold it to (src/live/render-state/fold/fold-tree.ts):
 * a session that renders, diffs and keeps its page event after event, as a live session does
 * (src/live/server/session/step.ts), its kept page folded after each event and each render's calls
 * matched against the folds, patches, renders and diffs exactly as fresh builds of the same views
 * without a session. And what such a test reads of a tree: its folds and its lazy parts.
 *
 * Folds share their shapes across sessions (src/live/render-state/fold/shape.ts): what a case folds depends on
 * the cases before it, so a failing case is replayed with the whole run (FC_SEED), not alone.
 */
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { diff, diffTrees } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { SessionRender } from "../../src/live/server/session/render.ts";
import type { LiveElement, LiveTree } from "../../src/live/tree.ts";
import { FoldPart } from "../../src/live/render-state/fold/fold-part.ts";
import { Part, releaseWarmParts } from "../../src/live/render-state/lazy-part.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { applyPatches } from "./apply.ts";
import { canon, parse } from "./dom.ts";

/**
 * The folds and the other parts (`Ui.lazy`, `Ui.each`) of a tree, in document order. The walk
 * stops at a part: a fold's kids would be its tape replayed, and a lazy part's subtree is never
 * folded (the folding pass stops there too).
 */
export function partsIn(tree: LiveTree): { folds: FoldPart[]; parts: Part[] } {
  const folds: FoldPart[] = [];
  const parts: Part[] = [];
  const walk = (el: LiveElement) => {
    for (const kid of el.kids) {
      if (kid instanceof FoldPart) folds.push(kid);
      else if (kid instanceof Part) parts.push(kid);
      else if (kid.kind === "el") walk(kid);
    }
  };
  walk(tree.root); // never a part: a part at a page's root is walked as its element (src/live/ids.ts)
  return { folds, parts };
}

/** Fails with both values written out (assert's own diff of a long patch list leaves lines out). */
export function same(actual: unknown, expected: unknown, what: string): void {
  if (!isDeepStrictEqual(actual, expected)) {
    assert.fail(`${what}\n  got:      ${JSON.stringify(actual)}\n  expected: ${JSON.stringify(expected)}`);
  }
}

/**
 * What reads the kept page between two events: nothing, a resync (its render), or a diff against a
 * fresh build of the same model (which gives no patches). Each reads the folds' tapes (what they
 * built for the event is released first) and builds what it reads again until the next render.
 */
export type Read = "none" | "render" | "diff";

/** One event of a session: the model it renders, and what reads the kept page after it. */
export type SessionEvent<M> = { readonly model: M; readonly read?: Read };

/** What a sequence did: whether the kept page held folds after some event, and whether a render handed back a fold kept before. */
export type FoldsSeen = { readonly folded: boolean; readonly matched: boolean };

/**
 * Renders `first` in a session of `sessionView` and keeps it, then each event's model in turn: the
 * render diffed against the kept page, the diff's tree kept (and folded), as a session does. Each
 * event's patches must be those of fresh builds of `freshView` (no session, no memo), turn the
 * client's page into the fresh render, and give none when the model renders the same page; the kept
 * page must render as the fresh one and diff against it with no patches (checked after the events
 * that read it, and after the last). `keptAsBuilt`: the session's (src/live/render-state/fold/fold-tree.ts); 0
 * folds every subtree it can at each keep.
 */
export function assertFoldedSessionLikeFresh<M>(
  first: M,
  events: readonly SessionEvent<M>[],
  sessionView: (model: M) => UiElement,
  freshView: (model: M) => UiElement,
  keptAsBuilt?: number,
): FoldsSeen {
  let folded = false, matched = false;
  const session = new SessionRender<M>(sessionView, { keptAsBuilt });
  session.keep(session.render(first));
  if (partsIn(session.kept!).folds.length > 0) folded = true;
  let model = first;
  let freshKept = assignIds(freshView(model));
  const page = parse(render(freshKept)); // the client's page, patched event after event
  const read = (how: Read, when: string) => {
    // Between events the folds hold nothing they built (another session's render released them):
    // what reads the page reads their tapes.
    if (how !== "none") releaseWarmParts();
    if (how === "render") {
      same(render(session.kept!), render(assignIds(freshView(model))), `${when}: the kept page renders as a fresh build`);
    }
    if (how === "diff") same(diff(session.kept!, assignIds(freshView(model))), [], `${when}: the kept page against a fresh build`);
  };
  events.forEach((event, i) => {
    const next = session.render(event.model);
    if (partsIn(next).folds.length > 0) matched = true;
    const { patches, tree } = diffTrees(session.kept!, next);
    const freshNext = assignIds(freshView(event.model));
    applyPatches(page, patches);
    const freshPage = parse(render(freshNext));
    if (!isDeepStrictEqual(canon(page), canon(freshPage))) {
      assert.fail(`event ${i}: the patched page is the fresh render\n  got:      ${page.innerHTML}\n  expected: ${freshPage.innerHTML}`);
    }
    same(patches, diff(freshKept, freshNext), `event ${i}: the patches are those of fresh builds`);
    session.keep(tree);
    model = event.model;
    freshKept = freshNext;
    if (partsIn(session.kept!).folds.length > 0) folded = true;
    read(event.read ?? "none", `after event ${i}`);
  });
  read("render", "after the last event");
  read("diff", "after the last event");
  return { folded, matched };
}
