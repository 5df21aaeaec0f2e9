/**
 * The heap a session keeps, against the bytes of its rendered HTML (bench/table.bench.ts runs this
 * in a child process of its own, so the heap holds nothing but the app and its sessions, and the
 * collector can be forced):
 *
 *   node --expose-gc --import tsx bench/table-memory.ts
 *   bun bench/table-memory.ts                              (Bun.gc(true))
 *   deno run -A --v8-flags=--expose-gc bench/table-memory.ts
 *
 * For 20, 200 and 2,000 rows: sessions of a fresh table app (bench/table-page.ts) each load the page
 * and send ten events, each typing into a new row, so that the session holds its tree, its last
 * render's calls and its inputs' seqs. The heap growth per session, less a copy of its model (the
 * app's, not the library's), is set against the body HTML of its current tree. Warm-up sessions of
 * each size (twice as many as are measured) are made first, gone quiet and ended, so that the code
 * the engine compiles for them is not counted. Prints one line: TABLE_MEMORY [{ rows, sessions,
 * keptBytes, ownKeptBytes, eachKeptBytes, idleBytes, htmlBytes, modelBytes, estimatedBytes, eachEstimatedBytes,
 * floorBytes, flatBytes, streams }, …]: keptBytes for keyed `Ui.h` rows, ownKeptBytes for the same with each
 * session showing rows of its own (no text alike between sessions), eachKeptBytes for rows listed with
 * `Ui.each`; idleBytes: the same sessions of keyed `Ui.h` rows after their trees are dropped (as a
 * quiet session's is), less their models; modelBytes: the heap of one model as the session holds
 * it; estimatedBytes and eachEstimatedBytes: what the tree budget counts for each session
 * (src/live/server/registry/tree-budget.ts); floorBytes: the heap of the page's tree as its view
 * builds it with an h that keeps its tag, attribute bag and children and nothing else, one such
 * tree per session: the least a library that keeps a tree of objects per session can keep;
 * flatBytes: the page kept as one flat list per session, each element written as its tag, its
 * attribute count, its names and values (a handler's message as its JSON), its child count and then
 * its children, texts as strings: what a kept form that is not an object per element costs, ids
 * and indexes aside; streams: the same steady-state growth (a second batch after a warm-up batch)
 * with every session's tab holding its event stream open (`?page=`, read as it comes), for keyed
 * `Ui.h` rows and for rows listed with `Ui.each`, each with the table every session shows and with
 * rows of each session's own, each against the bytes of its own HTML.
 */
import { render } from "../src/live/render.ts";
import { releaseWarmParts } from "../src/live/render-state/lazy-part.ts";
import { cookiesOf } from "./live-app.ts";
import { type H, initialTable, keyedPageWith, tableApp, tableEachView, type TableModel, tableView, updateTable } from "./table-page.ts";
import { idsOf } from "./page-ids.ts";
import { drainStream } from "./table-tabs.ts";

const g = globalThis as {
  gc?: () => void;
  Bun?: { gc(force: boolean): void };
  Deno?: { memoryUsage(): { heapUsed: number } };
  process?: { memoryUsage(): { heapUsed: number } };
};

function collect(): void {
  if (g.Bun) g.Bun.gc(true);
  else if (g.gc) g.gc();
  else throw new Error("no way to force a collection: run with --expose-gc (Node, Deno --v8-flags) or under Bun");
}

async function heapUsed(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return (g.Deno ?? g.process)!.memoryUsage().heapUsed;
}

const origin = "http://bench.test";
const utf8 = new TextEncoder();

/** How a session of `activeSession` lives: whose rows it shows, and whether its tab's event stream stays open. */
type SessionKind = {
  /** bench/table-page.ts initialTable's owner; 0: the table every session shows. */
  readonly owner: number;
  /** The page id of its tab, whose event stream (`?page=`) opens after the page load and stays open; none without. */
  readonly page?: string;
};

/**
 * A session that loads its page, opens its tab's event stream when `kind.page` is given, and sends
 * ten events from that tab; returns the stream's closer (a no-op without one).
 */
async function activeSession(app: ReturnType<typeof tableApp>, rows: number, kind: SessionKind): Promise<() => void> {
  const owner = kind.owner;
  const first = initialTable(rows, owner).rows[0]!.id;
  const ids = idsOf(tableView(initialTable(rows, owner)), (el) => el.tag === "input" && el.attrs["name"]?.startsWith("qty-") === true);
  const resp = await app.fetch(new Request(owner === 0 ? `${origin}/` : `${origin}/?owner=${owner}`));
  const html = await resp.text();
  const cookie = cookiesOf(resp);
  const csrf = /<meta name="svc-csrf" content="([^"]*)">/.exec(html)![1]!;
  const page = kind.page ?? "p";
  const stream = kind.page === undefined ? undefined : await drainStream(app.fetch, { cookie, csrf, page });
  for (let seq = 1; seq <= 10; seq++) {
    const row = (seq * 7) % rows;
    const id = ids[row]!;
    const value = String(1000 + seq);
    const body = JSON.stringify({
      page,
      seq,
      msg: "SetQty",
      args: [first + row, value],
      handlerId: id,
      inputState: { [id]: { value, seq } },
    });
    const event = await app.fetch(
      new Request(`${origin}/_svc/event`, {
        method: "POST",
        body,
        headers: { Cookie: cookie, "X-Svc-Csrf": csrf, "Content-Type": "application/json" },
      }),
    );
    if (event.status !== 200) throw new Error(`event answered ${event.status}: ${await event.text()}`);
    await event.text();
  }
  return stream === undefined ? () => {} : () => stream.close();
}

/** A node of the floor's tree: what the view passed to its h, kept as it is. */
type BareNode = { readonly tag: string; readonly attrs: unknown; readonly children: readonly unknown[] };
const bareH: H<BareNode> = (tag, attrs, ...children) => ({ tag, attrs, children });
const keyBare = (key: number, node: BareNode): BareNode => ({ ...node, attrs: { ...(node.attrs as object), "svc-key": key } });

/** The heap per page of `count` trees of the page at `rows` rows, built by `bareH` and kept (the model's rows are shared). */
async function floorBytes(rows: number, count: number): Promise<number> {
  const model = initialTable(rows);
  const before = await heapUsed();
  const kept = Array.from({ length: count }, () => keyedPageWith(bareH, model, keyBare));
  const after = await heapUsed();
  if (kept.length !== count) throw new Error("the floor's trees were not kept");
  return (after - before) / count;
}

/** A page written into a flat list: each element's tag, attribute count, names and values, child count, children. */
type FlatWriter = (out: unknown[]) => void;
const flatH: H<FlatWriter> = (tag, attrs, ...children) => (out) => {
  let count = 0;
  for (const name in attrs) if (attrs[name] !== undefined && attrs[name] !== false) count++;
  out.push(tag, count);
  for (const name in attrs) {
    const value = attrs[name];
    if (value === undefined || value === false) continue;
    out.push(name, typeof value === "object" ? JSON.stringify(value) : value);
  }
  out.push(children.length);
  for (const child of children) typeof child === "string" ? out.push(child) : child(out);
};

const keyFlat = (key: number, node: FlatWriter): FlatWriter => (out) => {
  out.push("svc-key", key);
  node(out);
};

/** The heap per page of `count` pages at `rows` rows, each kept as one flat list (the model's rows are shared, as for the floor). */
async function flatBytes(rows: number, count: number): Promise<number> {
  const model = initialTable(rows);
  const before = await heapUsed();
  const kept = Array.from({ length: count }, () => {
    const out: unknown[] = [];
    keyedPageWith(flatH, model, keyFlat)(out);
    return out.slice(); // at its final length: a list grown by pushes keeps room it does not use
  });
  const after = await heapUsed();
  if (kept.length !== count) throw new Error("the flat pages were not kept");
  return (after - before) / count;
}

/** What this file measures at one size (the header says what each field is). */
export type TableMemory = {
  rows: number;
  sessions: number;
  keptBytes: number;
  /** keptBytes with each session showing rows of its own, no text alike between sessions (src/live/render-state/fold/shared-texts.ts shares none). */
  ownKeptBytes: number;
  eachKeptBytes: number;
  idleBytes: number;
  htmlBytes: number;
  modelBytes: number;
  estimatedBytes: number;
  eachEstimatedBytes: number;
  floorBytes: number;
  flatBytes: number;
  /**
   * With each session's stream open, warm-up sessions' too: keyed `Ui.h` rows and rows listed with
   * `Ui.each`, each of the table every session shows and of rows of each session's own.
   */
  streams: { keyed: StreamKept; keyedOwn: StreamKept; each: StreamKept; eachOwn: StreamKept };
};

/** The bytes of the HTML of every session's current tree, and the tree budget's estimate of them, summed. */
function htmlOf(app: ReturnType<typeof tableApp>): { htmlBytes: number; estimated: number } {
  let htmlBytes = 0;
  let estimated = 0;
  for (const s of app.sessions.all()) {
    if (!s.hasTree) throw new Error("a session lost its tree during the measurement");
    htmlBytes += utf8.encode(render(s.currentTree())).length;
    estimated += s.treeBytes;
  }
  // Rendering the trees above built their parts' subtrees again, which the parts hold until the
  // next render of any session starts (src/live/render-state/lazy-part.ts): released here as that render would.
  releaseWarmParts();
  return { htmlBytes, estimated };
}

/** What the sessions of one app cost: kept (active), idle (none with streams open), and the tree budget's estimate. */
type Measured = { kept: number; idle: number | undefined; estimated: number; htmlBytes: number };

/** How `perSession` runs its measured sessions. */
type PerSessionOptions = {
  /** Each measured session shows rows of its own (owners 1, 2, …; warm-up sessions the shared table). */
  readonly own?: boolean;
  /** Each session, warm-up ones too, keeps its tab's event stream open while it is measured. */
  readonly streams?: boolean;
};

/**
 * The heap per session of `sessions` active sessions of an app of `view` at `rows` rows, the tree
 * budget's estimate of each and the bytes of its HTML: the steady-state growth over this batch,
 * after a warm-up batch made and ended first. Then, without streams, the heap per session once
 * every session has gone quiet and the app's sweep has dropped its tree (and the frames and renames
 * it kept for its streams), as a quiet session's are.
 */
async function perSession(view: typeof tableView, rows: number, sessions: number, options: PerSessionOptions = {}): Promise<Measured> {
  let owner = 0;
  let now = Date.now();
  const page = (i: number) => (options.streams ? `tab-${i}` : undefined);
  // Every tree kept: what an active session costs, not what a bound leaves of it.
  const app = tableApp(rows, { maxTreeBytes: Number.MAX_SAFE_INTEGER, now: () => now, treeIdleMs: 1_000 }, view);
  // Warm-up sessions, ended: the code the engine compiles for the first sessions is not theirs.
  // Twice as many as are measured, and at least 40: with fewer, the engine was still compiling
  // (and recompiling) during the measurement, and its code, shared by every session, counted as
  // 3-4 KB of each idle session at 20 rows (a heap snapshot's diff showed it).
  // They go through all that the measured ones go through: their HTML is rendered and they go quiet.
  const warmStreams: (() => void)[] = [];
  for (let i = 0; i < Math.max(2 * sessions, 40); i++) warmStreams.push(await activeSession(app, rows, { owner: 0, page: page(i) }));
  htmlOf(app);
  for (const close of warmStreams) close();
  now += 2_000;
  app.sessions.sweep();
  for (const s of [...app.sessions.all()]) app.sessions.end(s as never);
  const before = await heapUsed();
  const streams: (() => void)[] = [];
  for (let i = 0; i < sessions; i++) {
    streams.push(await activeSession(app, rows, { owner: options.own ? ++owner : 0, page: page(i) }));
  }
  const after = await heapUsed();
  const { htmlBytes, estimated } = htmlOf(app);
  let idle: number | undefined;
  if (!options.streams) {
    now += 2_000;
    app.sessions.sweep();
    for (const s of app.sessions.all()) if (s.hasTree) throw new Error("a quiet session kept its tree");
    idle = (await heapUsed() - before) / sessions;
  }
  for (const close of streams) close();
  app.close();
  return {
    kept: (after - before) / sessions,
    idle,
    estimated: estimated / sessions,
    htmlBytes: htmlBytes / sessions,
  };
}

/** The heap of one model as a session holds it after its ten events (its own rows array, ten new rows). */
async function modelBytes(rows: number, count: number): Promise<number> {
  const models = () =>
    Array.from({ length: count }, () => {
      let model: TableModel = initialTable(rows);
      for (let seq = 1; seq <= 10; seq++) model = updateTable(model, "SetQty", [((seq * 7) % rows) + 1, String(1000 + seq)]);
      return model;
    });
  models(); // warm-up: the code compiled for the first models is not theirs
  const before = await heapUsed();
  const kept = models();
  const after = await heapUsed();
  if (kept.length !== count) throw new Error("the models were not kept");
  return (after - before) / count;
}

/** The heap a session keeps besides its model, with its stream open, and the bytes of its HTML. */
export type StreamKept = { keptBytes: number; htmlBytes: number };

const results: TableMemory[] = [];
// At 20 rows, 600 sessions: with 200, the idle figure (a few KB, less a model measured apart) moved
// by a KB from run to run.
for (const [rows, sessions] of [[20, 600], [200, 40], [2000, 6]] as const) {
  const model = await modelBytes(rows, sessions);
  const keyed = await perSession(tableView, rows, sessions);
  const own = await perSession(tableView, rows, sessions, { own: true });
  const each = await perSession(tableEachView, rows, sessions);
  const streamed = async (v: typeof tableView, own: boolean): Promise<StreamKept> => {
    const m = await perSession(v, rows, sessions, { own, streams: true });
    return { keptBytes: m.kept - model, htmlBytes: m.htmlBytes };
  };
  results.push({
    rows,
    sessions,
    keptBytes: keyed.kept - model,
    ownKeptBytes: own.kept - model,
    eachKeptBytes: each.kept - model,
    idleBytes: keyed.idle! - model,
    htmlBytes: keyed.htmlBytes,
    modelBytes: model,
    estimatedBytes: keyed.estimated,
    eachEstimatedBytes: each.estimated,
    floorBytes: await floorBytes(rows, sessions),
    flatBytes: await flatBytes(rows, sessions),
    streams: {
      keyed: await streamed(tableView, false),
      keyedOwn: await streamed(tableView, true),
      each: await streamed(tableEachView, false),
      eachOwn: await streamed(tableEachView, true),
    },
  });
}
console.log(`TABLE_MEMORY ${JSON.stringify(results)}`);
