/**
 * A tab's life on the table page, in a process of its own (bench/table.bench.ts, "life"): a fresh
 * live app of 1,000 keyed rows and one tab sending 1,000 events in a row, each on a row it has not
 * edited; three such lives, one after another. A process of its own, so that the heap and the
 * collector hold this page's sessions alone, as on a server that runs one app (run after the other
 * page's lives, a page's collections were those of both).
 *
 *   node --import tsx bench/table-life.ts <ours | ours-each>
 *   bun bench/table-life.ts …    deno run -A bench/table-life.ts …
 *
 * Prints one line: LIFE { lives: [{ cpu, collected }], observed }: for each life, the CPU µs of
 * each event, and whether a collection paused the main thread while it ran (the runtime's
 * collector, not the library's work). `observed`: whether the runtime reports its collections
 * (Node's `gc` performance entries); without them, no event is marked.
 */
import { performance, PerformanceObserver } from "node:perf_hooks";
import process from "node:process";
import { tableApp, VIEWS } from "./table-page.ts";
import { cpuMicros, openTab, oursRequest } from "./table-tabs.ts";

const g = globalThis as { Deno?: { args: string[] } };
const kind = (g.Deno?.args ?? process.argv.slice(2))[0];
if (kind !== "ours" && kind !== "ours-each") throw new Error("usage: table-life.ts <ours | ours-each>");
const view = VIEWS[kind];
const SIZE = 1000;
const EVENTS = 1000;
const LIVES = 3;

/** The main thread's collection pauses, as [start, end] in performance.now() time. */
const pauses: [number, number][] = [];
let observed = false;
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.startTime + entry.duration]);
  }).observe({ entryTypes: ["gc"] });
  observed = true;
} catch {
  // The runtime does not report its collections: no event is marked.
}

const lives: { cpu: number[]; collected: boolean[] }[] = [];
for (let life = 0; life < LIVES; life++) {
  const app = tableApp(SIZE, {}, view);
  const tab = await openTab(app.fetch, SIZE, `tab-${life}`, view);
  const cpu: number[] = [];
  const spans: [number, number][] = [];
  for (let i = 0; i < EVENTS; i++) {
    const start = performance.now();
    const before = cpuMicros();
    const resp = await app.fetch(oursRequest(tab));
    if (resp.status !== 200) throw new Error(`event answered ${resp.status}: ${await resp.text()}`);
    await resp.arrayBuffer();
    cpu.push(cpuMicros() - before);
    spans.push([start, performance.now()]);
  }
  app.close();
  // Performance entries are delivered after a turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const collected = spans.map(([from, to]) => pauses.some(([start, end]) => start < to && end > from));
  lives.push({ cpu, collected });
}
console.log(`LIFE ${JSON.stringify({ lives, observed })}`);
process.exit(0);
