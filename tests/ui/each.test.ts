/**
 * Ui.each (src/ui/each.ts): a keyed list whose rows are built, walked and compared again only for
 * the items that changed. Counted in element visits (rows built, elements the id walk resolved,
 * pairs the diff compared), not timed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { diffTrees } from "../../src/live/diff/diff.ts";
import { assignIds, IdWalk } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { findElement, type LiveTree } from "../../src/live/tree.ts";
import { messagesOf } from "../../src/live/server/session/step.ts";
import { renderProbe } from "../../src/live/probe.ts";
import { RenderState, renderWith } from "../../src/live/render-state/render-state.ts";
import { LazyPart } from "../../src/live/render-state/lazy-part.ts";
import { Each, Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { app } from "../../src/live/server/mod.ts";
import { openTab } from "../support/live-harness.ts";

type Item = { readonly id: number; readonly qty: number; readonly done: boolean };

/** A row of five cells: a label, a price, a number input, a checkbox and a computed total. */
const itemRow = (item: Item) =>
  Ui.h(
    "tr",
    {},
    Ui.h("td", {}, `item ${item.id}`),
    Ui.h("td", {}, "3.00"),
    Ui.h("td", {}, Ui.h("input", { type: "number", name: "qty", value: String(item.qty), onInput: ["SetQty", item.id] })),
    Ui.h("td", {}, Ui.h("input", { type: "checkbox", name: "done", checked: item.done, onChange: ["Toggle", item.id] })),
    Ui.h("td", { class: "total" }, String(item.qty * 3)),
  );
const byId = (item: Item) => item.id;

const eachPage = (items: readonly Item[]) =>
  Ui.h("main", {}, Ui.h("p", {}, `${items.length} rows`), Ui.h("table", {}, Ui.h("tbody", {}, Ui.each(items, byId, itemRow))));
const keyedPage = (items: readonly Item[]) =>
  Ui.h(
    "main",
    {},
    Ui.h("p", {}, `${items.length} rows`),
    Ui.h("table", {}, Ui.h("tbody", {}, items.map((it) => Ui.keyed(it.id, itemRow(it))))),
  );

const itemsOf = (n: number): Item[] => Array.from({ length: n }, (_, i) => ({ id: i + 1, qty: i % 5, done: i % 3 === 0 }));

/** A session's chain of renders: the memo, and the tree the diff keeps. */
function session(view: (items: readonly Item[]) => UiElement) {
  const probe = renderProbe();
  const memo = new RenderState(probe);
  let kept: LiveTree | undefined;
  return {
    /** Renders `items`, diffs against the kept tree; the counts of this step. */
    step(items: readonly Item[]) {
      const { built, walked, compared } = probe;
      const next = new IdWalk(probe).tree(renderWith(memo, () => view(items)));
      const diffed = kept === undefined ? undefined : diffTrees(kept, next, undefined, probe);
      kept = diffed?.tree ?? next;
      return {
        patches: diffed?.patches ?? [],
        built: probe.built - built,
        walked: probe.walked - walked,
        compared: probe.compared - compared,
      };
    },
    get tree() {
      return kept!;
    },
  };
}

test("outside a session, each builds every row keyed by its item's key, as Ui.keyed over a map does", () => {
  const items = itemsOf(4);
  assert.equal(render(eachPage(items)), render(keyedPage(items)));
  const rows = Ui.each(items, byId, itemRow);
  assert.deepEqual(rows.map((r) => r.attrs["svc-key"]), ["1", "2", "3", "4"]);
  assert.ok(rows.every((r) => !(r instanceof LazyPart)));
});

test("an unchanged item's row is not built, walked or compared again: an event costs the rows it changed", () => {
  const s = session(eachPage);
  let items = itemsOf(2000);
  const first = s.step(items);
  assert.equal(first.built, 2000);
  for (const at of [5, 1500, 1999]) {
    items = items.slice();
    items[at] = { ...items[at]!, qty: 9 };
    const { built, walked, compared, patches } = s.step(items);
    assert.equal(built, 1, "the changed row only is built");
    // The changed row (tr, 5 td, 2 inputs: 8 elements), its previous version built again from
    // its call for the diff (8 more), and the elements above it (tbody, table, main, p): whatever
    // the list's length.
    assert.ok(walked <= 20, `the id walk resolved ${walked} elements`);
    // The diff counts a pair when its parent's walk meets it and again when it compares it: the
    // changed row's 8 pairs and the 4 above it, twice at most.
    assert.ok(compared <= 24, `the diff compared ${compared} pairs`);
    assert.deepEqual(patches.map((p) => p.id), [`r.1#table.0#tbody.#tr:${at + 1}.2#td.#input:qty`, `r.1#table.0#tbody.#tr:${at + 1}.4#td`]);
  }
  // An event that changes nothing in the list (the same items, a new array) walks none of it.
  const still = s.step(items.slice());
  assert.equal(still.built, 0);
  assert.ok(still.walked <= 4 && still.compared <= 4, `${still.walked} walked, ${still.compared} compared`);
  assert.deepEqual(still.patches, []);
});

test("rows inserted, removed and moved build the new rows only; the rest keep their parts", () => {
  const s = session(eachPage);
  const items = itemsOf(300);
  s.step(items);
  const added: Item = { id: 1000, qty: 1, done: false };
  const moved = [added, ...items.slice(0, 100), ...items.slice(150).reverse(), ...items.slice(101, 150)];
  const { built, patches } = s.step(moved);
  assert.equal(built, 1);
  const rebuiltAfterRemoval = s.step(moved.filter((it) => it.id % 2 === 0));
  assert.equal(rebuiltAfterRemoval.built, 0);
  assert.ok(patches.length > 0);
  // The page the session keeps is the page of the same items built afresh.
  assert.equal(render(s.tree), render(assignIds(keyedPage(moved.filter((it) => it.id % 2 === 0)))));
});

test("an item listed twice takes its row once; a new item under a key builds the row again", () => {
  const s = session(eachPage);
  const items = itemsOf(5);
  s.step(items);
  const twice = [items[0]!, items[1]!, items[1]!, items[2]!];
  assert.equal(s.step(twice).built, 1);
  assert.equal(render(s.tree), render(assignIds(keyedPage(twice))));
  const copies = items.map((it) => ({ ...it }));
  assert.equal(s.step(copies).built, 5, "every item is a new object");
  assert.equal(render(s.tree), render(assignIds(keyedPage(copies))));
});

test("the ids, handlers and messages inside rows that keep only their call are found, as on the page without each", () => {
  const s = session(eachPage);
  let items = itemsOf(50);
  s.step(items);
  items = items.slice();
  items[10] = { ...items[10]!, done: true };
  s.step(items);
  const plain = assignIds(keyedPage(items));
  for (const id of ["r.1#table.0#tbody.#tr:30.2#td.#input:qty", "r.1#table.0#tbody.#tr:11.3#td.#input:done"]) {
    assert.deepEqual(findElement(s.tree, id)?.handlers, findElement(plain, id)?.handlers, id);
    assert.deepEqual(findElement(s.tree, id)?.attrs, findElement(plain, id)?.attrs, id);
  }
  assert.deepEqual([...messagesOf(s.tree)].sort(), [...messagesOf(plain)].sort());
  assert.equal(render(s.tree), render(plain));
});

test("a row function that throws fails the render and leaves the previous rows in place", () => {
  const memo = new RenderState();
  let fail = false;
  const row = (item: Item) => {
    if (fail && item.id === 2) throw new Error("row failed");
    return Ui.h("li", {}, String(item.qty));
  };
  const view = (items: readonly Item[]) => Ui.h("ul", {}, Ui.each(items, byId, row));
  const items = itemsOf(3);
  const first = renderWith(memo, () => view(items));
  fail = true;
  const changed = items.map((it) => ({ ...it }));
  assert.throws(() => renderWith(memo, () => view(changed)), /row failed/);
  fail = false;
  const again = renderWith(memo, () => view(items));
  assert.deepEqual(again.children, first.children, "the rows of the last good render are reused");
});

test("each refuses what is not a list, a key function and a row function, and keys that are not strings or numbers", () => {
  assert.throws(() => Ui.each(undefined as never, byId, itemRow), TypeError);
  assert.throws(() => Ui.each([], "id" as never, itemRow), TypeError);
  assert.throws(() => Ui.each([], byId, undefined as never), TypeError);
  assert.throws(() => Ui.each([{ id: 1 }], () => ({}) as never, () => Ui.h("li", {})), /a key must be a string or a number/);
  assert.throws(() => Ui.each([1], String, () => "text" as never), /the row function must return an element/);
  const memo = new RenderState();
  assert.throws(() => renderWith(memo, () => Ui.h("ul", {}, Ui.each([1], String, () => null as never))), /must return an element/);
});

test("<Each> and a Ui.html hole build the same list as Ui.each", () => {
  const items = itemsOf(3);
  const viaEach = Each({ items, by: byId, row: itemRow });
  const viaHtml = Ui.html`<tbody>${Ui.each(items, byId, itemRow)}</tbody>`;
  assert.equal(render(Ui.h("tbody", {}, viaEach)), render(Ui.h("tbody", {}, Ui.each(items, byId, itemRow))));
  assert.equal(render(viaHtml), render(Ui.h("tbody", {}, Ui.each(items, byId, itemRow))));
});

test("in a live app, an event on one row of a list answers that row's patches, and a stale row's handler is refused", async () => {
  type M = { items: readonly Item[] };
  const probe = renderProbe();
  const live = app<M>({
    init: () => ({ items: itemsOf(100) }),
    update: (m, msg, args) => {
      const id = Number(args[0]);
      if (msg === "SetQty") return { items: m.items.map((it) => (it.id === id ? { ...it, qty: Number(args.at(-1)) } : it)) };
      if (msg === "Toggle") return { items: m.items.filter((it) => it.id !== id) };
      return m;
    },
    view: (m) => eachPage(m.items),
  }, { renderProbe: probe });
  try {
    const tab = await openTab(live);
    const qty = "r.1#table.0#tbody.#tr:40.2#td.#input:qty";
    const built = probe.built;
    const reply = await tab.post({ seq: 1, msg: "SetQty", args: [40, "7"], handlerId: qty, inputState: { [qty]: { value: "7", seq: 1 } } });
    assert.equal(reply.status, 200);
    assert.equal(probe.built - built, 1);
    const body = JSON.stringify(await reply.json());
    assert.match(body, /"id":"r\.1#table\.0#tbody\.#tr:40\.4#td","text":"21"/);
    const done = "r.1#table.0#tbody.#tr:40.3#td.#input:done";
    assert.equal((await tab.post({ seq: 2, msg: "Toggle", args: [40, true], handlerId: done })).status, 200);
    // The row is gone: its handler's element with it.
    assert.equal((await tab.post({ seq: 3, msg: "Toggle", args: [40, true], handlerId: done })).status, 410);
  } finally {
    live.close();
  }
});

test("an event on a row builds that row twice, for its old item (the diff's) and its new one, and no other row", async () => {
  type M = { items: readonly Item[] };
  const calls: number[] = [];
  const countingRow = (item: Item) => {
    calls.push(item.qty);
    return itemRow(item);
  };
  const live = app<M>({
    init: () => ({ items: itemsOf(50) }),
    update: (m, _msg, args) => ({ items: m.items.map((it) => (it.id === Number(args[0]) ? { ...it, qty: Number(args.at(-1)) } : it)) }),
    view: (m) => Ui.h("table", {}, Ui.h("tbody", {}, Ui.each(m.items, byId, countingRow))),
  });
  try {
    const tab = await openTab(live);
    for (let seq = 1; seq <= 3; seq++) {
      const id = 10 * seq;
      const qty = `r.0#tbody.#tr:${id}.2#td.#input:qty`;
      calls.length = 0;
      const reply = await tab.post({ seq, msg: "SetQty", args: [id, "7"], handlerId: qty, inputState: { [qty]: { value: "7", seq } } });
      assert.equal(reply.status, 200);
      // The old row (quantity (id - 1) % 5) once, for the handler check and the diff (released at
      // the start of the event's render, it was built again for the diff), and the new one once.
      assert.deepEqual(calls.sort(), [(id - 1) % 5, 7].sort(), `event ${seq}`);
    }
  } finally {
    live.close();
  }
});
