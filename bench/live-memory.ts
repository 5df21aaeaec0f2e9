/**
 * Memory per live session (bench/live.bench.ts runs this in a child process of its own, so the
 * heap holds nothing but the app and its sessions, and the collector can be forced):
 *
 *   node --expose-gc --import tsx bench/live-memory.ts [sessions]
 *   bun bench/live-memory.ts [sessions]                  (Bun.gc(true))
 *   deno run -A --v8-flags=--expose-gc bench/live-memory.ts [sessions]
 *
 * Each session loads its page and sends one event, all through app.fetch; then the heap is read,
 * the clock moves past treeIdleMs and the registry sweeps (the trees of quiet sessions are
 * dropped, as after ten quiet seconds by default) and the heap is read again. Done twice: with
 * every session keeping its tree ("active"), and with the default policy (the most recently used
 * keep one within the tree budget's 256 MiB, so here all of them), and once more with every tree kept for the page written as Ui.html
 * templates. A warm-up batch of sessions is made and swept first, so compiled code and caches are
 * not counted. Prints one line: LIVE_MEMORY {…} with the figures in bytes per session.
 */
import { elementCount, eventBody, eventRequest, formApp, type FormVariant, openSession } from "./live-app.ts";

const g = globalThis as {
  gc?: () => void;
  Bun?: { gc(force: boolean): void };
  Deno?: { args: string[]; memoryUsage(): { heapUsed: number } };
  process?: { argv: string[]; memoryUsage(): { heapUsed: number } };
};
const args = g.Deno?.args ?? g.process?.argv.slice(2) ?? [];
const count = Number(args[0] ?? 2000);

function collect(): void {
  if (g.Bun) g.Bun.gc(true);
  else if (g.gc) g.gc();
  else throw new Error("no way to force a collection: run with --expose-gc (Node, Deno --v8-flags) or under Bun");
}

async function heapUsed(): Promise<number> {
  // Several rounds, with a turn of the event loop between them, so finalisers and weak maps settle.
  for (let i = 0; i < 3; i++) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return (g.Deno ?? g.process)!.memoryUsage().heapUsed;
}

let clock = 1_000_000_000;
const TREE_IDLE_MS = 1_000;
const origin = "http://bench.test";

/**
 * Heap growth per session over `count` sessions of a fresh app: right after each one's event,
 * and after the sweep dropped the trees of the quiet ones.
 */
async function measure(
  options: { maxTreeBytes?: number },
  variant: FormVariant = "plain",
): Promise<{ afterEvent: number; idle: number; nodes: number; trees: number }> {
  const app = formApp({ now: () => clock, treeIdleMs: TREE_IDLE_MS, ...options }, variant);
  const session = async () => {
    const creds = await openSession(app.fetch, origin);
    const resp = await app.fetch(eventRequest(origin, creds, eventBody(creds, 1)));
    if (resp.status !== 200) throw new Error(`event answered ${resp.status}`);
    await resp.text();
  };
  for (let i = 0; i < 300; i++) await session();
  clock += TREE_IDLE_MS;
  app.sessions.sweep();
  const before = await heapUsed();
  for (let i = 0; i < count; i++) await session();
  const afterEvent = await heapUsed();
  let trees = 0;
  for (const s of app.sessions.all()) trees += s.hasTree ? 1 : 0;
  const nodes = elementCount([...app.sessions.all()].at(-1)!.currentTree());
  clock += TREE_IDLE_MS;
  app.sessions.sweep();
  const idle = await heapUsed();
  if (app.sessions.size !== count + 300) throw new Error(`expected ${count + 300} sessions, found ${app.sessions.size}`);
  app.close();
  return { afterEvent: (afterEvent - before) / count, idle: (idle - before) / count, nodes, trees };
}

// Every session keeping its tree (the "active" figure), then the default policy, where only the
// most recently used few keep theirs (src/live/server/registry/registry.ts).
const kept = await measure({ maxTreeBytes: Number.MAX_SAFE_INTEGER });
await heapUsed();
const policy = await measure({});
await heapUsed();
// The page written as Ui.html templates: a session also keeps its last render's template calls.
const templates = await measure({ maxTreeBytes: Number.MAX_SAFE_INTEGER }, "template");
console.log(
  `LIVE_MEMORY ${
    JSON.stringify({
      sessions: count,
      nodes: kept.nodes,
      activeBytes: kept.afterEvent,
      idleBytes: kept.idle,
      defaultAfterEventBytes: policy.afterEvent,
      defaultTrees: policy.trees,
      defaultIdleBytes: policy.idle,
      templateActiveBytes: templates.afterEvent,
      templateIdleBytes: templates.idle,
    })
  }`,
);
