/**
 * findElement (src/live/tree.ts) on keyed lists: a keyed seg has no index, so a row is looked for
 * where it was last found, and scanned for when it is not there. Counted in the kids a look-up looks at, not
 * timed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assignIds } from "../../src/live/ids.ts";
import { findElement } from "../../src/live/tree.ts";
import { type RenderProbe, renderProbe } from "../../src/live/probe.ts";
import { Ui } from "../../src/ui/mod.ts";

const row = (id: number) => Ui.keyed(id, Ui.h("li", {}, Ui.h("input", { name: `qty-${id}`, value: String(id) })));
const list = (ids: readonly number[]) => assignIds(Ui.h("main", {}, Ui.h("ul", {}, ...ids.map(row))));
const qty = (id: number) => `r.0#ul.#li:${id}.#input:qty-${id}`;

/** The kids `find` looks at, counted by the probe it is given. */
function visits(find: (probe: RenderProbe) => unknown): number {
  const probe = renderProbe();
  find(probe);
  return probe.looked;
}

test("a keyed row of a long list is found again where it was found, without a scan of its siblings", () => {
  const ids = Array.from({ length: 2000 }, (_, i) => i + 1);
  const tree = list(ids);
  assert.equal(findElement(tree, qty(1500))?.attrs["value"], "1500");
  // Found at its place: a visit or two, in this tree and in the next render's.
  assert.ok(visits((probe) => findElement(tree, qty(1500), probe)) <= 3);
  const next = list(ids);
  assert.ok(visits((probe) => assert.equal(findElement(next, qty(1500), probe)?.attrs["value"], "1500")) <= 3);
});

test("a row that moved, a style beside a keyed owner and a key that is gone are found as a scan finds them", () => {
  const ids = Array.from({ length: 50 }, (_, i) => i + 1);
  const tree = list(ids);
  for (const id of ids) assert.equal(findElement(tree, qty(id))?.attrs["value"], String(id));
  // Reversed: every row's last place now holds another row, which is not taken for it.
  const reversed = list([...ids].reverse());
  for (const id of ids) assert.equal(findElement(reversed, qty(id))?.attrs["value"], String(id));
  assert.equal(findElement(reversed, qty(51)), undefined);
  assert.equal(findElement(reversed, "r.0#ul.#li:7")?.tag, "li");
  // A keyed element with a style prop: its style is its sibling, `<owner seg>.~<pass>`.
  const styled = assignIds(
    Ui.h("main", {}, Ui.h("div", {}, ...[1, 2, 3].map((id) => Ui.keyed(id, Ui.h("p", { hover: { color: "red" } }, `p${id}`))))),
  );
  const owner = findElement(styled, "r.0#div.#p:2");
  const style = findElement(styled, "r.0#div.#p:2.~pc");
  assert.equal(owner?.tag, "p");
  assert.equal(style?.tag, "style");
  assert.equal(findElement(styled, "r.0#div.#p:2"), owner, "the owner, found again at its place");
  assert.equal(findElement(styled, "r.0#div.#p:2.~pc"), style, "and its style");
});
