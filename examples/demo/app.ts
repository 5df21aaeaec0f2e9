/**
 * The demo app builder: one live app (sign-up with a live strength label, login with a sliding
 * session, a normalising profile editor, a keyed list, a live clock, a search box, an admin page,
 * sign-out) and the two form routes that sign in, composed on one Hono app whose `fetch` runs on
 * any Web-standard host. The entry files (node.ts, bun.ts, deno.ts, fetch.ts) only add a server.
 */
import { Hono } from "hono";
import { Auth, type Db, Live, type LiveApp, Server, type SlidingOptions } from "../../src/mod.ts";
import type { Graceful } from "../../src/server/mod.ts";
import { authRoutes } from "./auth-routes.ts";
import { type DemoBus, SECRET_ENV } from "./config.ts";
import type { Model } from "./model.ts";
import { DemoStore } from "./store.ts";
import { clearFlash } from "./flash.ts";
import { makeInit, makeUpdate } from "./update.ts";
import { view } from "./views/layout.tsx";
import { STYLESHEET } from "./views/style.ts";

/** The sliding token's cookie. */
export const SLIDING_COOKIE = "svc_demo_session";

export type DemoOptions = {
  readonly db: Db;
  /** bcrypt cost of new passwords (default 12; tests use 4). */
  readonly bcryptCost?: number;
  /** Sign-in attempts per email and client address (default 10 a minute). */
  readonly rateLimit?: { readonly limit: number; readonly windowMs: number };
  /** Clock in ms, for tests. */
  readonly now?: () => number;
  /** With Postgres, the bus between replicas (BUS_URL); default: Postgres LISTEN/NOTIFY. */
  readonly bus?: DemoBus;
};

/** The readiness probe's path (docs/deployment.md#health-and-readiness). */
export const READY_PATH = "/healthz/ready";

export type Demo = {
  /** The app's fetch handler, counted by the drain (the server's own arguments pass through). */
  readonly fetch: (req: Request, ...rest: unknown[]) => Promise<Response>;
  readonly store: DemoStore;
  /** The live app (for `svc-live doctor` and tests). */
  readonly live: LiveApp<Model>;
  /** Ends every live session and stops their timers. */
  close(): void;
  /** Graceful shutdown: no new sessions; held ones saved, released, their streams closed (SIGTERM). */
  drain(): Promise<void>;
  /**
   * The replica's drain and readiness (docs/deployment.md#draining): the entry files attach their
   * server to it, so SIGTERM drains it without cutting a request.
   */
  readonly graceful: Graceful;
};

export function createDemo(options: DemoOptions): Demo {
  const { db } = options;
  const store = new DemoStore(db);
  const deps = { db, store, now: options.now ?? (() => Date.now()) };
  const sliding: Omit<SlidingOptions, "prefix"> = {
    cookie: SLIDING_COOKIE,
    secretEnv: SECRET_ENV,
    sameSite: "Lax",
    // Consulted at each re-issue: a revoked user's token stops sliding.
    revokedCheck: (sub, iat) => Auth.isRevoked(db, sub, iat),
  };

  const live = Live.app<Model>(
    {
      init: makeInit(deps),
      update: makeUpdate(deps),
      view,
      subscriptions: () => [Live.every(1000, "Tick")],
    },
    { title: "svc demo", head: STYLESHEET },
  )
    .withAuthSliding(sliding)
    // A revoke or disable ends the user's sessions at once, and each interaction checks the user.
    .withRevocation(db)
    // On Postgres (DATABASE_URL), sessions live there: run as many replicas as you like
    // (docs/deployment.md#several-replicas), their frames on Postgres NOTIFY or on the bus
    // BUS_URL names (docs/deployment.md#the-bus). On SQLite they stay in this process.
    .withSharedSessions(db, options.bus === undefined ? {} : { bus: options.bus });

  const graceful = Server.graceful({ live, db });
  const root = new Hono();
  // Where a load balancer or Kubernetes probes: 503 while starting, draining or without the database.
  root.get(READY_PATH, () => graceful.readiness());
  root.use(Server.secureCookies());
  root.route(
    "/",
    authRoutes({
      db,
      store,
      sliding,
      bcryptCost: options.bcryptCost ?? 12,
      rateLimit: options.rateLimit ?? { limit: 10, windowMs: 60_000 },
      freshSession: (resp) => live.freshSession(resp),
    }),
  );
  // Everything else is the live app; its own middleware (Secure rule, sliding) runs inside.
  root.all("*", async (c) => clearFlash(c.req.raw, await live.fetch(c.req.raw)));

  const fetch = graceful.fetch((req: Request, ...rest: unknown[]) => root.fetch(req, ...(rest as [])));
  return { fetch, store, live, close: () => live.close(), drain: () => live.drain(), graceful };
}
