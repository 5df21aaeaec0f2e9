/**
 * Lazy parts (src/live/render-state/lazy-part.ts): a session's page keeps each `Ui.lazy` part as its call, and
 * builds its subtree again when an event reads it. Whatever a part dropped and built again, every
 * render and every diff is the one of the same page written without `Ui.lazy`, on pages where parts
 * move, are keyed from outside, nest, hold injected styles and stand at the root. And the same over
 * a session's folded page (src/live/render-state/fold/fold-tree.ts), where the elements around the parts are
 * kept as folds (the tests at the end).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diffTrees } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { findElement, type LiveElement, type LiveTree } from "../../src/live/tree.ts";
import { estimateTreeBytes } from "../../src/live/server/registry/tree-budget.ts";
import { KEPT_AS_BUILT_PER_KEEP } from "../../src/live/render-state/fold/fold-tree.ts";
import { SessionRender } from "../../src/live/server/session/render.ts";
import { messagesOf } from "../../src/live/server/session/step.ts";
import { RenderState, renderWith } from "../../src/live/render-state/render-state.ts";
import { LazyPart, releaseWarmParts } from "../../src/live/render-state/lazy-part.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { domSettled } from "../support/dom.ts";
import { assertFoldedSessionLikeFresh, partsIn, type Read, type SessionEvent } from "../support/folds.ts";
import { assertRendersLikeFresh } from "../support/renders.ts";

const seed = Number(process.env["FC_SEED"] ?? Date.now() % 2 ** 31);
console.log(`lazy-parts property: fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

type Row = { id: number; text: string; qty: number; done: boolean };
type Model = { title: string; rows: Row[] };

const rowArb: fc.Arbitrary<Row> = fc.record({
  id: fc.integer({ min: 1, max: 9 }),
  text: fc.constantFrom("a", "b", "c <d>", ""),
  qty: fc.integer({ min: 0, max: 3 }),
  done: fc.boolean(),
});
const modelArb: fc.Arbitrary<Model> = fc.record({
  title: fc.constantFrom("Orders", "Orders & more"),
  rows: fc.uniqueArray(rowArb, { selector: (r) => r.id, maxLength: 7 }),
});

/** `Ui.lazy`, or the same call made at once: the two pages of each property. */
type Lazy = <A extends unknown[]>(fn: (...args: A) => UiElement, ...args: A) => UiElement;
const eager: Lazy = (fn, ...args) => fn(...args);

/** A row of a table, by its index: inputs named by index, so a row inserted above renames those below. */
const indexedRow = (text: string, qty: number, done: boolean, i: number) =>
  Ui.h(
    "tr",
    {},
    Ui.h("td", {}, `${text} ${i + 1}`),
    Ui.h("td", {}, Ui.h("input", { type: "number", name: `qty-${i}`, value: String(qty), onInput: ["SetQty", i] })),
    Ui.h("td", {}, Ui.h("input", { type: "checkbox", name: `done-${i}`, checked: done, onChange: ["Toggle", i] })),
    Ui.h("td", { class: "total" }, String(qty * 3)),
  );

/** A row keyed from outside the part (`Ui.keyed(id, Ui.lazy(…))`). */
const keyedRow = (text: string, done: boolean) =>
  Ui.h("li", { class: done ? "done" : undefined }, Ui.h("span", {}, text), Ui.h("button", { onClick: "Go" }, "go"));

/** A row with a style prop: its injected style names its id, so its part keeps its subtree. */
const styledRow = (text: string, qty: number) => Ui.h("p", {}, Ui.h("b", { hover: { color: qty > 1 ? "red" : "blue" } } as never, text));

/** An option of a select whose value picks it (the select rewrites its options), with raw markup beside. */
const optionOf = (text: string) => Ui.h("option", { value: text }, text === "" ? "none" : text);
const note = (text: string) => Ui.h("small", {}, Ui.raw(`<i>${text.length}</i>`), text);

/** A section that is a part and holds parts: its rows as text, so that its call is plain data. */
const section = (lazy: Lazy) => (rowsText: string) =>
  Ui.h("section", {}, ...(JSON.parse(rowsText) as Row[]).map((r) => lazy(keyedRow, r.text, r.done)));

function page(lazy: Lazy, sectionOf: (rowsText: string) => UiElement) {
  return (m: Model) =>
    Ui.h(
      "main",
      {},
      Ui.h("h1", {}, m.title),
      Ui.h("table", {}, Ui.h("tbody", {}, ...m.rows.map((r, i) => lazy(indexedRow, r.text, r.qty, r.done, i)))),
      Ui.h("ul", {}, ...m.rows.map((r) => Ui.keyed(r.id, lazy(keyedRow, r.text, r.done)))),
      Ui.h("div", {}, ...m.rows.map((r) => lazy(styledRow, r.text, r.qty))),
      lazy(sectionOf, JSON.stringify(m.rows.filter((r) => r.qty > 0))),
      Ui.h("select", { name: "pick", value: m.rows[0]?.text ?? "" }, ...m.rows.map((r) => lazy(optionOf, r.text))),
      Ui.h("footer", {}, ...m.rows.map((r) => lazy(note, r.text))),
    );
}

const lazySection = section(Ui.lazy);
const eagerSection = section(eager);
const lazyPage = page(Ui.lazy, lazySection);
const eagerPage = page(eager, eagerSection);
const wholePage = (m: Model) => lazyPage(m);
const rootPart = (m: Model) => Ui.lazy(wholePage, m);

test("a page of lazy parts renders and diffs as the same page without them, render after render", () => {
  fc.assert(
    fc.property(fc.array(modelArb, { minLength: 2, maxLength: 8 }), (models) => assertRendersLikeFresh(models, lazyPage, eagerPage)),
    { seed, numRuns: 300 },
  );
});

test("a part at the page's root renders and diffs as the page without it", () => {
  fc.assert(
    fc.property(fc.array(modelArb, { minLength: 2, maxLength: 6 }), (models) => assertRendersLikeFresh(models, rootPart, eagerPage)),
    { seed, numRuns: 100 },
  );
});

/** The lazy parts of a tree, found through its live kids. */
function partsOf(tree: LiveTree): LazyPart[] {
  const found: LazyPart[] = [];
  const walk = (el: LiveElement) => {
    for (const kid of el.kids) {
      if (kid instanceof LazyPart) found.push(kid);
      else if (kid.kind === "el") walk(kid);
    }
  };
  walk(tree.root);
  return found;
}

test("between renders a page keeps its parts' calls, not their subtrees, and its measure and message check do not build them; a part with injected styles keeps its own", () => {
  fc.assert(
    fc.property(fc.array(modelArb, { minLength: 1, maxLength: 5 }), (models) => {
      const memo = new RenderState();
      let tree: LiveTree | undefined;
      // The tree a session keeps: the diff's, which keeps the old render's objects where nothing changed.
      for (const m of models) {
        const next = assignIds(renderWith(memo, () => lazyPage(m)));
        tree = tree === undefined ? next : diffTrees(tree, next).tree;
      }
      releaseWarmParts();
      // The tree budget's measure and the message check read the parts without building them.
      const eagerTree = assignIds(eagerPage(models.at(-1)!));
      assert.ok(estimateTreeBytes(tree!) < estimateTreeBytes(eagerTree) || models.at(-1)!.rows.length === 0);
      assert.deepEqual([...messagesOf(tree!)].sort(), [...messagesOf(eagerTree)].sort());
      const parts = partsOf(tree!);
      // Rows, keyed rows, styled rows and notes; the select's options are copies it made.
      assert.equal(parts.length, models.at(-1)!.rows.length * 4 + 1);
      for (const part of parts) assert.equal(part.holding, !part.compact, `${part.tag} ${part.seg}`);
      // A styled row keeps its subtree; the others keep their calls only.
      assert.deepEqual(parts.filter((p) => !p.compact).map((p) => p.tag), models.at(-1)!.rows.map(() => "p"));
    }),
    { seed, numRuns: 100 },
  );
});

test("an id inside a part that dropped its subtree is found, and the part builds it once per event", () => {
  const built: number[] = [];
  const row = (i: number, qty: number) => {
    built.push(i);
    return Ui.h("tr", {}, Ui.h("td", {}, Ui.h("input", { name: `qty-${i}`, value: String(qty), onInput: ["SetQty", i] })));
  };
  const view = (qtys: number[]) => Ui.h("table", {}, Ui.h("tbody", {}, ...qtys.map((q, i) => Ui.lazy(row, i, q))));
  const memo = new RenderState();
  const qtys = Array.from({ length: 200 }, (_, i) => i % 5);
  const first = assignIds(renderWith(memo, () => view(qtys)));
  assert.equal(built.length, 200);
  const next = qtys.slice();
  next[150] = 9;
  built.length = 0;
  const second = assignIds(renderWith(memo, () => view(next)));
  assert.deepEqual(built, [150], "the render builds the changed row only");
  const id = "r.0#tbody.150#tr.0#td.#input:qty-150";
  assert.equal(findElement(first, id)?.attrs["value"], "0");
  assert.equal(findElement(first, id)?.attrs["value"], "0");
  assert.equal(findElement(second, id)?.attrs["value"], "9");
  assert.deepEqual(built, [150, 150], "the old row is built again once, for the lookups of this event");
  assert.equal(findElement(first, "r.0#tbody.150#tr.0#td.#input:qty-151"), undefined);
});

test("a changed part among rows that moved is kept as itself, and so is its parent: the next render hands both back", () => {
  // Two cells: a changed row keeps its unchanged cell from the old render, which makes the diff
  // hand its parent a row to keep in place of the new one.
  const item = (text: string) => Ui.h("li", {}, Ui.h("b", {}, "item"), Ui.h("span", {}, text));
  const view = (texts: string[]) => Ui.h("main", {}, Ui.h("ul", {}, ...texts.map((t) => Ui.lazy(item, t))));
  const memo = new RenderState();
  const first = assignIds(renderWith(memo, () => view(["a", "b", "c"])));
  // A row inserted above and another changed: the rows are matched, not taken in place, and the
  // changed pair is diffed.
  const next = assignIds(renderWith(memo, () => view(["new", "a", "B", "c"])));
  const { patches, tree } = diffTrees(first, next);
  assert.ok(patches.length > 0);
  assert.equal(findElement(tree, "r.0#ul"), findElement(next, "r.0#ul"), "the list is the new render's, not a copy");
  assert.equal(partsOf(tree).length, 4);
});

// The same properties over a session's folded page (src/live/render-state/fold/fold-tree.ts): each event's render
// diffed against the kept page, the diff's tree kept and its small subtrees folded, as a session
// does (tests/support/folds.ts). Parts are not folded, the elements around them are: the title, the
// plain rows and cells beside the parts. Folds share their shapes across sessions
// (src/live/render-state/fold/shape.ts), so a failing case may need the cases before it: FC_SEED replays the run.

/** A quantity input: a part inside a plain row, which then stays an element while its other cells fold. */
const qtyInput = (qty: number, i: number) =>
  Ui.h("input", { type: "number", name: `qty-${i}`, value: String(qty), onInput: ["SetQty", i] });

/**
 * A page where parts and folds sit side by side: a list whose rows are parts or plain calls by
 * their state (a row's place passes from a part to a fold and back), plain rows keyed from outside
 * holding a part each, rows keyed from outside that are parts or plain calls, and a form of plain
 * fields around a part, one of them with style props.
 */
function mixedPage(lazy: Lazy) {
  return (m: Model) =>
    Ui.h(
      "main",
      {},
      Ui.h("h1", {}, m.title),
      Ui.h("ul", {}, ...m.rows.map((r) => (r.done ? lazy(keyedRow, r.text, r.done) : keyedRow(r.text, r.done)))),
      Ui.h(
        "table",
        {},
        Ui.h(
          "tbody",
          {},
          ...m.rows.map((r, i) =>
            Ui.keyed(
              r.id,
              Ui.h(
                "tr",
                {},
                Ui.h("td", {}, r.text),
                Ui.h("td", {}, lazy(qtyInput, r.qty, i)),
                Ui.h("td", { class: "total" }, String(r.qty * 3)),
              ),
            )
          ),
        ),
      ),
      Ui.h("ol", {}, ...m.rows.map((r) => Ui.keyed(r.id, r.qty % 2 === 0 ? lazy(keyedRow, r.text, r.done) : keyedRow(r.text, r.done)))),
      Ui.h(
        "form",
        { onSubmit: "Save" },
        Ui.h("label", {}, "Title ", Ui.h("input", { name: "title", value: m.title })),
        lazy(note, m.title),
        Ui.h("p", { class: m.title.length > 6 ? "long" : "short", hover: { color: "red" } } as never, "Saved on submit"),
        Ui.h("button", {}, "Save"),
      ),
    );
}

const lazyMixedPage = mixedPage(Ui.lazy);
const eagerMixedPage = mixedPage(eager);

const readArb = fc.constantFrom<Read>("none", "render", "diff");

/** The events of the models after the first, each with what reads the kept page after it. */
const eventsOf = <M>(models: readonly M[], reads: readonly Read[]): SessionEvent<M>[] =>
  models.slice(1).map((model, i) => ({ model, read: reads[i % reads.length] }));

/**
 * Runs the folded-session check over random model sequences, in sessions that fold every subtree
 * at each keep and in sessions that leave what a render built as built for a while, as a live
 * session does (src/live/render-state/fold/fold-tree.ts). Of the first: how many cases folded, and had a kept
 * fold handed back; the second are checked alike, and counted apart.
 */
async function foldedProperty(
  sessionView: (m: Model) => UiElement,
  freshView: (m: Model) => UiElement,
  maxModels: number,
  numRuns: number,
): Promise<{ cases: number; folded: number; matched: number; deferred: number }> {
  const seen = { cases: 0, folded: 0, matched: 0, deferred: 0 };
  await fc.assert(
    fc.asyncProperty(
      fc.array(modelArb, { minLength: 2, maxLength: maxModels }),
      fc.array(readArb, { minLength: 1, maxLength: 4 }),
      fc.constantFrom(0, KEPT_AS_BUILT_PER_KEEP),
      async (models, reads, keptAsBuilt) => {
        const { folded, matched } = assertFoldedSessionLikeFresh(models[0]!, eventsOf(models, reads), sessionView, freshView, keptAsBuilt);
        if (keptAsBuilt === 0) {
          seen.cases++;
          if (folded) seen.folded++;
          if (matched) seen.matched++;
        } else seen.deferred++;
        await domSettled();
      },
    ),
    { seed, numRuns, includeErrorInReport: true },
  );
  assert.ok(seen.cases > 0 && seen.deferred > 0, `${seen.cases} cases folding at once, ${seen.deferred} keeping what a render built`);
  return seen;
}

test("a session's folded page of lazy parts renders and diffs as the same page without them, event after event", async () => {
  const seen = await foldedProperty(lazyPage, eagerPage, 8, 80);
  // The title is folded on every page, and handed back by every render that keeps it.
  assert.equal(seen.folded, seen.cases);
  assert.ok(seen.matched > seen.cases / 2, `only ${seen.matched} of ${seen.cases} cases had a render hand back a kept fold`);
});

test("a folded page whose root is a part renders and diffs as the page without it", async () => {
  const seen = await foldedProperty(rootPart, eagerPage, 6, 30);
  assert.equal(seen.folded, seen.cases);
});

test("parts and folds side by side in one list, in keyed rows and in a form render and diff as the page without parts", async () => {
  const seen = await foldedProperty(lazyMixedPage, eagerMixedPage, 8, 80);
  assert.equal(seen.folded, seen.cases);
  assert.ok(seen.matched > seen.cases / 2, `only ${seen.matched} of ${seen.cases} cases had a render hand back a kept fold`);
});

test("between events a folded page keeps its parts' calls and its folds' tapes, not their subtrees, and its measure and message check build neither", () => {
  fc.assert(
    fc.property(fc.array(modelArb, { minLength: 1, maxLength: 5 }), (models) => {
      for (const [sessionView, freshView] of [[lazyPage, eagerPage], [lazyMixedPage, eagerMixedPage]] as const) {
        // A session's events: each render diffed against the kept page, the diff's tree kept (and folded).
        // Every subtree folded at each keep: what the compact form keeps is what is checked.
        const session = new SessionRender<Model>(sessionView, { keptAsBuilt: 0 });
        session.keep(session.render(models[0]!));
        for (const m of models.slice(1)) session.keep(diffTrees(session.kept!, session.render(m)).tree);
        releaseWarmParts();
        const kept = session.kept!;
        const last = models.at(-1)!;
        const eagerTree = assignIds(freshView(last));
        assert.ok(estimateTreeBytes(kept) < estimateTreeBytes(eagerTree) || last.rows.length === 0);
        assert.deepEqual([...messagesOf(kept)].sort(), [...messagesOf(eagerTree)].sort());
        const { folds, parts } = partsIn(kept);
        assert.ok(folds.length > 0, "the page is folded");
        for (const fold of folds) assert.equal(fold.holding, false, `fold ${fold.tag} ${fold.seg}`);
        for (const part of parts) assert.equal(part.holding, !part.compact, `${part.tag} ${part.seg}`);
        if (sessionView === lazyPage) {
          // Rows, keyed rows, styled rows and notes, and the section; the select's options are copies it made.
          assert.equal(parts.length, last.rows.length * 4 + 1);
          // A styled row keeps its subtree; the others keep their calls only.
          assert.deepEqual(parts.filter((p) => !p.compact).map((p) => p.tag), last.rows.map(() => "p"));
        } else {
          // At most the done rows of the list, a quantity input per row, the even rows of the keyed
          // list and the note: a lazy row whose function's call matched a fold the page kept (the
          // same row, plain, the event before) is given that fold (src/ui/lazy.ts takes a part its
          // function returns as its own), and stays a fold.
          const most = last.rows.filter((r) => r.done).length + last.rows.length + last.rows.filter((r) => r.qty % 2 === 0).length + 1;
          assert.ok(parts.length <= most && parts.length >= last.rows.length + 1, `${parts.length} parts`);
        }
      }
    }),
    { seed, numRuns: 100, includeErrorInReport: true },
  );
});
