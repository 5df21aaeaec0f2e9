/**
 * A session's per-input bookkeeping (the stored input seqs, their acks and their eviction), and
 * the diff of each event, do work in proportion to what an event names and changes, not to the
 * number of inputs or rows the tab has touched over its life: counted in element visits of the id
 * lookups (src/live/tree.ts, the render probe's kids looked at) and pairs the diff compares
 * (src/live/diff/diff.ts, the render probe's pairs compared, src/live/probe.ts), not timed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { app } from "../../src/live/server/mod.ts";
import { renderProbe } from "../../src/live/probe.ts";
import { versionedMapWork } from "../../src/live/server/session/versioned-map.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { JsonValue } from "../../src/json.ts";
import { openTab, type Tab } from "../support/live-harness.ts";
import { idsIn } from "../support/dom.ts";

const ROWS = 400;
type Model = { edits: number; qty: readonly number[] };

/** The render probe the table app's sessions count into. */
const probe = renderProbe();

function tableApp() {
  return app<Model>({
    init: () => ({ edits: 0, qty: Array.from({ length: ROWS }, () => 0) }),
    update: (model, msg, args: readonly JsonValue[]) => {
      if (msg !== "SetQty") return model;
      const qty = model.qty.slice();
      qty[Number(args[0])] = Number(args[1]);
      return { edits: model.edits + 1, qty };
    },
    view: (model) =>
      Ui.h(
        "main",
        {},
        Ui.h("p", {}, `${model.edits} edits`),
        Ui.h(
          "table",
          {},
          Ui.h(
            "tbody",
            {},
            ...model.qty.map((q, i) =>
              Ui.h(
                "tr",
                {},
                Ui.h("td", {}, Ui.h("input", { type: "number", name: `qty-${i}`, value: String(q), onInput: ["SetQty", i] })),
                Ui.h("td", {}, `total ${q * 3}`),
              )
            ),
          ),
        ),
      ),
  }, { renderProbe: probe });
}

/** The lookup visits of each event of `tab` editing rows `from` to `to` - 1, one new row per event; the diff's visits go to `diffs`. */
async function visitsEditing(
  tab: Tab,
  ids: string[],
  from: number,
  to: number,
  seq: { n: number },
  diffs: number[] = [],
  mapWork: number[] = [],
): Promise<number[]> {
  const visits: number[] = [];
  for (let row = from; row < to; row++) {
    const value = String(row + 1);
    seq.n++;
    const before = probe.looked;
    const diffBefore = probe.compared;
    const mapBefore = versionedMapWork.count;
    const resp = await tab.post({
      page: "p",
      seq: seq.n,
      msg: "SetQty",
      args: [row, value],
      handlerId: ids[row],
      inputState: { [ids[row]!]: { value, seq: seq.n } },
    });
    visits.push(probe.looked - before);
    diffs.push(probe.compared - diffBefore);
    mapWork.push(versionedMapWork.count - mapBefore);
    assert.equal(resp.status, 200);
    const frame = (await resp.json()) as { ackInputs?: Record<string, number>; patches: { id: string }[] };
    assert.deepEqual(frame.ackInputs, { [ids[row]!]: seq.n }, "the reported input is acked");
  }
  return visits;
}

test("an event's lookups do not grow with the number of inputs the tab has touched", async () => {
  const live = tableApp();
  const tab = await openTab(live);
  const ids = idsIn(tab.html, 'input[name^="qty-"]');
  assert.equal(ids.length, ROWS);
  const seq = { n: 0 };
  const early = await visitsEditing(tab, ids, 0, 50, seq);
  await visitsEditing(tab, ids, 50, ROWS - 50, seq);
  const late = await visitsEditing(tab, ids, ROWS - 50, ROWS, seq);
  const session = [...live.sessions.all()][0]!;
  assert.equal(session.inputSeqs.size, ROWS, "every touched input is still stored: all are in the tree");
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  assert.ok(sum(late) <= sum(early), `visits of the last 50 events (${sum(late)}) against the first 50 (${sum(early)})`);
  assert.ok(Math.max(...late) < ROWS / 4, `at most ${Math.max(...late)} visits for an event, on a ${ROWS}-row table`);
  live.close();
});

test("a keystroke's stored input seq costs one entry, not a copy of every input the tab has touched", async () => {
  const live = tableApp();
  const tab = await openTab(live);
  const ids = idsIn(tab.html, 'input[name^="qty-"]');
  const seq = { n: 0 };
  const work: number[] = [];
  await visitsEditing(tab, ids, 0, ROWS, seq, [], work);
  const session = [...live.sessions.all()][0]!;
  assert.equal(session.inputSeqs.size, ROWS);
  assert.equal(session.inputSeqs.get(ids[ROWS - 1]!), seq.n, "the last keystroke's seq is stored");
  assert.equal(session.inputSeqs.get(ids[0]!), 1, "and the first one's is still there");
  // Entries copied or moved between versions of the map (src/live/server/session/versioned-map.ts): a copy
  // of the map per keystroke would count every input touched so far, ROWS * (ROWS - 1) / 2 in all.
  const total = work.reduce((a, b) => a + b, 0);
  assert.equal(total, 0, `entries copied over ${ROWS} keystrokes: ${total}`);
  live.close();
});

test("an event's diff does not grow with the number of rows the tab has changed", async () => {
  const live = tableApp();
  const tab = await openTab(live);
  const ids = idsIn(tab.html, 'input[name^="qty-"]');
  const seq = { n: 0 };
  const early: number[] = [], late: number[] = [];
  await visitsEditing(tab, ids, 0, 50, seq, early);
  await visitsEditing(tab, ids, 50, ROWS - 50, seq);
  await visitsEditing(tab, ids, ROWS - 50, ROWS, seq, late);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  // A changed row is kept as the view's own element, which the next render hands back and the next
  // diff skips as one object; a copy of it would be compared again on every later event.
  assert.ok(sum(late) <= sum(early), `pairs compared in the last 50 events (${sum(late)}) against the first 50 (${sum(early)})`);
  assert.ok(Math.max(...late) < 20, `at most ${Math.max(...late)} pairs compared for an event that changes one row`);
  live.close();
});

test("an input that leaves the tree is evicted, and one that stays keeps its seq", async () => {
  let rows = 3;
  const live = app<number>({
    init: () => 0,
    update: (model, msg) => (msg === "Drop" ? model + 1 : model),
    view: (model) => {
      rows = 3 - Math.min(model, 2);
      return Ui.h(
        "ul",
        {},
        ...Array.from({ length: rows }, (_, i) => Ui.h("li", { "svc-key": `k${i}` }, Ui.h("input", { name: `v${i}`, onInput: "Drop" }))),
      );
    },
  });
  const tab = await openTab(live);
  const ids = idsIn(tab.html, "input");
  const session = [...live.sessions.all()][0]!;
  let resp = await tab.post({
    page: "p",
    seq: 1,
    msg: "Drop",
    handlerId: ids[2],
    inputState: { [ids[2]!]: { value: "a", seq: 1 }, [ids[0]!]: { value: "b", seq: 1 } },
  });
  assert.equal(resp.status, 200);
  assert.deepEqual([...session.inputSeqs.keys()], [ids[0]], "the removed row's input is gone, the first row's stays");
  resp = await tab.post({ page: "p", seq: 2, msg: "Drop", handlerId: ids[1], inputState: { "r.9#nothing": { value: "x", seq: 2 } } });
  assert.equal(resp.status, 200);
  assert.deepEqual([...session.inputSeqs.keys()], [ids[0]], "a reported id that is not in the tree is not kept");
  live.close();
});
