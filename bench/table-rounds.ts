/**
 * One side of bench/table.bench.ts's comparison in a process of its own: ours (a live app of the
 * table page), ours with each row a `Ui.lazy` part ("ours-lazy"), ours with every event's tree
 * rendered again from the model ("ours-released": a live app whose tree budget is one byte, and
 * two tabs of two sessions taking turns, so that each event makes the other session give its tree
 * up, as sessions past `maxTreeBytes` do), or a whole-page peer, at a number of rows, with one tab.
 * The bench starts one such process per side and asks each in turn for a round of events, so each
 * side's heap, collector and caches hold its own work alone, as on a server that runs one of them,
 * while the rounds of the sides still interleave in time.
 *
 *   node --import tsx bench/table-rounds.ts <ours | ours-lazy | ours-released | peer kind> <rows>
 *   bun bench/table-rounds.ts …    deno run -A bench/table-rounds.ts …
 *
 * Prints READY when its tab is open. Then each line read from stdin is a count of events to run:
 * it runs them and prints ROUND {"cpu", "bytes"} (CPU µs of this process and reply bytes, per
 * event). An empty line or the end of stdin ends it.
 */
import process from "node:process";
import { peerApp, type PeerKind, tableApp, tableLazyView, tableView } from "./table-page.ts";
import { events, openPeerTab, openTab, oursRequest, peerRequest } from "./table-tabs.ts";
import { onLines } from "./stream-lines.ts";

const g = globalThis as { Deno?: { args: string[] } };
const [kind, rowsArg] = g.Deno?.args ?? process.argv.slice(2);
const rows = Number(rowsArg);
if (kind === undefined || !(rows > 0)) throw new Error("usage: table-rounds.ts <ours | ours-lazy | ours-released | peer kind> <rows>");

let run: (count: number) => Promise<{ cpu: number; bytes: number }>;
let close = () => {};
if (kind === "ours" || kind === "ours-lazy") {
  const app = tableApp(rows, {}, kind === "ours" ? tableView : tableLazyView);
  const tab = await openTab(app.fetch, rows, "bench-page");
  run = (count) => events(app.fetch, () => oursRequest(tab), count);
  close = () => app.close();
} else if (kind === "ours-released") {
  const app = tableApp(rows, { maxTreeBytes: 1 });
  const tabs = [await openTab(app.fetch, rows, "bench-page-a"), await openTab(app.fetch, rows, "bench-page-b")];
  let turn = 0;
  run = (count) => events(app.fetch, () => oursRequest(tabs[turn++ % 2]!), count);
  close = () => app.close();
} else {
  const app = peerApp(kind as PeerKind, rows);
  const tab = await openPeerTab(app.fetch, rows);
  run = (count) => events(app.fetch, () => peerRequest(tab, rows), count);
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
