/**
 * The options of `Live.app`: the page, the session lifetimes and bounds,
 * the store, the CSRF key and the origins the app is served at.
 */
import type { RenderProbe } from "../../probe.ts";
import type { FailureNoticeInput } from "../http/error-page.ts";
import type { Secret } from "../../../auth/secret.ts";
import type { SessionStore } from "../registry/snapshot-store.ts";
import { DEFAULT_TREE_BUDGET_BYTES } from "../registry/tree-budget.ts";

/** Options of `Live.app`. */
export type LiveAppOptions = {
  /** A sub-app's name: its session cookie is svc_<name>_sid (docs/protocol.md#sessions-and-cookies). */
  readonly name?: string;
  /**
   * Deprecated: a live app finds where it is mounted (`app.route`, `app.mount`). A prefix of its
   * own routes, for the old way of serving it under a path (`app.all("/live/*", (c) => live.fetch(c.req.raw))`).
   */
  readonly basePath?: string;
  /** The page's `<title>` (default "svc"); also the desktop window's title and the name the development log gives the app. */
  readonly title?: string;
  /**
   * The browser client the page loads: "live" (the default) writes frames straight to the DOM;
   * "split" keeps the session's page as its own tree and renders the DOM from it, so a node that
   * other code removed is built again without a round trip (docs/live-apps.md#the-split-client).
   */
  readonly client?: "live" | "split";
  /** Extra markup for the page's <head> (the app vouches for it). */
  readonly head?: string;
  /** The app's <PREFIX>_ENV prefix for the production gate. */
  readonly prefix?: string;
  /** A session with no event and no open stream for this long ends (default 30 min). */
  readonly idleTimeoutMs?: number;
  /** A quiet session frees its rendered tree after this long (default 10 s). */
  readonly treeIdleMs?: number;
  /**
   * How many bytes of rendered trees the most recently used sessions keep between events (default
   * 256 MiB, a quarter of a 1 GB heap; docs/deployment.md#memory). A session whose tree was
   * released past the budget renders it again from its model on its next event, which then costs
   * a render of the whole page (several times an event with a kept tree) and changes nothing else.
   * A kept tree costs in proportion to its page (docs/deployment.md#memory has the measured
   * figures); trees of sessions quiet for treeIdleMs are dropped either way.
   */
  readonly maxTreeBytes?: number;
  /**
   * How often an open event stream carries a heartbeat comment, in milliseconds (default 15 s), so
   * that proxies and load balancers do not close it as idle and a dead connection is noticed.
   */
  readonly heartbeatMs?: number;
  /**
   * Receives each session's snapshot after every change, and its end (`kill`, `delete`): for an
   * app's own record of sessions. Nothing is read back from it; sessions that outlive a process
   * or move between replicas are `withSharedSessions(db)` (docs/deployment.md#several-replicas).
   * None by default, and then no snapshot is made.
   */
  readonly store?: SessionStore;
  /** Messages accepted even when no handler of the current render names them. */
  readonly messages?: readonly string[];
  /**
   * The key of the CSRF tokens (docs/security.md#csrf); default SVC_AUTH_TOKEN_SECRET, else a
   * random key per app (development: tokens then do not survive a restart).
   */
  readonly secret?: Secret;
  /**
   * Public origins the app is served at besides the one its requests' URLs show, for a proxy that
   * rewrites the host (docs/security.md#origin), e.g. ["https://app.example.com"].
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * Most sessions kept at once (default 10,000; docs/security.md#session-bounds). At the cap the
   * oldest never-connected session ends to make room; connected ones never do, and a page load
   * finding only connected sessions is answered 503.
   */
  readonly maxSessions?: number;
  /** Most sessions that have never connected (no event, no stream) kept at once (default 1,000). */
  readonly maxPendingSessions?: number;
  /** A session that has not connected within this long ends (default 60 s). */
  readonly pendingSessionMs?: number;
  /**
   * How a session is named (docs/auth.md#choosing-a-session-type): "cookie" (the default), a random
   * id in an HttpOnly cookie; or "token", a signed token the client holds in memory and sends in
   * the X-Svc-Session header, never in a cookie (docs/protocol.md#token-sessions). A token-session
   * page loads the split client.
   */
  readonly session?: "cookie" | "token";
  /**
   * Lifetime of a session token in seconds (default 86,400, a day; at least 60). A reply to a
   * request whose token is past half of it carries a fresh one; a session whose client sends no
   * request for a whole lifetime is lost when its stream next reconnects.
   */
  readonly sessionTokenSeconds?: number;
  /**
   * The notice a user sees when the app failed, on a page load or an event (in development the
   * page shows the error itself instead; docs/live-apps.md#errors-an-app-sees): plain text, given
   * the id of the server's log line and the request (for its `Accept-Language`), so it can be
   * translated. Default: `Something went wrong. Reference: <logId>`.
   */
  readonly failureNotice?: (failure: FailureNoticeInput) => string;
  /** Clock in ms, for tests. */
  readonly now?: () => number;
  /**
   * A test hook: counts of what every session's renders visit (rows built, elements walked, pairs
   * compared: the `RenderProbe` counters). Unset, nothing is counted.
   */
  readonly renderProbe?: RenderProbe;
};

/** The failure notice when the app gives none. */
export function defaultFailureNotice(failure: FailureNoticeInput): string {
  return `Something went wrong. Reference: ${failure.logId}`;
}

/** The options with their defaults filled in (each default is documented on its option): what the app is built from. */
export type AppSettings = LiveAppOptions & {
  readonly basePath: string;
  readonly title: string;
  readonly head: string;
  readonly heartbeatMs: number;
  readonly idleTimeoutMs: number;
  readonly treeIdleMs: number;
  readonly maxTreeBytes: number;
  readonly now: () => number;
  /** How often the sweeper looks for idle sessions: a quarter of the idle timeout, from 1 s to 1 min. */
  readonly sweepEveryMs: number;
};

/** `Live.app`'s options with the defaults of those not given. */
export function withDefaults(options: LiveAppOptions): AppSettings {
  const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  return {
    basePath: "",
    title: "svc",
    head: "",
    heartbeatMs: 15_000,
    ...options,
    idleTimeoutMs,
    treeIdleMs: options.treeIdleMs ?? 10_000,
    maxTreeBytes: options.maxTreeBytes ?? DEFAULT_TREE_BUDGET_BYTES,
    now: options.now ?? (() => Date.now()),
    sweepEveryMs: Math.min(60_000, Math.max(1_000, Math.floor(idleTimeoutMs / 4))),
  };
}
