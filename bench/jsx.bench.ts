/**
 * The JSX runtime against Ui.h: the same to-do page (bench/jsx-views.tsx) written in
 * TSX and with Ui.h, 100 rows (about 800 elements).
 *
 * - event: what a session does per event after update: the view built under the session's log of
 *   calls (src/live/render-state/element-log.ts), ids assigned, and the diff against the previous tree. Each
 *   event toggles one row, so most calls meet their previous render's record.
 * - first render: the view built fresh, ids assigned and the tree rendered to HTML (a page load).
 *
 * Time: the median pair of alternating rounds (bench/report.ts medianPair). Target: the JSX path
 * within 1.1x of Ui.h's time.
 */
import { diff } from "../src/live/diff/diff.ts";
import { assignIds } from "../src/live/ids.ts";
import { render } from "../src/live/render.ts";
import type { LiveTree } from "../src/live/tree.ts";
import { RenderState, renderWith } from "../src/live/render-state/render-state.ts";
import type { UiElement } from "../src/ui/node.ts";
import { hView, jsxView, type Model } from "./jsx-views.tsx";
import { type BenchRow, medianPair, report } from "./report.ts";

const ROWS = 100;
const base: Model = {
  title: "To do",
  draft: "",
  items: Array.from(
    { length: ROWS },
    (_, i) => ({ id: i, text: `item ${i}`, done: i % 3 === 0, tags: i % 2 ? ["home"] : ["work", "soon"] }),
  ),
};
/** The model after `n` events: event n toggles row n mod ROWS. */
function modelAt(n: number): Model {
  const at = n % ROWS;
  return { ...base, items: base.items.map((item, i) => (i === at ? { ...item, done: !item.done } : item)) };
}
const MODELS = Array.from({ length: ROWS }, (_, n) => modelAt(n));

/** A session's per-event work for `view`: build under the session's log, ids, diff. */
function eventRunner(view: (m: Model) => UiElement): () => number {
  const memo = new RenderState();
  let tree: LiveTree = assignIds(renderWith(memo, () => view(MODELS[0]!)));
  let n = 0;
  return () => {
    const model = MODELS[++n % ROWS]!;
    const next = assignIds(renderWith(memo, () => view(model)));
    const patches = diff(tree, next);
    tree = next;
    return patches.length;
  };
}

function pageRunner(view: (m: Model) => UiElement): () => number {
  let n = 0;
  return () => render(assignIds(view(MODELS[++n % ROWS]!))).length;
}

/** µs per call of each side over a round of about 100 ms; `rounds` pairs, alternating which goes first. */
function pairedRounds(ours: () => number, peer: () => number, rounds = 15): { ours: number; peer: number } {
  let sink = 0;
  const round = (fn: () => number) => {
    let calls = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < 100) {
      for (let i = 0; i < 20; i++) sink += fn();
      calls += 20;
      t = performance.now();
    }
    return ((t - t0) * 1000) / calls;
  };
  for (let i = 0; i < 3; i++) (round(ours), round(peer)); // warm-up
  const a: number[] = [], b: number[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) (a.push(round(ours)), b.push(round(peer)));
    else (b.push(round(peer)), a.push(round(ours)));
  }
  if (sink === -1) console.log(sink);
  return medianPair(a, b);
}

const rows: BenchRow[] = [];
for (const [name, make] of [["event: view + ids + diff", eventRunner], ["first render: view + ids + HTML", pageRunner]] as const) {
  const pair = pairedRounds(make(jsxView), make(hView));
  rows.push({
    name: `${name}, ${ROWS} rows`,
    ours: pair.ours,
    peer: pair.peer,
    peerName: "Ui.h",
    unit: "µs",
    higherIsBetter: false,
    target: "time <= 1.1x Ui.h",
    met: pair.ours <= 1.1 * pair.peer,
  });
}
report("JSX runtime", rows);
