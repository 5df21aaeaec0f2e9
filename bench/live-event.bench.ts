/**
 * The fixed cost of one event, on a 1-row page (bench/table-page.ts at one row: an edit counter
 * and a table of one row), in one process with 20 sessions, each with its event stream open and
 * read as a socket would take it. Two parts:
 *
 * 1. The event taken apart per step (bench/event-steps.ts). The V8 CPU profiler samples the
 *    process (every 100 µs) while it serves events through the app's fetch, and each sample counts
 *    for the innermost step its stack is in: making the request, Hono (router, context, the app's
 *    middleware), the cookie, the session lookup, the origin, the CSRF check, the body (read and parse), the access check, the
 *    step (the app's update and view, the diff, the input bookkeeping), keeping the change, the
 *    frame, the stream write, the reply; the garbage collector's samples are a line of their own.
 *    The CPU per event of a run without the profiler (process.cpuUsage) is shared out by the
 *    samples, so the lines add up to it. Node only (node:inspector).
 * 2. Against the peer: a plain Hono route that parses the same JSON body, finds its model in a Map
 *    by cookie and renders the page again with a hand-written hono/html template (bench/table-page.ts
 *    peerApp), with as many tabs. Five rounds of each side interleave in this process; the pair with
 *    the median ratio is kept (bench/report.ts medianPair). Target: ours at most 1.0x the peer's
 *    CPU per event.
 *
 * Run: npx tsx bench/live-event.bench.ts [scale]   (bun and deno run part 2 only)
 */
import process from "node:process";
import { type BenchRow, medianPair, report } from "./report.ts";
import { printBreakdown, profiled } from "./event-steps.ts";
import { peerApp, tableApp, TEMPLATE_PEER } from "./table-page.ts";
import { drainStream, events, type Fetch, openPeerTab, openTab, oursRequest, peerRequest, type PeerTab, type Tab } from "./table-tabs.ts";

const g = globalThis as { Bun?: unknown; Deno?: { args: string[] } };
const runtime = g.Bun ? "bun" : g.Deno ? "deno" : "node";
const args = g.Deno?.args ?? process.argv.slice(2);
const scale = Number(args.find((arg) => Number(arg) > 0) ?? 1);
const ROWS = 1;
const SESSIONS = 20;
const ROUNDS = 5;
const EVENTS_PER_ROUND = Math.max(500, Math.round(4_000 * scale));
const TARGET = 1.0;

/** Opens the tabs of ours (each a session with its stream open) and of the peer. */
async function sides() {
  const ours = tableApp(ROWS);
  const tabs: Tab[] = [];
  const streams: { close(): void }[] = [];
  for (let t = 0; t < SESSIONS; t++) {
    const tab = await openTab(ours.fetch, ROWS, `bench-page-${t}`);
    tabs.push(tab);
    streams.push(await drainStream(ours.fetch, tab));
  }
  const peer = peerApp(TEMPLATE_PEER, ROWS);
  const peerTabs: PeerTab[] = [];
  for (let t = 0; t < SESSIONS; t++) peerTabs.push(await openPeerTab(peer.fetch, ROWS));
  let turn = 0;
  let peerTurn = 0;
  return {
    ours: (count: number) => events(ours.fetch as Fetch, () => oursRequest(tabs[turn++ % SESSIONS]!), count),
    peer: (count: number) => events(peer.fetch as Fetch, () => peerRequest(peerTabs[peerTurn++ % SESSIONS]!, ROWS), count),
    close() {
      for (const stream of streams) stream.close();
      ours.close();
    },
  };
}

/** Part 1: ours taken apart per step: the CPU per event of a run without the profiler, shared out by the samples of a run with it. */
async function breakdown(run: (count: number) => Promise<{ cpu: number }>): Promise<void> {
  const count = EVENTS_PER_ROUND * 2;
  const { cpu } = await run(count);
  const { profile } = await profiled(() => run(count));
  printBreakdown(`A 1-row page's event taken apart (${SESSIONS} sessions with open streams, ${count} events a run)`, profile, cpu);
}

const load = process.platform === "linux" ? (await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(" ") : "?";
console.log(`load average at the start: ${load}`);
const both = await sides();
const rows: BenchRow[] = [];
try {
  // Warm both sides up (the JIT, the caches).
  for (let w = 0; w < 3; w++) {
    await both.ours(EVENTS_PER_ROUND / 2);
    await both.peer(EVENTS_PER_ROUND / 2);
  }
  if (runtime === "node") await breakdown(both.ours);
  const ours: number[] = [];
  const peer: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const runOurs = async () => ours.push((await both.ours(EVENTS_PER_ROUND)).cpu);
    const runPeer = async () => peer.push((await both.peer(EVENTS_PER_ROUND)).cpu);
    if (r % 2 === 0) {
      await runOurs();
      await runPeer();
    } else {
      await runPeer();
      await runOurs();
    }
  }
  console.log(
    `\nCPU µs per event per round: ours ${ours.map((x) => x.toFixed(1)).join(" ")}; peer ${peer.map((x) => x.toFixed(1)).join(" ")}`,
  );
  const pair = medianPair(ours, peer);
  rows.push({
    name: `CPU per event, 1-row page, ${SESSIONS} sessions with open streams, one process, median pair of ${ROUNDS} interleaved rounds`,
    ours: pair.ours,
    peer: pair.peer,
    peerName: "Hono route: JSON body, model from a Map by cookie, page again with hono/html",
    unit: "µs",
    higherIsBetter: false,
    target: `ours <= ${TARGET}x peer`,
    met: pair.ours <= TARGET * pair.peer,
  });
} finally {
  both.close();
}
const loadEnd = process.platform === "linux" ? (await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(" ") : "?";
console.log(`load average at the end: ${loadEnd}`);
report("live-event", rows);
process.exit(0);
