/**
 * One side of bench/table.bench.ts's comparison in a process of its own: ours (a live app of the
 * keyed table page, "ours"; the same with each tab showing rows of its own, "ours-own"; the same
 * with its rows listed by `Ui.each`, "ours-each"; or placed by index without keys, "ours-unkeyed"), ours with every event's tree rendered again from the model
 * ("ours-released": a live app whose tree budget is one byte, and two tabs of two sessions taking
 * turns, so that each event makes the other session give its tree up, as sessions past
 * `maxTreeBytes` do), or a whole-page peer, at a number of rows, with a number of tabs. With more
 * than one tab, each tab of ours is a session of its own with its event stream open (`?page=`,
 * its bytes taken as they come), and the events go round the tabs, as a server holds many sessions;
 * a peer's tabs are as many models. The bench starts one such process per side and asks each in
 * turn for a round of events, so each side's heap, collector and caches hold its own work alone,
 * as on a server that runs one of them, while the rounds of the sides still interleave in time.
 *
 *   node --import tsx bench/table-rounds.ts <ours | ours-own | ours-each | ours-unkeyed | ours-released | peer kind> <rows> [tabs]
 *   bun bench/table-rounds.ts …    deno run -A bench/table-rounds.ts …
 *
 * Prints READY when its tabs are open. Then each line read from stdin is a count of events to run:
 * it runs them and prints ROUND {"cpu", "bytes"} (CPU µs of this process and reply bytes, per
 * event). An empty line or the end of stdin ends it.
 */
import process from "node:process";
import { peerApp, type PeerKind, tableApp, VIEWS } from "./table-page.ts";
import { drainStream, events, openPeerTab, openTab, oursRequest, peerRequest, type PeerTab, type Tab } from "./table-tabs.ts";
import { onLines } from "./stream-lines.ts";

const g = globalThis as { Deno?: { args: string[] } };
const [kind, rowsArg, tabsArg = "1"] = g.Deno?.args ?? process.argv.slice(2);
const rows = Number(rowsArg);
const tabCount = Number(tabsArg);
if (kind === undefined || !(rows > 0) || !(tabCount > 0)) {
  throw new Error("usage: table-rounds.ts <ours | ours-own | ours-each | ours-unkeyed | ours-released | peer kind> <rows> [tabs]");
}

let run: (count: number) => Promise<{ cpu: number; bytes: number }>;
let close = () => {};
if (kind === "ours" || kind === "ours-own" || kind === "ours-each" || kind === "ours-unkeyed") {
  const view = VIEWS[kind];
  const app = tableApp(rows, {}, view);
  const tabs: Tab[] = [];
  const streams: { close(): void }[] = [];
  for (let t = 0; t < tabCount; t++) {
    // "ours-own": each tab a session of its own rows, no text alike between them.
    const tab = await openTab(app.fetch, rows, `bench-page-${t}`, view, kind === "ours-own" ? t + 1 : 0);
    tabs.push(tab);
    if (tabCount > 1) streams.push(await drainStream(app.fetch, tab));
  }
  let turn = 0;
  run = (count) => events(app.fetch, () => oursRequest(tabs[turn++ % tabs.length]!), count);
  close = () => {
    for (const stream of streams) stream.close();
    app.close();
  };
} else if (kind === "ours-released") {
  const app = tableApp(rows, { maxTreeBytes: 1 });
  const tabs = [await openTab(app.fetch, rows, "bench-page-a"), await openTab(app.fetch, rows, "bench-page-b")];
  let turn = 0;
  run = (count) => events(app.fetch, () => oursRequest(tabs[turn++ % 2]!), count);
  close = () => app.close();
} else {
  const app = peerApp(kind as PeerKind, rows);
  const tabs: PeerTab[] = [];
  for (let t = 0; t < tabCount; t++) tabs.push(await openPeerTab(app.fetch, rows));
  let turn = 0;
  run = (count) => events(app.fetch, () => peerRequest(tabs[turn++ % tabs.length]!, rows), count);
}

console.log("READY");
let queue = Promise.resolve();
onLines(process.stdin, (line) => {
  queue = queue.then(async () => {
    const count = Number(line);
    if (!(count > 0)) return end();
    console.log(`ROUND ${JSON.stringify(await run(count))}`);
  });
});
process.stdin.on("end", () => void queue.then(end));

function end(): void {
  close();
  process.exit(0);
}
