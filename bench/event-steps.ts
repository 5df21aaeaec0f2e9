/**
 * The steps of an event as the benches that take it apart name them (bench/live-event.bench.ts in
 * process, bench/http-profile.ts over HTTP): the V8 CPU profiler samples the process, and each
 * sample counts for the innermost step its stack is in; the CPU time of the run is shared out by
 * the samples, so the lines add up to the CPU per event. Node only (node:inspector).
 */

/** The steps of an event, in the order the event route takes them, with the code each one is. */
export const STEPS: readonly { readonly step: string; readonly files: RegExp; readonly functions?: RegExp; readonly around?: true }[] = [
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
  { step: "the Secure-cookie middleware", files: /src\/server\/secure\.ts$/ },
  // Code around the steps: a sample counts for these only when no step above is in its stack.
  { step: "Hono and the app's middleware", files: /node_modules\/hono\/|live\/server\/app\/|src\/server\//, around: true },
  {
    step: "request and reply on the socket (node:http, @hono/node-server)",
    files: /node_modules\/@hono\/node-server\/|^node:_http|^node:net$|stream_base_commons/,
    around: true,
  },
];

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
};
export type Profile = { nodes: ProfileNode[]; samples: number[] };

const OTHER = "other (runtime, timers, microtasks)";
/** How many of the costliest functions the breakdown lists. */
const TOP = 25;

/**
 * The step a profile node's samples count for: the innermost frame of its stack that is a step's,
 * or, when no step is in the stack, the innermost that is code around them (the runtime's and
 * Hono's code called from a step counts for that step).
 */
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
      let step: string | undefined;
      let around: string | undefined;
      for (let at: number | undefined = node.id; at !== undefined && step === undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        const found = STEPS.find((s) => s.files.test(frame.url) && (s.functions === undefined || s.functions.test(frame.functionName)));
        if (found?.around) around ??= found.step;
        else if (found !== undefined) step = found.step;
      }
      steps.set(node.id, step ?? around ?? OTHER);
    }
  }
  return steps;
}

/** Runs `work` under the CPU profiler, sampling every 100 µs. */
export async function profiled<T>(work: () => Promise<T>): Promise<{ result: T; profile: Profile }> {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  const result = await work();
  const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: Profile };
  session.disconnect();
  return { result, profile };
}

/**
 * Prints the steps' share of `cpu` (CPU µs per event, measured without the profiler: sampling slows
 * a deep stack more than a shallow one, so the shares are read off the profile and the figure off
 * a run of its own), then the costliest functions.
 */
export function printBreakdown(title: string, profile: Profile, cpu: number): void {
  const steps = stepsOf(profile);
  const samples = new Map<string, number>();
  for (const id of profile.samples) {
    const step = steps.get(id) ?? OTHER;
    samples.set(step, (samples.get(step) ?? 0) + 1);
  }
  samples.delete("idle");
  const total = [...samples.values()].reduce((a, b) => a + b, 0);
  const order = [...new Set(STEPS.map((s) => s.step)), OTHER, "garbage collector"];
  console.log(`\n${title}, ${total} samples`);
  console.log("| step | CPU µs per event | share |");
  console.log("|---|---|---|");
  for (const step of order) {
    const n = samples.get(step) ?? 0;
    if (n > 0) console.log(`| ${step} | ${((cpu * n) / total).toFixed(1)} | ${((100 * n) / total).toFixed(1)} % |`);
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
