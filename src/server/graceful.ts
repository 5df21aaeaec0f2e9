/**
 * The graceful drain of one replica (docs/deployment.md#draining): one helper for the server that
 * @hono/node-server's `serve`, Bun's `serve` or Deno's `serve` returned. On SIGTERM (or SIGINT) it
 * reports not-ready at once, stops accepting connections, lets the requests in flight finish
 * (every answer from then on tells its connection to close), drains the live apps (their streams
 * are closed plainly, so the browsers reconnect to another replica, and their leases are given
 * up; every change is already saved), closes what is left, closes the database and exits. A
 * request is either answered or, once its session has left, refused with 503 and Retry-After,
 * which the client and a proxy send elsewhere; none is cut.
 *
 * Its readiness handler answers 503 while draining, before the live apps listen for the other
 * replicas, and while the database does not answer: mount it where the load balancer probes.
 */
import type { Row, Statement } from "../db/driver.ts";
import type { Result } from "../result.ts";
import { type RuntimeServer, type ServerStopper, serverStopper } from "../runtime/server-stop.ts";
import { exitProcess, onceOnSignal } from "../runtime/signals.ts";
import { onceUnref } from "../runtime/timers.ts";
import { log } from "../log.ts";

/** A live app as the drain sees it (LiveApp): drained last, after the requests in flight. */
export type Drainable = {
  /** Stops taking sessions, lets each held one finish and closes its streams (`LiveApp.drain`). */
  drain(): Promise<void>;
  /** Resolves once the app listens for the other replicas (`LiveApp.ready`); readiness waits for it. */
  ready?(): Promise<void>;
  /** What its drain still waits for, in words (sessions still held, streams still open), for the drain's log (`LiveApp.waitingFor`). */
  waitingFor?(): readonly string[];
};

/** The database as the drain sees it (Db): probed by the readiness handler, closed last. */
export type ProbedStore = {
  /** Runs a statement; the readiness probe sends `SELECT 1`. */
  query(statement: Statement): Promise<Result<Row[]>>;
  /** Closes the database, the drain's last step. */
  close(): Promise<void>;
};

/** Options of `Server.graceful`. */
export type GracefulOptions = {
  /** The live app (or apps) this process serves. */
  readonly live?: Drainable | readonly Drainable[];
  /** The database: the readiness probe runs `SELECT 1` on it; it is closed after the drain. */
  readonly db?: ProbedStore;
  /** The signals that start the drain; default SIGTERM and SIGINT. */
  readonly signals?: readonly string[];
  /**
   * How long the drain may take before what is left is closed by force, ms; default 20,000, under
   * Kubernetes' default 30 s grace less a preStop pause.
   */
  readonly timeoutMs?: number;
  /** How long the readiness probe waits for the database, ms; default 1,000. */
  readonly probeTimeoutMs?: number;
  /** Whether the process exits once drained (default true); false leaves that to the caller. */
  readonly exit?: boolean;
  /** Called with each step's name as the drain takes it (for logs). */
  readonly onStep?: (step: DrainStep) => void;
};

/** The drain's steps, in order. */
export type DrainStep = "not-ready" | "stopped-accepting" | "in-flight-done" | "live-drained" | "closed" | "exit";

/** What `Server.graceful` returns. */
export type Graceful = {
  /** Wraps the app's fetch handler: counts the requests in flight and, while draining, asks each connection to close after its answer. */
  fetch<Args extends unknown[]>(
    handler: (req: Request, ...rest: Args) => Response | Promise<Response>,
  ): (req: Request, ...rest: Args) => Promise<Response>;
  /** Takes the server the runtime's serve returned, and drains it (then exits) on the first signal. Returns the server. */
  attach<S extends RuntimeServer>(server: S): S;
  /** Drains now (what the signal runs, without the exit); the same promise on every call. */
  drain(): Promise<void>;
  /** The readiness answer: 200 "ready", or 503 with Retry-After while starting, draining or without the database. */
  readiness(): Promise<Response>;
  /** The drain has started. */
  readonly draining: boolean;
  /** Requests whose handler has not answered yet. */
  readonly inFlight: number;
};

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_PROBE_MS = 1_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The graceful shutdown and readiness of one replica (docs/deployment.md#draining), the same on
 * Node, Bun and Deno: a rolling deploy or a scale-down then cuts no request. Wrap the app's fetch
 * with `graceful.fetch` and hand the server the runtime's serve returned to `graceful.attach`. On
 * the first SIGTERM or SIGINT it:
 *
 * 1. reports not ready at once (`graceful.readiness()` answers 503);
 * 2. stops accepting connections, and lets the requests in flight finish, each answer asking its
 *    connection to close;
 * 3. drains the live apps: each session finishes what it is doing, gives up its lease and closes
 *    its streams, so the browsers reconnect to another replica (every change was already saved);
 * 4. closes the database, then exits 0 (unless `exit: false`).
 *
 * A request is answered, or refused with 503 and Retry-After, which the client and a proxy retry
 * elsewhere. `timeoutMs` (20 s) bounds the whole drain. Until the live apps listen for the other
 * replicas, and while the database does not answer `SELECT 1`, readiness is 503 too.
 *
 * @param options the live app or apps, the database, the signals, the time limits, whether to exit
 * @returns `fetch` (wraps a handler), `attach` (takes the server), `readiness` (the probe's
 *   handler), `drain` (drain now, without the exit), and `draining` and `inFlight` for monitoring
 * @throws {TypeError} for a time limit that is not a positive number of milliseconds
 * @example
 * ```ts
 * import { Db, Live, Server, Ui } from "svc-live";
 * import { Hono } from "hono";
 * import { serve } from "@hono/node-server";
 *
 * const db = Db.open("postgres://app@db.internal/app");
 * const live = Live.app<{ n: number }>({
 *   init: () => ({ n: 0 }),
 *   update: (model) => ({ n: model.n + 1 }),
 *   view: (model) => Ui.h("button", { onClick: "Inc" }, String(model.n)),
 * }).withSharedSessions(db);
 *
 * const graceful = Server.graceful({ live, db, onStep: (step) => console.log(`shutdown: ${step}`) });
 * const app = new Hono();
 * app.get("/healthz/ready", () => graceful.readiness());
 * app.route("/", live);
 *
 * // On Node; on Bun or Deno, attach the server their own serve function returns, with the same fetch.
 * graceful.attach(serve({ fetch: graceful.fetch(app.fetch), port: 8787 }));
 * ```
 */
export function graceful(options: GracefulOptions = {}): Graceful {
  const state = drainState(options);
  return {
    fetch<Args extends unknown[]>(handler: (req: Request, ...rest: Args) => Response | Promise<Response>) {
      return counted(state, handler);
    },
    attach: (server) => attach(state, server),
    drain: () => drain(state),
    readiness: () => readiness(state),
    get draining() {
      return state.started;
    },
    get inFlight() {
      return state.inFlight;
    },
  };
}

/** One replica's drain: its options checked, and where it stands. */
type DrainState = {
  readonly options: GracefulOptions;
  readonly timeoutMs: number;
  readonly probeMs: number;
  readonly lives: readonly Drainable[];
  /** The servers attached, each stopped by the drain. */
  readonly stoppers: ServerStopper[];
  /** The drain, once started (the same promise on every call). */
  draining: Promise<void> | undefined;
  inFlight: number;
  /** The drain has started. */
  started: boolean;
  /** The live apps listen for the other replicas (or failed to start listening). */
  listening: boolean;
  /** The last step the drain took, for its log line past half its timeout. */
  reached: DrainStep | "started";
};

/** `graceful`'s options checked, and a drain that has not started. */
function drainState(options: GracefulOptions): DrainState {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const probeMs = options.probeTimeoutMs ?? DEFAULT_PROBE_MS;
  for (const [name, value] of [["timeoutMs", timeoutMs], ["probeTimeoutMs", probeMs]] as const) {
    if (!Number.isFinite(value) || value <= 0) throw new TypeError(`graceful: ${name} must be a positive number of milliseconds`);
  }
  const lives: readonly Drainable[] = options.live === undefined
    ? []
    : Array.isArray(options.live)
    ? options.live
    : [options.live as Drainable];
  const state: DrainState = {
    options,
    timeoutMs,
    probeMs,
    lives,
    stoppers: [],
    draining: undefined,
    inFlight: 0,
    started: false,
    listening: lives.length === 0,
    reached: "started",
  };
  // A live app that could not listen still serves (it learns of takeovers from its fenced saves),
  // so a failed start counts as started too; the database probe says whether it can serve now.
  void Promise.allSettled(lives.map((live) => live.ready?.())).then(() => (state.listening = true));
  return state;
}

function step(state: DrainState, name: DrainStep): void {
  state.reached = name;
  state.options.onStep?.(name);
}

/** `handler`, counting its requests in flight; once draining, each answer asks its connection to close. */
function counted<Args extends unknown[]>(
  state: DrainState,
  handler: (req: Request, ...rest: Args) => Response | Promise<Response>,
): (req: Request, ...rest: Args) => Promise<Response> {
  return async (req, ...rest) => {
    state.inFlight++;
    try {
      return closeAfter(state, await handler(req, ...rest));
    } finally {
      state.inFlight--;
    }
  };
}

function closeAfter(state: DrainState, resp: Response): Response {
  if (!state.started || !state.stoppers.some((s) => s.closeHeader)) return resp;
  try {
    resp.headers.set("Connection", "close");
    return resp;
  } catch {
    // Immutable headers (a fetched Response): a copy carries it.
    const copy = new Response(resp.body, resp);
    copy.headers.set("Connection", "close");
    return copy;
  }
}

/** Takes a server to stop; the first one arms the signals, which drain and then exit. */
function attach<S extends RuntimeServer>(state: DrainState, server: S): S {
  const { options } = state;
  state.stoppers.push(serverStopper(server));
  if (state.stoppers.length === 1) {
    onceOnSignal(options.signals ?? ["SIGTERM", "SIGINT"], () => {
      void drain(state).then(
        () => {
          if (options.exit === false) return;
          step(state, "exit");
          exitProcess(0);
        },
        (error: unknown) => {
          console.error(`svc: the drain failed: ${error instanceof Error ? error.message : String(error)}`);
          if (options.exit !== false) exitProcess(1);
        },
      );
    });
  }
  return server;
}

/** Waits until no request is in flight, or until `until`. */
async function settled(state: DrainState, until: number): Promise<void> {
  while (state.inFlight > 0 && Date.now() < until) await sleep(10);
}

/** What the drain waits for now, for its log line past half its timeout (docs/deployment.md#draining). */
function waits(state: DrainState): string[] {
  const { inFlight, reached } = state;
  const waiting = [`the step after ${reached}`];
  if (inFlight > 0) waiting.push(`${inFlight} request${inFlight === 1 ? "" : "s"} in flight`);
  for (const live of state.lives) waiting.push(...(live.waitingFor?.() ?? []));
  if (reached === "live-drained") waiting.push("the server's open connections to end");
  return waiting;
}

function drain(state: DrainState): Promise<void> {
  return state.draining ??= (async () => {
    state.started = true;
    const { timeoutMs } = state;
    const stopHalfLog = onceUnref(
      () => log.warn(`svc: the drain is past half its ${timeoutMs} ms timeout; it waits for ${waits(state).join(", ")}`),
      timeoutMs / 2,
    );
    try {
      await drainSteps(state);
    } finally {
      stopHalfLog();
    }
  })();
}

/** The drain's steps, in order (docs/deployment.md#draining). */
async function drainSteps(state: DrainState): Promise<void> {
  const { stoppers, lives } = state;
  step(state, "not-ready");
  for (const stopper of stoppers) stopper.stopAccepting();
  step(state, "stopped-accepting");
  const until = Date.now() + state.timeoutMs;
  await settled(state, until);
  step(state, "in-flight-done");
  await Promise.all(lives.map((live) => live.drain()));
  step(state, "live-drained");
  await settled(state, until);
  await Promise.all(stoppers.map((stopper) => stopper.finish(Math.max(0, until - Date.now()))));
  await state.options.db?.close();
  step(state, "closed");
}

/** The readiness answer: 503 while starting, draining or without the database, else 200. */
async function readiness(state: DrainState): Promise<Response> {
  if (state.started) return notReady("draining");
  if (!state.listening) return notReady("starting");
  const { db } = state.options;
  if (db !== undefined) {
    const probe = db.query({ sql: "SELECT 1", args: [] });
    const answer = await Promise.race([probe, sleep(state.probeMs).then(() => undefined)]);
    if (answer === undefined || !answer.ok) return notReady("database unreachable");
  }
  if (state.started) return notReady("draining");
  return new Response("ready", { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/** 503 with Retry-After: the load balancer takes this replica out, and a retry goes elsewhere. */
function notReady(why: string): Response {
  return new Response(`not ready: ${why}`, {
    status: 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "1" },
  });
}
