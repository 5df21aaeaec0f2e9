/**
 * The id walk takes the rows of a long list as uniquely keyed without comparing their keys when
 * they are the rows of a list found to share no key in the previous render, but for rows of the
 * same tag and key (src/live/shared-keys.ts keysAsBefore), for `Ui.each` lists and keyed lists:
 * over lists longer than the walk's scan (17 to 40 rows), whose keys may repeat or meet once
 * sanitised ("b b" and "b_b"), edited render after render, placed alone, beside a keyed sibling
 * that may hold a row's key, or reordered and cut by the view after `Ui.each` returned them, every
 * id, handler and attribute of the session's tree is the one the same page gets without `Ui.each`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diffTrees } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { RenderState, renderWith } from "../../src/live/render-state/render-state.ts";
import { SessionRender } from "../../src/live/server/session/render.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { elementsOf } from "../support/tree-elements.ts";

type Item = { readonly key: string | number; readonly text: string };
/** Where the page puts the list: alone, after a keyed sibling, or reversed and cut by the view. */
type Placing = "alone" | "sibling" | "reordered";
type Model = { readonly items: readonly Item[]; readonly placing: Placing; readonly siblingKey: string | number };

type List = (items: readonly Item[], key: (item: Item) => string | number, row: (item: Item) => UiElement) => UiElement[];
const plainList: List = (items, key, row) => items.map((item) => Ui.keyed(key(item), row(item)));

const row = (it: Item) =>
  Ui.h("tr", {}, Ui.h("td", {}, it.text), Ui.h("td", {}, Ui.h("button", { onClick: ["Pick", String(it.key)] }, "pick")));
const keyOfItem = (it: Item) => it.key;

function pageOf(list: List) {
  return (m: Model) => {
    let rows = list(m.items, keyOfItem, row);
    if (m.placing === "reordered") rows = rows.slice(1).reverse();
    const sibling = m.placing === "sibling" ? [Ui.keyed(m.siblingKey, Ui.h("tr", {}, "head"))] : [];
    return Ui.h("main", {}, Ui.h("table", {}, Ui.h("tbody", {}, ...sibling, ...rows)));
  };
}
const eachPage = pageOf(Ui.each);
const plainPage = pageOf(plainList);

/** Keys: mostly the item's own number, sometimes one of a few that repeat or meet once sanitised. */
const keyArb = (n: number) =>
  fc.oneof({ weight: 6, arbitrary: fc.constant<string | number>(n) }, {
    weight: 1,
    arbitrary: fc.constantFrom<string | number>("b b", "b_b", 3, "3", "x"),
  });
const itemArb = (n: number) => fc.record({ key: keyArb(n), text: fc.constantFrom("a", "b", "c") });
const itemsArb = fc.integer({ min: 17, max: 40 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => itemArb(i + 1))));

const editArb = fc.oneof(
  fc.record({ kind: fc.constant("text" as const), at: fc.nat(), text: fc.constantFrom("a", "b", "z") }),
  fc.record({ kind: fc.constant("key" as const), at: fc.nat(), key: keyArb(1000) }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), item: itemArb(500) }),
  fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("move" as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant("placing" as const), placing: fc.constantFrom<Placing>("alone", "sibling", "reordered") }),
  fc.record({ kind: fc.constant("sibling" as const), key: fc.constantFrom<string | number>(1, 2, "b_b", "head") }),
  fc.record({ kind: fc.constant("same" as const) }),
);
type Edit = typeof editArb extends fc.Arbitrary<infer E> ? E : never;

function applyEdit(m: Model, e: Edit): Model {
  const items = m.items.slice();
  const n = items.length;
  switch (e.kind) {
    case "text":
      items[e.at % n] = { ...items[e.at % n]!, text: e.text };
      return { ...m, items };
    case "key":
      items[e.at % n] = { ...items[e.at % n]!, key: e.key };
      return { ...m, items };
    case "insert":
      items.splice(e.at % (n + 1), 0, e.item);
      return { ...m, items };
    case "remove":
      if (n > 17) items.splice(e.at % n, 1);
      return { ...m, items };
    case "move":
      items.splice(e.to % n, 0, ...items.splice(e.from % n, 1));
      return { ...m, items };
    case "placing":
      return { ...m, placing: e.placing };
    case "sibling":
      return { ...m, siblingKey: e.key };
    case "same":
      return { ...m };
  }
}

const modelArb: fc.Arbitrary<Model> = fc.record({
  items: itemsArb,
  placing: fc.constantFrom<Placing>("alone", "sibling", "reordered"),
  siblingKey: fc.constantFrom<string | number>(1, "b_b", "head"),
});

test("the rows of a long list, of Ui.each or kept by a session, get the ids of the same rows built afresh, whatever their keys and wherever the view puts them", () => {
  let renders = 0;
  fc.assert(
    fc.property(modelArb, fc.array(editArb, { minLength: 1, maxLength: 10 }), (start, chain) => {
      const memo = new RenderState();
      let model = start;
      let kept = assignIds(renderWith(memo, () => eachPage(model)));
      assert.deepEqual(elementsOf(kept), elementsOf(assignIds(plainPage(model))));
      // The plain page as a session renders it: its memo hands unchanged rows back, folded.
      const session = new SessionRender<Model>(plainPage);
      session.keep(session.render(model));
      for (const edit of chain) {
        model = applyEdit(model, edit);
        const next = assignIds(renderWith(memo, () => eachPage(model)));
        const plain = assignIds(plainPage(model));
        assert.deepEqual(elementsOf(next), elementsOf(plain), JSON.stringify(edit));
        const { tree } = diffTrees(kept, next);
        assert.equal(render(tree), render(plain));
        kept = tree;
        const sessionNext = session.render(model);
        assert.deepEqual(elementsOf(sessionNext), elementsOf(plain), `session: ${JSON.stringify(edit)}`);
        session.keep(diffTrees(session.kept!, sessionNext).tree);
        assert.deepEqual(elementsOf(session.kept!), elementsOf(plain), `kept: ${JSON.stringify(edit)}`);
        renders++;
      }
    }),
    { numRuns: 150 },
  );
  assert.ok(renders >= 500, `${renders} renders`);
});
