/**
 * The todo-list model the memoised-view tests (Ui.lazy, Ui.html) render chains of: a title, a
 * count and up to eight keyed rows, each with a few tags (views that show no tags ignore them).
 */
import fc from "fast-check";

export type TodoRow = { id: number; text: string; done: boolean; tags: string[] };
export type TodoModel = { title: string; count: number; rows: TodoRow[] };

const rowArb: fc.Arbitrary<TodoRow> = fc.record({
  id: fc.integer({ min: 1, max: 12 }),
  text: fc.constantFrom("a", "b", "c <d>", ""),
  done: fc.boolean(),
  tags: fc.array(fc.constantFrom("x", "y"), { maxLength: 2 }),
});

export const todoModelArb: fc.Arbitrary<TodoModel> = fc.record({
  title: fc.constantFrom("", "Todo", "Todo & more"),
  count: fc.nat(3),
  rows: fc.uniqueArray(rowArb, { selector: (r) => r.id, maxLength: 8 }),
});
