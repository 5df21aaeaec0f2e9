/**
 * The diff engine against re-rendering. For trees of about 100, 1,000 and 10,000 nodes
 * (a table: each row a <tr> with three <td>, the last holding an <input>), four edits: one text
 * change, one input value change, a keyed reorder (last row to the top), an insert at the top
 * (unkeyed rows, so every row below is renamed: the worst case for the kids list).
 *
 * Ours: assign ids to the new view tree + diff against the previous live tree + JSON.stringify of
 * the patches, i.e. the per-event work after `view`. The new view tree is built once, like the
 * peer's, so before each timed call its elements forget the placements the last call made (the live
 * element each became or was given, src/live/ids.ts, for a view that hands an element back again,
 * and the seg each took when it became its own live element): otherwise every
 * call after the first would reuse those, measuring neither the ids nor the diff. The walk that
 * forgets them is counted in our time. The diff also builds the tree a session would keep
 * (src/live/diff/diff.ts, diffTrees), which is counted too. Peer: hono/jsx renderToString of the same new
 * tree, prebuilt (what a re-render-and-send server does per event). Our own full render is printed
 * beside it. Time: median of batches from alternating rounds after a warm-up. Bytes: patch JSON vs
 * the peer's HTML.
 *
 * Targets: diff + serialise at most 1.0x the time of renderToString; a one-cell change in a
 * 300-row table at most 150 bytes of patch JSON.
 */
import { jsx } from "hono/jsx";
import { renderToString } from "hono/jsx/dom/server";
import { diff } from "../src/live/diff/diff.ts";
import { assignIds } from "../src/live/ids.ts";
import { render } from "../src/live/render.ts";
import { elementExtras, h, keyed, type UiElement } from "../src/ui/node.ts";
import { type BenchRow, median, report } from "./report.ts";

type Row = { id: number; name: string; qty: string };
type Model = { rows: Row[]; keyed: boolean };

const NODES_PER_ROW = 5; // tr, 3 td, input (texts aside)

function model(rows: number, isKeyed: boolean): Model {
  return { rows: Array.from({ length: rows }, (_, i) => ({ id: i, name: `item ${i}`, qty: String(i % 7) })), keyed: isKeyed };
}

function ours(m: Model): UiElement {
  const rows = m.rows.map((r) => {
    const tr = h(
      "tr",
      {},
      h("td", {}, String(r.id)),
      h("td", {}, r.name),
      h("td", {}, h("input", { name: `qty${r.id}`, value: r.qty, onInput: ["Qty", r.id] })),
    );
    return m.keyed ? keyed(r.id, tr) : tr;
  });
  return h("table", {}, h("tbody", {}, rows));
}

// hono/jsx without JSX syntax: jsx(tag, props, ...children)
function peer(m: Model): ReturnType<typeof jsx> {
  const rows = m.rows.map((r) =>
    jsx(
      "tr",
      m.keyed ? { key: String(r.id) } : {},
      jsx("td", {}, String(r.id)),
      jsx("td", {}, r.name),
      jsx("td", {}, jsx("input", { name: `qty${r.id}`, value: r.qty })),
    )
  );
  return jsx("table", {}, jsx("tbody", {}, ...rows));
}

type Edit = { name: string; keyed: boolean; apply: (m: Model) => Model };
const EDITS: Edit[] = [
  {
    name: "one text change",
    keyed: false,
    apply: (m) => ({ ...m, rows: m.rows.map((r, i) => (i === m.rows.length >> 1 ? { ...r, name: `${r.name}!` } : r)) }),
  },
  {
    name: "one input value change",
    keyed: false,
    apply: (m) => ({ ...m, rows: m.rows.map((r, i) => (i === m.rows.length >> 1 ? { ...r, qty: "42" } : r)) }),
  },
  { name: "keyed reorder", keyed: true, apply: (m) => ({ ...m, rows: [m.rows[m.rows.length - 1]!, ...m.rows.slice(0, -1)] }) },
  { name: "insert at the top", keyed: false, apply: (m) => ({ ...m, rows: [{ id: -1, name: "new", qty: "0" }, ...m.rows] }) },
];

/** A batch runner for `fn`: time per call in ms, over `n` calls. */
function batcher(fn: () => unknown): (n: number) => number {
  let sink = 0;
  return (n) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) sink += (fn() as { length?: number })?.length ?? 1;
    if (sink === -1) console.log(sink);
    return (performance.now() - t0) / n;
  };
}

/** Calls per batch so that one batch takes about 20 ms (and a warm-up on the way). */
function batchSize(batch: (n: number) => number): number {
  let n = 1;
  while (batch(n) * n < 20) n *= 2;
  return n;
}

/**
 * Median time in µs per call of each function, side by side: after a warm-up, alternating rounds
 * of about 100 ms each (five per function at least), so a change in the shared machine's load or
 * a collection left over by one side weighs on both alike. Every batch is a sample.
 */
function timeSideBySide(fns: readonly (() => unknown)[]): number[] {
  const batches = fns.map(batcher);
  const sizes = batches.map(batchSize);
  const samples = fns.map(() => [] as number[]);
  for (let round = 0; round < 5; round++) {
    for (let k = 0; k < fns.length; k++) {
      const which = (round + k) % fns.length;
      const until = performance.now() + 100;
      do samples[which]!.push(batches[which]!(sizes[which]!)); while (performance.now() < until);
    }
  }
  return samples.map((list) => median(list) * 1000);
}

/** Clears the live element each view element of the tree keeps from its last placement; returns the tree. */
function forgetPlacements(el: UiElement): UiElement {
  el.extras = elementExtras(el.extras?.passes, el.extras?.pass, undefined);
  // A view element is its own live element the first time it is placed: made fresh again.
  el.seg = undefined;
  el.kids = undefined;
  for (const kid of el.children) if (kid.kind === "el") forgetPlacements(kid);
  return el;
}

const rows: BenchRow[] = [];
for (const nodes of [100, 1_000, 10_000]) {
  for (const edit of EDITS) {
    const before = model(Math.round(nodes / NODES_PER_ROW), edit.keyed);
    const after = edit.apply(before);
    const prevLive = assignIds(ours(before));
    const nextView = ours(after);
    const peerTree = peer(after);
    const json = JSON.stringify(diff(prevLive, assignIds(nextView)));
    const html = renderToString(peerTree);
    const [tDiff, tPeer, tRender] = timeSideBySide([
      () => JSON.stringify(diff(prevLive, assignIds(forgetPlacements(nextView)))),
      () => renderToString(peerTree),
      () => render(assignIds(forgetPlacements(nextView))),
    ]) as [number, number, number];
    console.log(
      `${String(nodes).padStart(6)} nodes, ${edit.name.padEnd(22)} diff+JSON ${tDiff.toFixed(1).padStart(8)} µs ${
        String(json.length).padStart(8)
      } B | ` +
        `our render ${tRender.toFixed(1).padStart(8)} µs | hono renderToString ${tPeer.toFixed(1).padStart(8)} µs ${
          String(html.length).padStart(8)
        } B | ` +
        `time ${(tPeer / tDiff).toFixed(2)}x, bytes ${(html.length / json.length).toFixed(1)}x`,
    );
    rows.push({
      name: `diff+JSON, ${edit.name}, ${nodes} nodes`,
      ours: tDiff,
      peer: tPeer,
      peerName: "hono/jsx renderToString",
      unit: "µs",
      higherIsBetter: false,
      target: "time <= 1.0x peer",
      met: tDiff <= tPeer,
    });
    rows.push({
      name: `patch bytes, ${edit.name}, ${nodes} nodes`,
      ours: json.length,
      peer: html.length,
      peerName: "hono/jsx HTML",
      unit: "B",
      higherIsBetter: false,
      target: "report",
      met: true,
    });
  }
}

// One cell of a 300-row table (three cells a row, one input per row).
{
  const before = model(300, false);
  const after: Model = { ...before, rows: before.rows.map((r, i) => (i === 150 ? { ...r, name: "changed" } : r)) };
  const json = JSON.stringify(diff(assignIds(ours(before)), assignIds(ours(after))));
  const html = renderToString(peer(after));
  console.log(`300-row table, one cell: ${json}`);
  rows.push({
    name: "patch bytes, one cell of a 300-row table",
    ours: json.length,
    peer: html.length,
    peerName: "hono/jsx HTML",
    unit: "B",
    higherIsBetter: false,
    target: "<= 150 B (LiveView ~120 B)",
    met: json.length <= 150,
  });
}

report("live diff", rows);
