/**
 * No event of a tab's life does a page's worth of work (docs/deployment.md#cost-per-event): on a
 * page of 1,000 keyed rows, written with `Ui.keyed` over a map and with `Ui.each`, over 400 events
 * each on a new row, the elements the id walk resolves and the pairs the diff compares stay within
 * 3x the median event's. A render afresh on a schedule, or any periodic walk of the whole page
 * through the id walk or the diff, would resolve or compare thousands. Counted, not timed: the
 * runtime's collector and compiler make the time of single events spike
 * (bench/table.bench.ts, "life").
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { app } from "../../src/live/server/mod.ts";
import { renderProbe } from "../../src/live/probe.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/node.ts";
import type { JsonValue } from "../../src/json.ts";
import { openTab } from "../support/live-harness.ts";

const ROWS = 1000;
type Row = { readonly id: number; readonly n: number };
type Model = readonly Row[];

const row = (r: Row) => Ui.h("li", {}, Ui.h("button", { onClick: ["Inc", r.id] }, "+"), Ui.h("span", {}, `row ${r.id}: ${r.n}`));
const keyedView = (model: Model) => Ui.h("main", {}, Ui.h("p", {}, "rows"), Ui.h("ul", {}, ...model.map((r) => Ui.keyed(r.id, row(r)))));
const eachView = (model: Model) => Ui.h("main", {}, Ui.h("p", {}, "rows"), Ui.h("ul", {}, Ui.each(model, (r) => r.id, row)));

function update(model: Model, msg: string, args: readonly JsonValue[]): Model {
  if (msg !== "Inc") return model;
  const id = Number(args[0]);
  return model.map((r) => (r.id === id ? { ...r, n: r.n + 1 } : r));
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const [name, view] of [["Ui.keyed over a map", keyedView], ["Ui.each", eachView]] as const) {
  test(`over 400 events on a 1,000-row page (${name}), no event walks or compares more than 3x the median event`, async () => {
    const probe = renderProbe();
    const live = app<Model>({
      init: () => Array.from({ length: ROWS }, (_, i) => ({ id: i + 1, n: 0 })),
      update,
      view: view as (model: Model) => UiElement,
    }, { renderProbe: probe });
    const tab = await openTab(live);
    const work: number[] = [];
    for (let seq = 1; seq <= 400; seq++) {
      const id = ((seq * 37) % ROWS) + 1;
      const walked = probe.walked;
      const compared = probe.compared;
      const resp = await tab.post({ page: "p", seq, msg: "Inc", args: [id], handlerId: `r.1#ul.#li:${id}.0#button` });
      work.push(probe.walked - walked + probe.compared - compared);
      assert.equal(resp.status, 200, `event ${seq}`);
      const frame = (await resp.json()) as { patches: { id: string }[] };
      assert.deepEqual(frame.patches.map((p) => p.id), [`r.1#ul.#li:${id}.1#span`], `event ${seq}`);
    }
    const typical = median(work);
    const worst = Math.max(...work);
    assert.ok(typical < 100, `the median event walks and compares ${typical}, not the page's thousands`);
    assert.ok(worst <= 3 * typical, `the costliest event walks and compares ${worst}, the median ${typical}`);
    live.close();
  });
}
