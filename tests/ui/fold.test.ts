/**
 * Folds (src/live/render-state/fold/, src/live/render-state/fold/fold-tree.ts): a session keeps its page's small subtrees as the
 * calls that built them, and the next render's calls are matched against them. Whatever is folded,
 * replayed or matched, a render and its kept tree are those of a fresh build.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { diffTrees } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { KEPT_AS_BUILT_PER_KEEP } from "../../src/live/render-state/fold/fold-tree.ts";
import { SessionRender } from "../../src/live/server/session/render.ts";
import { forEachElement, type LiveTree } from "../../src/live/tree.ts";
import { FoldPart } from "../../src/live/render-state/fold/fold-part.ts";
import { replayTape } from "../../src/live/render-state/fold/tape-read.ts";
import { FOLD_MAX_CALLS, writeTape } from "../../src/live/render-state/fold/tape-write.ts";
import { RenderState, renderWith } from "../../src/live/render-state/render-state.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { renderProbe } from "../../src/live/probe.ts";

type Row = { readonly id: number; readonly key: number | string; readonly qty: number; readonly done: boolean; readonly note?: string };
type Model = { readonly rows: readonly Row[]; readonly title: string };

const row = (r: Row) =>
  Ui.keyed(
    r.key,
    Ui.h(
      "tr",
      { class: r.done ? "done" : undefined },
      Ui.h("td", {}, "item ", r.id),
      Ui.h("td", {}, Ui.h("input", { type: "number", name: `qty-${r.id}`, value: String(r.qty), onInput: ["SetQty", r.id] })),
      Ui.h("td", {}, Ui.h("input", { type: "checkbox", checked: r.done, onChange: ["Toggle", r.id, { at: r.id }] })),
      Ui.h(
        "td",
        {},
        Ui.h("select", { value: r.done ? "b" : "a" }, Ui.h("option", { value: "a" }, "A"), Ui.h("option", { value: "b" }, "B")),
      ),
      Ui.h("td", {}, Ui.h("textarea", { value: r.note ?? "" })),
      Ui.h("td", {}, [Ui.raw("<b>raw</b>"), [" and ", null, false, "text"]]),
    ),
  );
const view = (m: Model) => Ui.h("main", {}, Ui.h("h1", {}, m.title), Ui.h("table", {}, Ui.h("tbody", {}, m.rows.map(row))));

const rowsOf = (n: number, from = 1): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, key: from + i, qty: i % 4, done: i % 3 === 0 }));
const fresh = (m: Model): LiveTree => assignIds(view(m));

/** The folds of a kept tree, found by walking its kids (a fold is not looked into). */
function foldsOf(tree: LiveTree): FoldPart[] {
  const found: FoldPart[] = [];
  const walk = (el: UiElement): void => {
    for (const kid of el.kids ?? []) {
      if (kid instanceof FoldPart) found.push(kid);
      else if (kid.kind === "el") walk(kid);
    }
  };
  walk(tree.root as unknown as UiElement);
  return found;
}

/** Ids and messages of every handler of a tree. */
function handlerIds(tree: LiveTree): string[] {
  const out: string[] = [];
  forEachElement(tree, (el, id) => {
    for (const [kind, record] of Object.entries(el.handlers ?? {})) out.push(`${id} ${kind} ${JSON.stringify(record)}`);
  });
  return out;
}

/** One session's render loop: render, diff against the kept tree, keep; checked against fresh builds at every step. */
function session(models: readonly Model[]): void {
  const r = new SessionRender(view);
  r.keep(r.render(models[0]!));
  assert.equal(render(r.kept!), render(fresh(models[0]!)));
  for (let i = 1; i < models.length; i++) {
    const { patches, tree } = diffTrees(r.kept!, r.render(models[i]!));
    assert.deepEqual(patches, diffTrees(fresh(models[i - 1]!), fresh(models[i]!)).patches, `step ${i}`);
    r.keep(tree);
    assert.equal(render(r.kept!), render(fresh(models[i]!)), `step ${i}: the kept tree is the fresh render`);
    assert.deepEqual(handlerIds(r.kept!), handlerIds(fresh(models[i]!)), `step ${i}: handlers`);
  }
}

test("a written tape replays into the elements its calls built: attributes, handlers, keys, select values, textareas, raw and nested children", () => {
  const memo = new RenderState();
  const built = renderWith(memo, () => row({ id: 7, key: "k7", qty: 3, done: true, note: "a\u0000b <i>" }));
  const tape = writeTape(built);
  assert.ok(tape !== undefined);
  const replayed = replayTape(tape);
  const root = replayed[replayed.length - 1]!;
  assert.equal(render(assignIds(root)), render(assignIds(built)));
  assert.deepEqual(root.handlers, built.handlers);
  assert.equal(root.key, "k7");
});

test("what cannot be written stays elements: a class instance among a message's arguments, a view constant, and more calls than a fold holds", () => {
  const memo = new RenderState();
  const withInstance = renderWith(memo, () => Ui.h("button", { onClick: ["At", new Date(0) as unknown as string] }, "x"));
  assert.equal(writeTape(withInstance), undefined);
  const constant = Ui.h("span", {}, "built outside a render");
  assert.equal(writeTape(renderWith(new RenderState(), () => Ui.h("p", {}, constant))), undefined);
  const big = renderWith(new RenderState(), () => Ui.h("ul", {}, Array.from({ length: FOLD_MAX_CALLS }, (_, i) => Ui.h("li", {}, i))));
  assert.equal(writeTape(big), undefined);
});

test("a session's rows are kept as folds, and the next render's calls for unchanged rows build nothing", () => {
  const m0: Model = { rows: rowsOf(30), title: "orders" };
  const probe = renderProbe();
  const r = new SessionRender(view, { keptAsBuilt: 0, probe });
  r.keep(r.render(m0));
  const folds = foldsOf(r.kept!);
  assert.ok(folds.length >= 30, `rows are folds (${folds.length})`);
  const rows = m0.rows.slice();
  rows[4] = { ...rows[4]!, qty: 99 };
  const m1 = { ...m0, rows };
  const before = probe.walked;
  const next = r.render(m1);
  // Only the changed row and the spine above it are walked by the id walk: the other rows are their folds.
  assert.ok(probe.walked - before < 30, `walked ${probe.walked - before} elements`);
  const tbody = (next.root.kids[1] as UiElement).kids![0] as UiElement;
  const same = tbody.kids!.filter((kid, i) => kid === (foldsOf(r.kept!)[i + 1] as unknown)).length;
  assert.ok(same >= 29, `unchanged rows are the kept folds themselves (${same})`);
  const { tree } = diffTrees(r.kept!, next);
  r.keep(tree);
  assert.equal(render(r.kept!), render(fresh(m1)));
});

test("many sessions of one page, one after another, keep and render exactly (a shape's constants never take a row's key)", () => {
  const models: Model[] = [{ rows: rowsOf(5), title: "t" }];
  models.push({ ...models[0]!, rows: [...models[0]!.rows].reverse() });
  models.push({ ...models[0]!, rows: [{ id: 99, key: 1, qty: 0, done: false }, ...models[0]!.rows.slice(1)] });
  models.push({ ...models[0]!, rows: models[0]!.rows.map((r) => ({ ...r, key: "same" })) });
  for (let s = 0; s < 8; s++) session(models);
});

test("rows that move, change, come and go keep the kept tree the fresh render through a long sequence", () => {
  let rows = rowsOf(40);
  const models: Model[] = [{ rows, title: "a" }];
  for (let step = 0; step < 40; step++) {
    rows = rows.slice();
    const at = (step * 7) % rows.length;
    switch (step % 5) {
      case 0:
        rows[at] = { ...rows[at]!, qty: rows[at]!.qty + 1 };
        break;
      case 1:
        rows.splice(at, 1);
        break;
      case 2:
        rows.splice(at, 0, { id: 1000 + step, key: 1000 + step, qty: 1, done: true });
        break;
      case 3:
        rows.reverse();
        break;
      default:
        rows[at] = { ...rows[at]!, done: !rows[at]!.done, note: `note ${step}` };
    }
    models.push({ rows, title: step % 2 === 0 ? "a" : "b" });
  }
  session(models);
});

test("what a render built is kept as built until two later renders hand it back unchanged, at most eight subtrees a keep", () => {
  // src/live/render-state/fold/fold-tree.ts: the row being typed into is not written to a tape after each
  // keystroke and replayed before the next; the rest of the page is folded as before.
  const r = new SessionRender(view);
  const rowFolded = (id: number) => foldsOf(r.kept!).some((fold) => fold.key === String(id));
  const withQty = (m: Model, id: number, qty: number): Model => ({
    ...m,
    rows: m.rows.map((row) => (row.id === id ? { ...row, qty } : row)),
  });
  let m: Model = { rows: rowsOf(30), title: "orders" };
  r.keep(r.render(m));
  // The first keep: the title and the first seven rows as built, the other 23 rows folded.
  assert.equal(KEPT_AS_BUILT_PER_KEEP, 8);
  assert.equal(foldsOf(r.kept!).length, 23);
  assert.ok(!rowFolded(7) && rowFolded(8));
  const event = (next: Model) => {
    const { tree } = diffTrees(r.kept!, r.render(next));
    r.keep(tree);
    m = next;
    assert.equal(render(r.kept!), render(fresh(m)));
    assert.deepEqual(handlerIds(r.kept!), handlerIds(fresh(m)));
  };
  // Typing into row 12, a fold: built again by each event, and kept as built.
  for (let qty = 10; qty < 14; qty++) {
    event(withQty(m, 12, qty));
    assert.ok(!rowFolded(12), `after typing ${qty}`);
  }
  // The title and rows 1-7 were handed back unchanged by the first two of those renders: folded.
  assert.equal(foldsOf(r.kept!).length, 30 - 1 + 1);
  // Another row's events hand row 12 back: it is folded at the second.
  event(withQty(m, 20, 1));
  assert.ok(!rowFolded(12) && !rowFolded(20));
  event(withQty(m, 20, 2));
  assert.ok(rowFolded(12) && !rowFolded(20));
  // An event that builds every row again leaves eight of them as built and folds the others.
  event({ ...m, rows: m.rows.map((row) => ({ ...row, qty: row.qty + 1 })) });
  assert.equal(foldsOf(r.kept!).length, 1 + 30 - KEPT_AS_BUILT_PER_KEEP);
});

test("a row folded without a key and keyed by the next render is keyed there, and unkeyed again by the one after", () => {
  const plainRow = (r: Row) =>
    Ui.h("tr", {}, Ui.h("td", {}, "item ", r.id), Ui.h("td", {}, Ui.h("input", { name: `q-${r.id}`, value: String(r.qty) })));
  let keyedRows = false;
  const page = (m: Model) =>
    Ui.h("main", {}, Ui.h("table", {}, Ui.h("tbody", {}, m.rows.map((r) => (keyedRows ? Ui.keyed(r.key, plainRow(r)) : plainRow(r))))));
  const freshPage = (m: Model) => assignIds(page(m));
  // 40 rows: the tbody is too large to fold whole, so each row is a fold of its own.
  const m: Model = { rows: rowsOf(40), title: "" };
  const r = new SessionRender(page);
  r.keep(r.render(m));
  for (const keyed of [true, false, true, false]) {
    const before = render(freshPage(m));
    keyedRows = keyed;
    const { patches, tree } = diffTrees(r.kept!, r.render(m));
    r.keep(tree);
    assert.equal(render(r.kept!), render(freshPage(m)), `keyed: ${keyed}`);
    assert.ok(patches.length > 0 || before === render(freshPage(m)));
  }
});
