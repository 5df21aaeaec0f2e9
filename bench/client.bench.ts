/**
 * The two browser clients side by side (docs/live-apps.md#the-split-client): the split client is
 * "ours", the live client its peer.
 *
 *   - bundle size: each client's bundle as the app serves it, minified and gzipped;
 *   - the cost of applying a frame, client-side, in Chromium (/usr/bin/chromium through
 *     playwright-core): each client's applier, bundled for the page, applies the same frames to the
 *     same page, rounds of the two taken in pairs (bench/report.ts medianPair). Two pages: a list
 *     above a form that grows at its top in every frame, so each frame keeps and renames every row
 *     (the page's ids move, docs/protocol.md#ids-that-move); and a table of 200 rows where each
 *     frame edits one row (a text and an attribute). The frames are the server's diffs
 *     (src/live/diff/diff.ts) of one render and the next. The start on each page (filling in the derived
 *     ids, and for the split client reading the page into its tree) is reported apart.
 *
 * The Chromium rows are skipped, with the reason, under Bun and Deno and without Chromium.
 *   node --import tsx bench/client.bench.ts [--rounds 15]
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { CLIENT_BUNDLE } from "../src/generated/client-bundle.ts";
import { SPLIT_BUNDLE } from "../src/generated/split-bundle.ts";
import { diff } from "../src/live/diff/diff.ts";
import { assignIds } from "../src/live/ids.ts";
import { render } from "../src/live/render.ts";
import type { Patch } from "../src/protocol/mod.ts";
import { Ui } from "../src/ui/mod.ts";
import type { UiElement } from "../src/ui/node.ts";
import { type BenchRow, medianPair, report } from "./report.ts";
import { initialTable, tableView, updateTable } from "./table-page.ts";

const AREA = "browser clients";
const CHROMIUM = "/usr/bin/chromium";
const args = process.argv.slice(2);
const ROUNDS = Number(args[args.indexOf("--rounds") + 1] ?? "") || 15;

async function gzipSize(text: string): Promise<number> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

type Frame = { seq: number; patches: Patch[] };
type Workload = { name: string; html: string; frames: Frame[] };

/** A page's first render and the frames of `steps` models after it, as the server diffs them. */
function workload<M>(name: string, view: (m: M) => UiElement, first: M, step: (m: M, i: number) => M, steps: number): Workload {
  let model = first;
  let tree = assignIds(view(model));
  const html = render(tree);
  const frames: Frame[] = [];
  for (let i = 0; i < steps; i++) {
    model = step(model, i);
    const next = assignIds(view(model));
    frames.push({ seq: i + 1, patches: diff(tree, next) });
    tree = next;
  }
  return { name, html, frames };
}

type ListModel = { log: string[]; rows: number[] };
const h = Ui.h;
const listView = (m: ListModel): UiElement =>
  h(
    "main",
    {},
    ...m.log.map((line) => h("p", { class: "log" }, line)),
    ...m.rows.map((r) => h("div", { class: "row" }, h("span", {}, `row ${r}`), h("button", { onClick: ["Remove", r] }, "remove"))),
    h("div", {}, h("input", { name: "q", value: "", onInput: "Set" }), h("textarea", { name: "note", value: "", onInput: "Note" })),
  );

const WORKLOADS: Workload[] = [
  workload<ListModel>(
    "a frame that adds a line above a list of 50 and renames every row",
    listView,
    { log: Array.from({ length: 40 }, (_, i) => `line ${i}`), rows: Array.from({ length: 10 }, (_, i) => i) },
    (m, i) => ({ log: [`line ${100 + i}`, ...m.log].slice(0, 40), rows: i % 2 ? [...m.rows].reverse() : m.rows }),
    200,
  ),
  workload(
    "a frame that edits one row of a 200-row table",
    tableView,
    initialTable(200),
    (m, i) => updateTable(m, "SetQty", [(i * 37) % 200, (i % 9) + 1]),
    200,
  ),
];

async function pageBundle(): Promise<string> {
  const out = await build({
    entryPoints: [new URL("client-apply-page.ts", import.meta.url).pathname],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: ["es2022"],
    minify: true,
    write: false,
  });
  return out.outputFiles[0]!.text;
}

async function applyRows(): Promise<BenchRow[]> {
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "svc-bench-client-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const page = await context.newPage();
    await page.setContent("<!doctype html><html><head></head><body></body></html>");
    await page.addScriptTag({ content: await pageBundle() });
    const rows: BenchRow[] = [];
    for (const load of WORKLOADS) {
      const call = (kind: string) =>
        page.evaluate(`svcBench.run(${JSON.stringify(kind)}, ${JSON.stringify(load.html)}, ${JSON.stringify(load.frames)})`) as Promise<
          { setupMs: number; applyMs: number; page: string }
        >;
      // A warm-up of each, which must end on the same page, then rounds in pairs, the order alternating.
      const [liveEnd, splitEnd] = [await call("live"), await call("split")];
      if (liveEnd.page !== splitEnd.page) throw new Error(`the two clients end on different pages (${load.name})`);
      const live: number[] = [];
      const split: number[] = [];
      const setupLive: number[] = [];
      const setupSplit: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const first = round % 2 === 0 ? "live" : "split";
        const a = await call(first);
        const b = await call(first === "live" ? "split" : "live");
        const [l, s] = first === "live" ? [a, b] : [b, a];
        live.push((l.applyMs * 1000) / load.frames.length);
        split.push((s.applyMs * 1000) / load.frames.length);
        setupLive.push(l.setupMs * 1000);
        setupSplit.push(s.setupMs * 1000);
      }
      const pair = medianPair(split, live);
      rows.push({
        name: `apply ${load.name}, Chromium`,
        ours: pair.ours,
        peer: pair.peer,
        peerName: "live client",
        unit: "µs/frame",
        higherIsBetter: false,
        target: "time <= 2x live client",
        met: pair.ours <= 2 * pair.peer,
      });
      const start = medianPair(setupSplit, setupLive);
      rows.push({
        name: `start on the page of ${load.name.replace(/^a frame that /, "")}: ids filled in (and the split client's tree read), Chromium`,
        ours: start.ours,
        peer: start.peer,
        peerName: "live client",
        unit: "µs",
        higherIsBetter: false,
        target: "(info)",
        met: true,
      });
    }
    return rows;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const sizeLive = await gzipSize(CLIENT_BUNDLE);
const sizeSplit = await gzipSize(SPLIT_BUNDLE);
const rows: BenchRow[] = [{
  name: "bundle, minified + gzip",
  ours: sizeSplit,
  peer: sizeLive,
  peerName: "live client",
  unit: "B",
  higherIsBetter: false,
  target: "ours <= 1.5x live client",
  met: sizeSplit <= 1.5 * sizeLive,
}];

const runtime = "Bun" in globalThis ? "Bun" : "Deno" in globalThis ? "Deno" : "Node";
const skip = runtime !== "Node"
  ? `Chromium is driven from Node (this is ${runtime})`
  : existsSync(CHROMIUM)
  ? undefined
  : `${CHROMIUM} is missing`;
if (skip === undefined) rows.push(...(await applyRows()));
else console.log(`BENCH_SKIP ${JSON.stringify({ area: AREA, name: "apply a frame, Chromium", reason: skip })}`);
report(AREA, rows);
