/**
 * The byte budget of kept trees (src/live/server/registry/tree-budget.ts): least recently used trees go
 * first, never the one in use, and the estimate follows the size of the page.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { estimateTreeBytes, TreeBudget } from "../../src/live/server/registry/tree-budget.ts";
import { assignIds } from "../../src/live/ids.ts";
import { SessionRender } from "../../src/live/server/session/render.ts";
import { Ui } from "../../src/ui/mod.ts";

test("holders within the budget keep their trees", () => {
  const budget = new TreeBudget<string>(100);
  assert.deepEqual(budget.use("a", 40), []);
  assert.deepEqual(budget.use("b", 60), []);
  assert.equal(budget.usedBytes, 100);
  assert.equal(budget.size, 2);
});

test("past the budget the least recently used give their trees up, oldest first", () => {
  const budget = new TreeBudget<string>(100);
  budget.use("a", 30);
  budget.use("b", 30);
  budget.use("c", 30);
  budget.use("a", 30); // a is now the most recent
  assert.deepEqual(budget.use("d", 50), ["b", "c"]);
  assert.equal(budget.usedBytes, 80);
  assert.deepEqual(budget.use("e", 10), []);
});

test("a holder whose tree grew is counted at its new size", () => {
  const budget = new TreeBudget<string>(100);
  budget.use("a", 10);
  budget.use("b", 10);
  assert.deepEqual(budget.use("a", 95), ["b"]);
  assert.equal(budget.usedBytes, 95);
});

test("the holder in use is never released, even when its tree alone is past the budget", () => {
  const budget = new TreeBudget<string>(100);
  budget.use("a", 20);
  assert.deepEqual(budget.use("big", 500), ["a"]);
  assert.equal(budget.size, 1);
  assert.equal(budget.usedBytes, 500);
  assert.deepEqual(budget.use("small", 1), ["big"]);
});

test("a forgotten holder no longer counts", () => {
  const budget = new TreeBudget<string>(100);
  budget.use("a", 70);
  budget.forget("a");
  budget.forget("never used");
  assert.equal(budget.usedBytes, 0);
  assert.deepEqual(budget.use("b", 90), []);
});

test("the recency order survives holders forgotten from the middle, the ends and used again", () => {
  const budget = new TreeBudget<string>(100);
  for (const holder of ["a", "b", "c", "d", "e"]) budget.use(holder, 20);
  budget.forget("c"); // from the middle
  budget.forget("a"); // the oldest
  budget.use("e", 20); // the newest, used again: stays the newest
  budget.use("b", 20); // the oldest becomes the newest
  budget.use("f", 20);
  assert.equal(budget.usedBytes, 80);
  // Least recently used first: d, then e; b and f are newer, and f is in use.
  assert.deepEqual(budget.use("f", 70), ["d", "e"]);
  assert.deepEqual(budget.use("g", 15), ["b"]);
  budget.forget("g"); // the newest
  budget.forget("f");
  assert.equal(budget.size, 0);
  assert.equal(budget.usedBytes, 0);
  assert.deepEqual(budget.use("h", 30), []);
  assert.equal(budget.size, 1);
});

test("a budget must be a positive number of bytes", () => {
  assert.throws(() => new TreeBudget(0), RangeError);
  assert.throws(() => new TreeBudget(Number.NaN), RangeError);
});

test("the estimate of a tree grows with its elements and its text", () => {
  const list = (rows: number, text: string) =>
    assignIds(Ui.h("ul", {}, ...Array.from({ length: rows }, (_, i) => Ui.h("li", { class: "row" }, `${text} ${i}`))));
  const small = estimateTreeBytes(list(10, "x"));
  const large = estimateTreeBytes(list(1000, "x"));
  assert.ok(large > 90 * small, `1,000 rows (${large} B) against 10 (${small} B)`);
  assert.ok(estimateTreeBytes(list(10, "x".repeat(1000))) - small >= 10 * 999, "each character of text counts");
});

test("a tree rendered again after a release is counted at its last measure, then measured again on the usual schedule", () => {
  const view = (rows: number) => Ui.h("ul", {}, ...Array.from({ length: rows }, (_, i) => Ui.h("li", { class: "row" }, `row ${i}`)));
  const rendered = new SessionRender(view);
  rendered.keep(rendered.render(100));
  const measured = rendered.keptBytes;
  assert.equal(measured, estimateTreeBytes(rendered.kept!), "a first tree is measured");
  rendered.release();
  assert.equal(rendered.keptBytes, 0, "a released tree counts nothing");
  rendered.keep(rendered.render(150));
  assert.equal(rendered.keptBytes, measured, "the tree rendered again is counted at the last measure, without a walk");
  for (let i = 0; i < 40; i++) rendered.keep(rendered.render(150));
  assert.ok(rendered.keptBytes > measured, "measured again within 40 kept trees");
  assert.equal(rendered.keptBytes, estimateTreeBytes(rendered.kept!));
});
