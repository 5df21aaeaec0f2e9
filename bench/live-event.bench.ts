/**
 * The fixed cost of one event, on a 1-row page (bench/table-page.ts at one row: an edit counter
 * and a table of one row), in one process with 20 sessions, each with its event stream open and
 * read as a socket would take it. Two parts:
 *
 * 1. The event taken apart per step. The V8 CPU profiler samples the process (every 100 µs) while
 *    it serves events through the app's fetch, and each sample counts for the innermost step its
 *    stack is in: making the request, Hono (router, context, the app's middleware), the cookie, the
 *    session lookup, the origin, the CSRF check, the body (read and parse), the access check, the
 *    step (the app's update and view, the diff, the input bookkeeping), keeping the change, the
 *    frame, the stream write, the reply; the garbage collector's samples are a line of their own.
 *    The CPU time of the run (process.cpuUsage) is shared out by the samples, so the lines add up
 *    to the CPU per event. Node only (node:inspector).
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
/** How many of the costliest functions the breakdown lists. */
const TOP = 25;

/** The steps of an event, in the order the event route takes them, with the code each one is. */
const STEPS: readonly { readonly step: string; readonly files: RegExp; readonly functions?: RegExp }[] = [
  { step: "cookie", files: /access\/session-cookies\.ts$/ },
  { step: "session lookup", files: /registry\/(registry|lookup)\.ts$/, functions: /^(resolveForEvent|resolve|lookUp|sessionOf)$/ },
  { step: "session lookup", files: /http\/refusals\.ts$/, functions: /^liveOr$/ },
  { step: "origin", files: /http\/origin\.ts$/ },
  {
    step: "CSRF",
    files: /http\/(csrf|rotation)\.ts$/,
    functions: /^(check|checkToken|matchesCookie|expectedFor|csrfCookieIn|checkNames)$/,
  },
  { step: "CSRF", files: /http\/event-route\.ts$/, functions: /^checkNames$/ },
  { step: "body", files: /http\/(body|body-limits)\.ts$/ },
  { step: "body", files: /http\/event-route\.ts$/, functions: /^parsedEvent$/ },
  { step: "access", files: /access\/session-access\.ts$/ },
  { step: "frame", files: /streams\/session-frames\.ts$/, functions: /^frameOf$/ },
  { step: "frame", files: /session\/(state|rename-log)\.ts$/ },
  { step: "stream write", files: /streams\/(session-frames|sse-wire|sse-stream)\.ts$/ },
  { step: "keep", files: /registry\/(registry|session-keeping|tree-budget|snapshot-store)\.ts$/ },
  {
    step: "keep",
    files: /session\/(session|subscriptions|tree-bytes)\.ts$/,
    functions: /^(keepDurably|keep|commit|afterChange|reconcileSubscriptions|run|framed)$/,
  },
  { step: "reply", files: /http\/(refusals|rotation)\.ts$/ },
  { step: "reply", files: /http\/event-route\.ts$/, functions: /^(replyFor|tellRenamed)$/ },
  { step: "step", files: /session\/|src\/ui\/|src\/live\/(tree|diff|ids|render)|src\/protocol\// },
  { step: "event route", files: /http\/(event-route|turn-batch)\.ts$/ },
  { step: "request (the bench makes it)", files: /bench\/table-tabs\.ts$/ },
  { step: "Hono and the app's middleware", files: /node_modules\/hono\/|live\/server\/app\/|src\/server\// },
];

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[] };

/** The step a profile node's samples count for: the innermost frame of its stack that is a step's. */
function stepsOf(profile: Profile): Map<number, string> {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const steps = new Map<number, string>();
  for (const node of profile.nodes) {
    const name = node.callFrame.functionName;
    if (name === "(garbage collector)") steps.set(node.id, "garbage collector");
    else if (name === "(idle)") steps.set(node.id, "idle");
    else {
      let step = "other (runtime, timers, microtasks)";
      for (let at: number | undefined = node.id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        const found = STEPS.find((s) => s.files.test(frame.url) && (s.functions === undefined || s.functions.test(frame.functionName)));
        if (found !== undefined) {
          step = found.step;
          break;
        }
      }
      steps.set(node.id, step);
    }
  }
  return steps;
}

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

/** Part 1: ours taken apart per step; prints the breakdown, returns the CPU µs per event of the run. */
async function breakdown(run: (count: number) => Promise<{ cpu: number }>): Promise<void> {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  const count = EVENTS_PER_ROUND * 2;
  await session.post("Profiler.start");
  const { cpu } = await run(count);
  const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: Profile };
  session.disconnect();
  const steps = stepsOf(profile);
  const samples = new Map<string, number>();
  for (const id of profile.samples) {
    const step = steps.get(id) ?? "other (runtime, timers, microtasks)";
    samples.set(step, (samples.get(step) ?? 0) + 1);
  }
  samples.delete("idle");
  const total = [...samples.values()].reduce((a, b) => a + b, 0);
  const order = [...new Set(STEPS.map((s) => s.step)), "other (runtime, timers, microtasks)", "garbage collector"];
  console.log(`\nA 1-row page's event taken apart (${SESSIONS} sessions with open streams, ${count} events, ${total} samples)`);
  console.log("| step | CPU µs per event | share |");
  console.log("|---|---|---|");
  for (const step of order) {
    const n = samples.get(step) ?? 0;
    console.log(`| ${step} | ${((cpu * n) / total).toFixed(1)} | ${((100 * n) / total).toFixed(1)} % |`);
  }
  console.log(`| the whole event | ${cpu.toFixed(1)} | 100 % |`);
  // The functions that take the most samples themselves, with the step they count for.
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const id of profile.samples) {
    const { functionName, url } = byId.get(id)!.callFrame;
    if (functionName === "(idle)") continue;
    const key = `${functionName || "(anonymous)"} ${url.replace(/^.*\/(node_modules\/|src\/|bench\/)/, "$1")} [${steps.get(id)}]`;
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  console.log(`\nThe ${TOP} functions with the most samples of their own (CPU µs per event):`);
  for (const [key, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${((cpu * n) / total).toFixed(1)}  ${key}`);
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
