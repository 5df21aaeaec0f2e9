import { serve } from "@hono/node-server";
import { spawn } from "node:child_process";
import { Session } from "node:inspector/promises";
import { smallFormApp, openSmallSession } from "./http-small-form.ts";
import { bareApp, eventBody, eventHeaders } from "./live-app.ts";
import { onLines } from "./stream-lines.ts";
const which = process.argv[2] ?? "small";
const app = which === "bare" ? bareApp() : smallFormApp();
const small = smallFormApp();
const port: number = await new Promise((r) => { const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (i) => r(i.port)); Object.assign(s, { keepAliveTimeout: 60000 }); });
const sport: number = await new Promise((r) => serve({ fetch: small.fetch, hostname: "127.0.0.1", port: 0 }, (i) => r(i.port)));
const creds = [];
for (let i = 0; i < 50; i++) creds.push(await openSmallSession(`http://127.0.0.1:${which === "bare" ? sport : port}`));
const tabs = creds.map((c) => ({ headers: eventHeaders(c), body: eventBody(c, 1) }));
const load = (seconds: number) => new Promise<any>((resolve) => {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/http-load.ts", JSON.stringify({ url: `http://127.0.0.1:${port}/_svc/event`, seconds, tabs })], { stdio: ["ignore", "pipe", "inherit"] });
  onLines(child.stdout!, (l) => l.startsWith("LOAD ") && resolve(JSON.parse(l.slice(5))));
});
await load(2);
const session = new Session(); session.connect();
await session.post("Profiler.enable"); await session.post("Profiler.setSamplingInterval", { interval: 200 });
await session.post("Profiler.start");
const c0 = process.cpuUsage();
const l = await load(4);
const u = process.cpuUsage(c0);
const { profile } = (await session.post("Profiler.stop")) as any;
console.log(which, l.requests / l.seconds, "ev/s", ((u.user + u.system) / l.requests).toFixed(1), "µs/ev", l.non2xx);
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
const self = new Map<string, number>(); let total = 0;
for (const id of profile.samples) { const { functionName, url } = (byId.get(id) as any).callFrame; if (functionName === "(idle)") continue; total++; const k = `${functionName} ${url.replace(/^.*\/(node_modules\/|src\/|bench\/)/, "$1")}`; self.set(k, (self.get(k) ?? 0) + 1); }
for (const [k, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((100 * n / total).toFixed(1) + "%", k);
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map<string, number>();
for (const id of profile.samples) {
  if ((byId.get(id) as any).callFrame.functionName === "(idle)") continue;
  const seen = new Set<string>();
  for (let at: any = id; at !== undefined; at = parent.get(at)) {
    const { functionName, url } = (byId.get(at) as any).callFrame;
    if (!/src\//.test(url) && !/hono/.test(url)) continue;
    const k = `${functionName} ${url.replace(/^.*\/(node_modules\/|src\/|bench\/)/, "$1")}`;
    if (seen.has(k)) continue; seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + 1);
  }
}
console.log("--- inclusive");
for (const [k, n] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log((100 * n / total).toFixed(1) + "%", k);
process.exit(0);
