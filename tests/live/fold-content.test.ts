/**
 * Two folds of the same content are the same content to child matching (src/live/diff/match.ts
 * sameContent), though their shapes differ: a fold made before its shape was refined with the
 * constants its family shares, and one made after (src/live/render-state/fold/shape.ts). Found by the folded-page
 * property (tests/live/diff-folded.property.test.ts, FC_SEED=587025514): an input inserted above
 * two equal inputs kept as such folds made the session pair them otherwise than fresh builds do.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { sameContent } from "../../src/live/diff/match.ts";
import { SessionRender } from "../../src/live/server/session/render.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { LiveElement } from "../../src/live/tree.ts";
import { partsIn } from "../support/folds.ts";

// Attribute names no other test uses, so that this file's folds start a shape family of their own.
const view = (value: string) =>
  Ui.h("main", {}, Ui.h("section", { "data-content-probe": "s" }, Ui.h("input", { name: "probe", value, "data-content-kind": "k" })));

test("folds of equal content with shapes made before and after refinement are equal content to child matching", () => {
  const folds = Array.from({ length: 8 }, () => {
    const session = new SessionRender<string>(view, { keptAsBuilt: 0 });
    session.keep(session.render("b"));
    const [fold] = partsIn(session.kept!).folds;
    assert.ok(fold !== undefined, "the section is kept as a fold");
    // A fold kept in a page is placed (its seg written): it stands there for its element.
    return fold as unknown as LiveElement & { readonly shape: unknown };
  });
  const first = folds[0]!, last = folds.at(-1)!;
  assert.notEqual(first.shape, last.shape, "the family's shape was refined between the first fold and the last");
  assert.equal(sameContent(first, last), true);
  assert.equal(sameContent(last, first), true);
  // And content that differs is still told apart.
  const other = new SessionRender<string>(view, { keptAsBuilt: 0 });
  other.keep(other.render("c"));
  assert.equal(sameContent(first, partsIn(other.kept!).folds[0]! as unknown as LiveElement), false);
});
