/**
 * The server process of bench/live.bench.ts's HTTP and open-stream parts (Node only): the bench
 * form app and the bare Hono route, each served by @hono/node-server on 127.0.0.1 at a random
 * port, in a process of their own so that the load generator (autocannon, in the parent) and the
 * servers never share a JavaScript thread. Started with --expose-gc; it answers the parent's IPC
 * messages:
 *
 *   "memory"   after two forced collections: { heapUsed, rss } in bytes
 *   "sweep"    runs the stream app's registry sweep (quiet sessions drop their rendered tree)
 *   "stats"    { sessions, streams } of the stream app
 *   "cpu"      { cpuMicros, requests }: the process's user + system CPU time so far and, per port,
 *              the requests served; two readings around a load round give the CPU per event
 *
 * Live apps: `events`, one per way of writing the form's view (bench/live-app.ts, FormVariant: the
 * same page each way) for the throughput runs, `streams` for the 10,000-stream memory run (with a short treeIdleMs, so the
 * sweep acts as it would after ten quiet seconds).
 */
import { serve } from "@hono/node-server";
import { bareApp, formApp, type FormVariant } from "./live-app.ts";

/** The ports this process serves on, sent to the parent when ready: one per form view, the stream app's, the bare route's and the bare route's batched by turn. */
export type ServerPorts = { events: Record<FormVariant, number>; streams: number; bare: number; bareBatched: number };

const events = { plain: formApp(), static: formApp({}, "static"), tuned: formApp({}, "tuned"), template: formApp({}, "template") };
// The memory run loads all its pages before it opens their streams, so the bounds on sessions that
// never connected (docs/security.md#session-bounds) are raised to hold every one of them meanwhile.
const streams = formApp({ treeIdleMs: 1_000, maxSessions: 20_000, maxPendingSessions: 20_000 });
const bare = bareApp();
const bareBatched = bareApp(true);

/** Requests served, by port: the one line of bookkeeping every app, ours and the bare route, pays alike. */
const served: Record<number, number> = {};

function listen(fetch: (req: Request) => Response | Promise<Response>): Promise<number> {
  return new Promise((resolve) => {
    let port = 0;
    const counted = (req: Request) => {
      served[port] = (served[port] ?? 0) + 1;
      return fetch(req);
    };
    const server = serve({ fetch: counted, hostname: "127.0.0.1", port: 0 }, (info) => resolve(port = info.port));
    // Thousands of idle SSE connections are the point of the stream run: no socket timeout.
    (server as unknown as { setTimeout?: (ms: number) => void }).setTimeout?.(0);
    // The load runs reuse their connections across rounds, and a round of the other server can
    // leave them idle for longer than Node's 5 s keep-alive timeout.
    Object.assign(server, { keepAliveTimeout: 60_000, headersTimeout: 61_000 });
    (server as unknown as { maxConnections?: number }).maxConnections = 20_000;
  });
}

function memory(): { heapUsed: number; rss: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("live-server.ts needs --expose-gc");
  gc();
  gc();
  const usage = process.memoryUsage();
  return { heapUsed: usage.heapUsed, rss: usage.rss };
}

const ports: ServerPorts = {
  events: {
    plain: await listen(events.plain.fetch),
    static: await listen(events.static.fetch),
    tuned: await listen(events.tuned.fetch),
    template: await listen(events.template.fetch),
  },
  streams: await listen(streams.fetch),
  bare: await listen(bare.fetch),
  bareBatched: await listen(bareBatched.fetch),
};
process.send!({ kind: "ready", ports });
process.on("message", (message: { kind: string; id: number }) => {
  const answer = (value: unknown) => process.send!({ kind: "answer", id: message.id, value });
  if (message.kind === "memory") answer(memory());
  else if (message.kind === "sweep") {
    streams.sessions.sweep();
    answer(true);
  } else if (message.kind === "cpu") {
    const usage = process.cpuUsage();
    answer({ cpuMicros: usage.user + usage.system, requests: { ...served } });
  } else if (message.kind === "stats") {
    let open = 0;
    for (const session of streams.sessions.all()) open += session.streams.size;
    let trees = 0;
    for (const session of streams.sessions.all()) trees += session.hasTree ? 1 : 0;
    answer({ sessions: streams.sessions.size, streams: open, trees });
  }
});
// The parent's exit (or its closing of the channel) ends this process.
process.on("disconnect", () => process.exit(0));
