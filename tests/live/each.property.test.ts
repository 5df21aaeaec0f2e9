/**
 * Ui.each (src/ui/each.ts) against the same page written without it (`Ui.keyed` over a map): over
 * random lists edited as an app edits its model (untouched items stay the same objects; edited,
 * inserted, removed, moved, duplicated keys), every render, every patch, the tree a session keeps,
 * its message set and the page the patches make are the plain page's. Pages hold nested lists,
 * rows with injected styles, raw HTML, select options and inputs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diff, diffTrees } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { findElement } from "../../src/live/tree.ts";
import { messagesOf } from "../../src/live/server/session/step.ts";
import { RenderState, renderWith } from "../../src/live/render-state/render-state.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { applyPatches } from "../support/apply.ts";
import { canon, parse } from "../support/dom.ts";
import { elementsOf } from "../support/tree-elements.ts";

type Sub = { readonly id: number; readonly text: string };
type Item = { readonly id: number; readonly text: string; readonly qty: number; readonly done: boolean; readonly subs: readonly Sub[] };
/** `unkeyed`: the page also lists the first items as rows without keys. */
type Model = { readonly title: string; readonly items: readonly Item[]; readonly pick: string; readonly unkeyed: boolean };

/** How a page writes a list: `Ui.each`, or `Ui.keyed` over a map (the same page without it). */
type List = <T>(items: readonly T[], key: (item: T) => string | number, row: (item: T) => UiElement) => UiElement[];
const plainList: List = (items, key, row) => items.map((item) => Ui.keyed(key(item), row(item)));

const subRow = (s: Sub) => Ui.h("li", { class: "sub" }, s.text, Ui.h("button", { onClick: ["DropSub", s.id] }, "x"));

function rowsOf(list: List) {
  const tableRow = (it: Item) =>
    Ui.h(
      "tr",
      { class: it.done ? "done" : undefined },
      Ui.h("td", {}, `item ${it.id} `, it.text),
      Ui.h("td", {}, Ui.h("input", { type: "number", name: "qty", value: String(it.qty), onInput: ["SetQty", it.id] })),
      Ui.h("td", {}, Ui.h("input", { type: "checkbox", name: "done", checked: it.done, onChange: ["Toggle", it.id] })),
      Ui.h("td", {}, Ui.raw(`<i>${it.qty * 3}</i>`)),
      Ui.h("td", {}, Ui.h("ul", {}, list(it.subs, (s) => s.id, subRow))),
    );
  const styledRow = (it: Item) => Ui.h("div", {}, Ui.h("b", { hover: { color: it.qty > 1 ? "red" : "blue" } } as never, it.text || "-"));
  const option = (it: Item) => Ui.h("option", { value: it.text }, it.text === "" ? "none" : it.text);
  return { tableRow, styledRow, option };
}

function pageOf(list: List) {
  const { tableRow, styledRow, option } = rowsOf(list);
  return (m: Model) =>
    Ui.h(
      "main",
      {},
      Ui.h("h1", {}, m.title),
      Ui.h("table", {}, Ui.h("tbody", {}, list(m.items, (it) => it.id, tableRow))),
      Ui.h("section", {}, list(m.items, (it) => `s-${it.id}`, styledRow)),
      Ui.h("select", { name: "pick", value: m.pick }, list(m.items, (it) => it.id, option)),
      m.unkeyed && Ui.h("p", {}, "unkeyed: ", ...list(m.items.slice(0, 3), () => "", (it) => Ui.h("span", {}, it.text))),
    );
}

const eachPage = pageOf(Ui.each);
const plainPage = pageOf(plainList);

const textArb = fc.constantFrom("a", "b", "c <d>", "");
const subArb = fc.record({ id: fc.integer({ min: 1, max: 4 }), text: textArb });
const itemArb = (id: number) =>
  fc.record({
    id: fc.constant(id),
    text: textArb,
    qty: fc.integer({ min: 0, max: 3 }),
    done: fc.boolean(),
    subs: fc.uniqueArray(subArb, { selector: (s) => s.id, maxLength: 3 }),
  });

/** An edit of the model, as an app's update makes one: what it does not touch stays the same object. */
const editArb = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), at: fc.nat(), qty: fc.integer({ min: 0, max: 3 }), text: textArb }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), item: itemArb(0), id: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("move" as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant("reverse" as const) }),
  fc.record({ kind: fc.constant("subs" as const), at: fc.nat(), subs: fc.uniqueArray(subArb, { selector: (s) => s.id, maxLength: 3 }) }),
  fc.record({ kind: fc.constant("same" as const) }),
  fc.record({ kind: fc.constant("title" as const), title: fc.constantFrom("Orders", "Orders & more") }),
  fc.record({ kind: fc.constant("pick" as const), at: fc.nat() }),
);
type Edit = typeof editArb extends fc.Arbitrary<infer E> ? E : never;

function applyEdit(m: Model, e: Edit): Model {
  const items = m.items.slice();
  const n = items.length;
  switch (e.kind) {
    case "set":
      if (n > 0) items[e.at % n] = { ...items[e.at % n]!, qty: e.qty, text: e.text };
      return { ...m, items };
    case "insert":
      // The id may repeat one in the list: keys shared by siblings keep their index in their ids.
      items.splice(e.at % (n + 1), 0, { ...e.item, id: e.id });
      return { ...m, items };
    case "remove":
      if (n > 0) items.splice(e.at % n, 1);
      return { ...m, items };
    case "move":
      if (n > 0) items.splice(e.to % n, 0, ...items.splice(e.from % n, 1));
      return { ...m, items };
    case "reverse":
      return { ...m, items: items.reverse() };
    case "subs":
      if (n > 0) items[e.at % n] = { ...items[e.at % n]!, subs: e.subs };
      return { ...m, items };
    case "same":
      return { ...m };
    case "title":
      return { ...m, title: e.title };
    case "pick":
      return { ...m, pick: n === 0 ? "" : items[e.at % n]!.text };
  }
}

const modelArb: fc.Arbitrary<Model> = fc
  .tuple(fc.integer({ min: 0, max: 8 }), fc.boolean())
  .chain(([n, unkeyed]) => fc.tuple(fc.constant(unkeyed), ...Array.from({ length: n }, (_, i) => itemArb(i + 1))))
  .map(([unkeyed, ...items]) => ({ title: "Orders", items, pick: "", unkeyed }));

/** Whether two items of the list have the same id, hence their rows the same key. */
function sharesKeys(items: readonly Item[]): boolean {
  return new Set(items.map((it) => it.id)).size < items.length;
}

test("a page of Ui.each lists renders, diffs and keeps its tree as the same page written with Ui.keyed over a map", () => {
  let edits = 0;
  let exact = 0;
  fc.assert(
    fc.property(modelArb, fc.array(editArb, { minLength: 1, maxLength: 12 }), (start, chain) => {
      const memo = new RenderState();
      let model = start;
      let kept = assignIds(renderWith(memo, () => eachPage(model)));
      let plainKept = assignIds(plainPage(model));
      const page = parse(render(kept));
      for (const edit of chain) {
        const before = model;
        model = applyEdit(model, edit);
        edits++;
        const next = assignIds(renderWith(memo, () => eachPage(model)));
        const plainNext = assignIds(plainPage(model));
        const { patches, tree } = diffTrees(kept, next);
        // Rows without a key or that share one are told apart by their index, and matching breaks
        // ties between such rows by content, which it reads of a plain row but not of a row kept
        // as its call (src/live/match.ts sameContent): there, and on the next edit, the patches
        // may pair rows otherwise, and must still make the same page.
        if (!model.unkeyed && !sharesKeys(model.items) && !sharesKeys(before.items)) {
          assert.deepEqual(patches, diff(plainKept, plainNext), JSON.stringify(edit));
          exact++;
        }
        applyPatches(page, patches);
        assert.deepEqual(canon(page), canon(parse(render(plainNext))));
        // The tree the session keeps answers what the plain page's does: markup, ids, handlers, messages.
        assert.equal(render(tree), render(plainNext));
        assert.deepEqual(elementsOf(tree), elementsOf(plainNext));
        assert.deepEqual([...messagesOf(tree)].sort(), [...messagesOf(plainNext)].sort());
        for (const [id] of elementsOf(plainNext)) assert.ok(findElement(tree, id) !== undefined, id);
        kept = tree;
        plainKept = plainNext;
      }
    }),
    { numRuns: 300 },
  );
  assert.ok(edits >= 1000, `${edits} edits`);
  assert.ok(exact >= 300, `${exact} edits compared patch for patch`);
});
