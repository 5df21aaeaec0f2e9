/**
 * A long-lived tab's kept tree is the diff's, event after event, never rendered afresh on a
 * schedule (src/live/server/session/render.ts): over hundreds of events, every event's patches are
 * exactly what it changed, the diff stays as small as on a fresh tab, and the render the client
 * would resync from is the model's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { app } from "../../src/live/server/mod.ts";
import { render } from "../../src/live/render.ts";
import { renderProbe } from "../../src/live/probe.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { JsonValue } from "../../src/json.ts";
import { openTab } from "../support/live-harness.ts";

const ROWS = 30;
type Model = readonly number[];
const view = (model: Model) =>
  Ui.h("ul", {}, ...model.map((n, i) => Ui.h("li", {}, Ui.h("button", { onClick: ["Inc", i] }, "+"), Ui.h("span", {}, `row ${i}: ${n}`))));

test("over 500 events each event patches exactly its row and the diff does not grow", async () => {
  const probe = renderProbe();
  const live = app<Model>({
    init: () => Array.from({ length: ROWS }, () => 0),
    update: (model, msg, args: readonly JsonValue[]) => {
      if (msg !== "Inc") return model;
      const next = model.slice();
      next[Number(args[0])]! += 1;
      return next;
    },
    view,
  }, { renderProbe: probe });
  const tab = await openTab(live);
  const model = Array.from({ length: ROWS }, () => 0);
  const visits: number[] = [];
  for (let seq = 1; seq <= 500; seq++) {
    const row = (seq * 7) % ROWS;
    model[row]! += 1;
    const before = probe.compared;
    const resp = await tab.post({ page: "p", seq, msg: "Inc", args: [row], handlerId: `r.${row}#li.0#button` });
    visits.push(probe.compared - before);
    assert.equal(resp.status, 200);
    const frame = (await resp.json()) as { patches: unknown[] };
    assert.deepEqual(frame.patches, [{ id: `r.${row}#li.1#span`, text: `row ${row}: ${model[row]}` }], `event ${seq}`);
  }
  assert.ok(Math.max(...visits.slice(400)) <= Math.max(...visits.slice(0, 100)), "the diff's work stays that of a fresh tab");
  const resync = await live.fetch(
    new Request("http://app.test/_svc/render", { headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf } }),
  );
  assert.equal(await resync.text(), render(view(model)));
  live.close();
});
