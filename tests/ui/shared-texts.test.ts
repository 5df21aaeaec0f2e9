/**
 * Shared texts (src/live/render-state/fold/shared-texts.ts): the short texts folds keep are one copy across
 * sessions, in a table that stays bounded whatever an app renders. Which copy a fold holds cannot
 * be seen from JavaScript (strings compare by content), so these tests check what can: values come
 * back as they went in, long texts and other values are left alone, the table never grows past two
 * generations, and folds written through it replay and match as before.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { GENERATION_SIZE, SHARED_TEXT_LENGTH, sharedText, sharedTextCount } from "../../src/live/render-state/fold/shared-texts.ts";
import { replayTape } from "../../src/live/render-state/fold/tape-read.ts";
import { writeTape } from "../../src/live/render-state/fold/tape-write.ts";
import { RenderState, renderWith } from "../../src/live/render-state/render-state.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { render } from "../../src/live/render.ts";

test("a short text comes back equal; other values come back as they are", () => {
  const made = ["qty", String(12)].join("-");
  assert.equal(sharedText(made), "qty-12");
  const items = [1, true, null, undefined, { a: 1 }, ["x"]] as const;
  for (const item of items) assert.equal(sharedText(item), item);
});

test("a text longer than the shared length is not taken into the table", () => {
  const before = sharedTextCount();
  const long = "x".repeat(SHARED_TEXT_LENGTH + 1) + String(Math.random());
  assert.equal(sharedText(long), long);
  assert.equal(sharedTextCount(), before);
  const fits = `${"y".repeat(SHARED_TEXT_LENGTH - 20)}${Math.random()}`.slice(0, SHARED_TEXT_LENGTH);
  sharedText(fits);
  assert.equal(sharedTextCount(), before + 1);
});

test("the table holds at most two generations, whatever is rendered", () => {
  for (let i = 0; i < 3 * GENERATION_SIZE + 17; i++) {
    assert.equal(sharedText(`text ${i}`), `text ${i}`);
    assert.ok(sharedTextCount() <= 2 * GENERATION_SIZE, `table grew to ${sharedTextCount()} at text ${i}`);
  }
  // A text of the current generation is still the one handed back.
  const last = `text ${3 * GENERATION_SIZE + 16}`;
  assert.equal(sharedText(last.slice(0)), last);
});

test("folds written through the table replay the rows they were written from", () => {
  const row = (id: number, qty: number) =>
    Ui.keyed(
      id,
      Ui.h(
        "tr",
        {},
        Ui.h("td", {}, `item ${id}`),
        Ui.h("td", {}, Ui.h("input", { name: `qty-${id}`, value: String(qty), onInput: ["SetQty", id] })),
        Ui.h("td", {}, Ui.raw(`<b>${id}</b>`), " and ", "x".repeat(SHARED_TEXT_LENGTH + 5)),
      ),
    );
  // Two sessions' equal rows, and a third with other values, each built in a render of its own.
  const built = [[7, 3], [7, 3], [8, 4]].map(([id, qty]) => renderWith(new RenderState(), () => row(id!, qty!)) as UiElement);
  const tapes = built.map((el) => writeTape(el)!);
  for (const [i, tape] of tapes.entries()) {
    const replayed = replayTape(tape);
    assert.equal(render(replayed[replayed.length - 1]!), render(built[i]!));
  }
  assert.deepEqual(tapes[0]!.values, tapes[1]!.values);
  assert.notDeepEqual(tapes[0]!.values, tapes[2]!.values);
});
