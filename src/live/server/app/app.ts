/**
 * Live.app: the low-level live app builder (docs/protocol.md#endpoints). It is a Hono app: serve
 * its `fetch` (a Web-standard handler), or put it in a Hono app of yours with
 * `app.route("/live", live)` or `app.mount("/live", live.fetch)`:
 *
 *   GET  <base>/*                 the page: first render as full HTML, session and CSRF cookies
 *                                 (src/live/server/http/page-route.ts)
 *   GET  <base>/*?_svc=client.js  the browser client, from whatever page asks (see below); `?_svc=split.js`
 *                                 the split client (LiveAppOptions.client)
 *   POST <base>/_svc/event        events (src/live/server/http/event-route.ts; held to the end of a busy turn,
 *                                 src/live/server/http/turn-batch.ts)
 *   GET  <base>/_svc/subscribe    SSE frames (GET <base>/_svc/sse is an alias; src/live/server/http/stream-route.ts)
 *   GET  <base>/_svc/render       the current render as full HTML, for a client that must resync
 *                                 (src/live/server/http/render-route.ts)
 *   POST <base>/_svc/rotate       exchanges a rotated-away cookie, for the tab holding the ticket
 *                                 (src/live/server/http/rotation.ts)
 *   GET  <base>/_svc/client.js    the browser client
 *   GET  <base>/_svc/split.js     the split client (docs/protocol.md#the-split-client)
 *
 * The base is where the app is mounted, and nothing needs to say it (docs/protocol.md#mounting):
 * a page loads the client through its own URL with a query, and tells the client its path within
 * the app, from which the client works out the base from its location. `app.mount` hands the app
 * a request with the mount's prefix taken off, so only the browser knows that prefix
 * (src/live/server/http/mounting.ts).
 *
 * This module builds the app and wires the routes; who may use a session, and as whom, is
 * src/live/server/access/session-access.ts.
 *
 * Builder methods (.withAuthSliding, .withRevocation) configure the app before its first request;
 * the middleware they add runs at one place ahead of every route, composed by Hono (`every`), so
 * order never depends on calls. Every request, events included, goes through Hono's router.
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { every } from "hono/combine";
import type { Db } from "../../../db/db.ts";
import { SvcError } from "../../../errors.ts";
import { Secret } from "../../../auth/secret.ts";
import { checkSecretAtStart, requireSecretAtStart, SECRET_ENV } from "../../../server/production.ts";
import { readEnv } from "../../../runtime/env.ts";
import { secureContextOf, secureCookies, withRuledCookie } from "../../../server/secure.ts";
import { authSliding, type SlidingEnv, type SlidingOptions, slidingRanFor } from "../../../server/sliding.ts";
import { type AuthEnv, type SessionMiddleware, sessionMiddlewareRan } from "../../../server/auth-session.ts";
import { noteBuiltApp } from "./watch.ts";
import { type AppSettings, defaultFailureNotice, type LiveAppOptions, withDefaults } from "./options.ts";
import type { RouteContext } from "../http/route-context.ts";
import { CsrfTokens } from "../http/csrf.ts";
import { originCheck } from "../http/origin.ts";
import { type RunningDefinition, splitUpdate } from "../session/definition.ts";
import { RevocationGate } from "../access/revocation-gate.ts";
import { clientScript } from "../http/client-script.ts";
import { reportsToPage } from "../session/development.ts";
import { inDevLoop, reloadAsked, reloadScript, reloadStream } from "../http/dev-reload.ts";
import { clientAsked, mountOf } from "../http/mounting.ts";
import { handleEvent } from "../http/event-route.ts";
import { eventHold } from "../http/turn-batch.ts";
import { servePage } from "../http/page-route.ts";
import { SessionRegistry } from "../registry/registry.ts";
import { serveRender } from "../http/render-route.ts";
import { exchangeRotation } from "../http/rotation.ts";
import { LiveSession } from "../session/session.ts";
import { SessionAccess } from "../access/session-access.ts";
import { sessionBoundsOptions, type SessionCounts } from "../registry/bounds.ts";
import type { SessionState } from "../session/state.ts";
import type { SessionFrames } from "../streams/session-frames.ts";
import { listenForEvictions } from "../access/eviction-listener.ts";
import { type Replication, shareSessions } from "../replicas/replication.ts";
import type { SharedSessions } from "../replicas/shared-sessions.ts";
import { Sealer } from "../../store/seal.ts";
import { assertStorable, jsonCodec, type ModelCodec } from "../../store/codec.ts";
import { checkBusOption, type SharedBusOption } from "../../store/shared-bus.ts";
import { serveStream } from "../http/stream-route.ts";
import { serveEnd } from "../http/end-route.ts";
import { clientFor, sessionIdReader, sessionTokensFor } from "../http/session-naming.ts";
import type { SessionTokens } from "../http/session-tokens.ts";
import {
  CLIENT_PATH,
  END_PATH,
  EVENT_PATH,
  HOST_PREFIX,
  RENDER_PATH,
  ROTATE_PATH,
  sessionCookieName,
  SPLIT_CLIENT_PATH,
  SSE_ALIAS_PATH,
  SUBSCRIBE_PATH,
} from "../../../protocol/mod.ts";

export type { LiveAppOptions };

type Env = SlidingEnv;

/** What `Live.app` refuses at once: a definition without its three functions, or a missing or weak secret where one is required. */
function checkAtBuild<Model>(definition: RunningDefinition<Model>, options: LiveAppOptions): void {
  if (typeof definition?.init !== "function" || typeof definition.update !== "function" || typeof definition.view !== "function") {
    throw new TypeError("Live.app needs { init, update, view } functions");
  }
  const started = checkSecretAtStart(options.prefix);
  if (!started.ok) throw new SvcError(started.error.code, started.error.message);
  if (options.secret instanceof Secret) requireSecretAtStart("Live.app", options.secret, options.prefix);
}

/** The app's session registry, with its timings, bounds and store from the options. */
function registryFor<Model>(
  options: LiveAppOptions,
  config: AppSettings,
  { onBind }: { readonly onBind: (session: LiveSession<Model>, userId: string) => void },
): LiveApp<Model>["sessions"] {
  return new SessionRegistry<Model>({
    store: options.store,
    now: config.now,
    idleTimeoutMs: config.idleTimeoutMs,
    treeIdleMs: config.treeIdleMs,
    sweepEveryMs: config.sweepEveryMs,
    maxTreeBytes: config.maxTreeBytes,
    renderProbe: options.renderProbe,
    bounds: sessionBoundsOptions({
      maxSessions: options.maxSessions,
      maxPending: options.maxPendingSessions,
      pendingMs: options.pendingSessionMs,
    }),
    onBind,
  }) as LiveApp<Model>["sessions"];
}

/** A live app: a Hono app serving the page, events, the SSE stream and the client. Mount it with `app.route(path, live)` or serve `live.fetch` (docs/live-apps.md). */
export class LiveApp<Model> extends Hono<Env> {
  /** The app's sessions: counts and the bytes of kept trees, for monitoring (docs/deployment.md#memory). */
  readonly sessions: SessionRegistry<Model> & { readonly shared: SharedSessions<Model> | undefined };
  private readonly config: AppSettings;
  private readonly cookieName: string;
  private readonly now: () => number;
  private readonly extraMessages: ReadonlySet<string>;
  private readonly csrf: CsrfTokens;
  private readonly originAllowed: (req: Request) => boolean;
  private readonly eventPath: string;
  /** The builders' middleware (the sliding token's, the session middleware's), in the order they were added. */
  private readonly middleware: MiddlewareHandler<Env>[] = [];
  /** That middleware composed by Hono, rebuilt when a builder adds one; undefined: none. */
  private composed: MiddlewareHandler<Env> | undefined;
  /** Who may use a session, and as whom: sliding-token binding and the revocation gate. */
  private readonly access: SessionAccess<Model>;
  /** What the routes share (src/live/server/http/route-context.ts). */
  private readonly routeContext: RouteContext<Model>;
  /** The session tokens of a `{ session: "token" }` app (src/live/server/http/session-tokens.ts). */
  private readonly tokens: SessionTokens | undefined;
  /** Set by the first request: the configuration is fixed from then on. */
  private started = false;
  private replication: Replication | undefined;
  private stopEvictions: (() => void) | undefined;

  constructor(
    private readonly definition: RunningDefinition<Model>,
    options: LiveAppOptions = {},
  ) {
    super();
    checkAtBuild(definition, options);
    noteBuiltApp(this);
    const config = this.config = withDefaults(options);
    this.cookieName = sessionCookieName(options.name);
    this.eventPath = config.basePath + EVENT_PATH;
    this.now = config.now;
    this.extraMessages = new Set(options.messages ?? []);
    this.csrf = new CsrfTokens(options.secret);
    this.originAllowed = originCheck(options.allowedOrigins);
    this.sessions = registryFor<Model>(options, config, {
      onBind: (session, userId) => this.access.bind(session, { userId, at: this.now() }, { rotate: true }),
    });
    this.tokens = sessionTokensFor(options, this.csrf, this.now);
    this.access = new SessionAccess({
      sessions: this.sessions,
      now: this.now,
      cookieName: this.cookieName,
      secure: (req) => this.secure(req),
      cookieless: this.tokens !== undefined,
    });
    this.routeContext = this.contextOfRoutes(options);
    this.addRoutes();
  }

  /** What the routes share (src/live/server/http/route-context.ts), from the parts the constructor built. */
  private contextOfRoutes(options: LiveAppOptions): RouteContext<Model> {
    const { definition, config } = this;
    return {
      definition,
      sessions: this.sessions,
      access: this.access,
      csrf: this.csrf,
      cookieName: this.cookieName,
      tokens: this.tokens,
      sessionIdOf: sessionIdReader(this.tokens, this.cookieName),
      now: this.now,
      extraMessages: this.extraMessages,
      originAllowed: this.originAllowed,
      secure: (req) => this.secure(req),
      title: config.title,
      // Under svc-live dev every page reloads itself when the server restarts (src/live/server/http/dev-reload.ts).
      head: reportsToPage(definition) && inDevLoop() ? config.head + reloadScript() : config.head,
      client: clientFor(options, this.tokens !== undefined),
      heartbeatMs: config.heartbeatMs,
      replication: () => this.replication,
      failureNotice: options.failureNotice ?? defaultFailureNotice,
    };
  }

  /**
   * Mounts the sliding-session middleware (docs/auth.md#hono-middleware): its options, or a
   * `Server.slidingSession` the app sits behind. Behind that middleware (`app.route`), the token
   * was verified and slid in front and is not again; the app still starts a new session when the
   * token names another user, so a sign-in as someone else never sees the previous user's model.
   *
   * @throws {TypeError} after the app's first request, or for a middleware that is not a sliding one
   * @example
   * ```ts
   * import { Live, Server, Ui } from "svc-live";
   * import { Hono } from "hono";
   *
   * const session = Server.slidingSession({ cookie: "sid", secretEnv: "SVC_AUTH_TOKEN_SECRET", windowSeconds: 900, maxLifetimeSeconds: 43_200 });
   * const live = Live.app<{ name: string }>({
   *   init: ({ auth }) => ({ name: String(auth?.name ?? "guest") }),
   *   update: (model) => model,
   *   view: (model) => Ui.h("p", {}, `Hello, ${model.name}`),
   * }).withAuthSliding(session);
   *
   * const app = new Hono().use(session).route("/", live);
   * ```
   */
  withAuthSliding(options: Omit<SlidingOptions, "prefix"> | SessionMiddleware): this {
    this.configure();
    const settings = typeof options === "function" ? options.sliding : options;
    if (settings === undefined) throw new TypeError("withAuthSliding takes sliding options or a Server.slidingSession middleware");
    const own = authSliding({ ...settings, prefix: this.config.prefix });
    this.addMiddleware((c, next) => (slidingRanFor(c.req.raw, settings.cookie) ? next() : own(c, next)));
    this.access.tokenCookie = { cookie: settings.cookie, sameSite: settings.sameSite };
    return this;
  }

  /**
   * Binds live sessions to the user of a session middleware (docs/auth.md#hono-middleware), sliding
   * or fixed-lifetime: a page load whose token names another user starts a new live session, and
   * an eviction clears the token cookie. A sliding session is `withAuthSliding(session)`. Behind the
   * middleware (`app.route`) its verdict is read from the request; mounted alone the app runs it.
   *
   * @example
   * ```ts
   * import { Live, Server, Ui } from "svc-live";
   *
   * // Fixed-lifetime tokens (no sliding): the session ends when the token does.
   * const session = Server.tokenSession({ cookie: "auth", secretEnv: "SVC_AUTH_TOKEN_SECRET", lifetimeSeconds: 3600 });
   * const live = Live.app<{ user: string }>({
   *   init: ({ auth }) => ({ user: String(auth?.sub ?? "nobody") }),
   *   update: (model) => model,
   *   view: (model) => Ui.h("p", {}, `Signed in as ${model.user}`),
   * }).withAuth(session);
   * ```
   */
  withAuth(session: SessionMiddleware): this {
    if (session.sliding !== undefined) return this.withAuthSliding(session);
    this.configure();
    const claimsFromAuth = (c: Context<AuthEnv & SlidingEnv>) => c.set("svcAuth", c.get("auth")?.claims);
    this.addMiddleware(async (c, next) => {
      const both = c as unknown as Context<AuthEnv & SlidingEnv>;
      if (sessionMiddlewareRan(c)) {
        claimsFromAuth(both);
        return next();
      }
      await session(c as unknown as Context<AuthEnv>, async () => {
        claimsFromAuth(both);
        await next();
      });
    });
    this.access.tokenCookie = session.tokenCookie;
    return this;
  }

  /**
   * Enables the revocation gate (docs/auth.md#live-sessions-and-the-gate); `db` must be
   * the Db given to Auth. Until this is called the gate is inert. Once on, a session bound to a
   * user (`Live.bindSessionUser`, or the token of `withAuth`) ends at once when that user is
   * revoked (`Auth.revokeUser`) or disabled (`Auth.disableUser`), on this replica and, with shared
   * sessions, on every other.
   *
   * @example
   * ```ts
   * import { Db, Live, Server, Ui } from "svc-live";
   *
   * const db = Db.open("file:app.db");
   * const session = Server.slidingSession({ cookie: "sid", secretEnv: "SVC_AUTH_TOKEN_SECRET", windowSeconds: 900, maxLifetimeSeconds: 43_200 });
   * const live = Live.app<{ n: number }>({
   *   init: () => ({ n: 0 }),
   *   update: (model) => ({ n: model.n + 1 }),
   *   view: (model) => Ui.h("button", { onClick: "Inc" }, String(model.n)),
   * }).withAuthSliding(session).withRevocation(db);
   * ```
   */
  withRevocation(db: Db): this {
    this.configure();
    this.access.gate = new RevocationGate(db);
    // Pushed, not lazy: a revoke or disable ends the user's sessions here at once (access/eviction-listener.ts).
    this.stopEvictions?.();
    this.stopEvictions = listenForEvictions(this.access.gate, this.sessions);
    return this;
  }

  /**
   * Drops the browser's live session cookie (both spellings) from a response, so the next page
   * load starts a new session whose init sees the request afresh: for example a login or sign-up
   * route that redirects back to the live app with an error in the URL.
   *
   * @example
   * ```ts
   * import { Live, Ui } from "svc-live";
   * import { Hono } from "hono";
   *
   * const live = Live.app<{ error: string }>({
   *   init: ({ url }) => ({ error: url.searchParams.get("error") ?? "" }),
   *   update: (model) => model,
   *   view: (model) => Ui.h("p", { class: "error" }, model.error),
   * });
   * const app = new Hono();
   * app.post("/login", (c) => live.freshSession(c.redirect("/?error=wrong+password", 303)));
   * app.route("/", live);
   * ```
   */
  freshSession(resp: Response): Response {
    const attributes = "Path=/; HttpOnly; SameSite=Lax; Max-Age=0";
    // The request is not known here: the __Host- spelling is Secure whatever it is, the other by
    // the secureCookies middleware of the route that answers.
    const plain = withRuledCookie(resp, { name: this.cookieName, value: "", attributes }, { secureContext: false });
    return withRuledCookie(plain, { name: HOST_PREFIX + this.cookieName, value: "", attributes }, { secureContext: false });
  }

  /**
   * What the app is configured with, as `svc-live doctor` reports it: whether the revocation gate
   * is on, whether it sits behind a sliding session, its name, env prefix, session kind and title.
   *
   * @example
   * ```ts
   * import { Live, Ui } from "svc-live";
   *
   * const live = Live.app<null>({ init: () => null, update: (m) => m, view: () => Ui.h("p", {}, "hi") }, { title: "Hi" });
   * const { session, gate } = live.describe();
   * if (session === "cookie" && !gate) console.warn("sessions are not ended when a user is revoked: call withRevocation(db)");
   * ```
   */
  describe(): {
    readonly gate: boolean;
    readonly sliding: boolean;
    readonly name: string | undefined;
    readonly prefix: string | undefined;
    readonly session: "cookie" | "token";
    readonly title: string;
  } {
    return {
      session: this.tokens === undefined ? "cookie" : "token",
      title: this.config.title,
      gate: this.access.gate !== undefined,
      sliding: this.access.tokenCookie !== undefined,
      name: this.config.name,
      prefix: this.config.prefix,
    };
  }

  /**
   * Live, pending (never connected), evicted and expired session counts, for monitoring
   * (docs/deployment.md#session-bounds).
   *
   * @example
   * ```ts
   * import { Live, Ui } from "svc-live";
   * import { Hono } from "hono";
   *
   * const live = Live.app<null>({ init: () => null, update: (m) => m, view: () => Ui.h("p", {}, "hi") });
   * const app = new Hono();
   * app.get("/metrics/sessions", (c) => c.json(live.sessionCounts()));
   * app.route("/", live);
   * ```
   */
  sessionCounts(): SessionCounts {
    return this.sessions.counts();
  }

  /**
   * Shares the app's sessions between replicas through `db` (docs/deployment.md#several-replicas):
   * on Postgres, any replica serves any request, revocation reaches every replica at once, and a
   * restart loses nothing saved. Another database keeps sessions in this process. The model must
   * be plain JSON data or come with a `codec`; that is checked now, on the model `init` makes for
   * a bare request, and a model that cannot be stored throws SvcError "model_not_serialisable".
   *
   * `bus` picks what carries frames and takeover notices between replicas
   * (docs/deployment.md#the-bus): `"postgres"` (the default, LISTEN/NOTIFY, nothing more to run),
   * `{ redis: "redis://…" }` (needs the `redis` package) or `{ nats: "nats://…" }` (needs
   * `@nats-io/transport-node`), which keep notices off Postgres's commit path.
   *
   * @param db the Postgres database every replica opens (`Db.open("postgres://...")`)
   * @param options a `codec` for a model that is not plain JSON (dates, maps); the `bus`
   * @throws {SvcError} "secret_missing" on Postgres without a shared secret; "model_not_serialisable";
   * "bad_config" for a bus option that names no bus
   * @example
   * ```ts
   * import { Db, Live, Ui } from "svc-live";
   *
   * const db = Db.open("postgres://db.internal/app");
   * const live = Live.app<{ n: number }>({
   *   init: () => ({ n: 0 }),
   *   update: (model) => ({ n: model.n + 1 }),
   *   view: (model) => Ui.h("button", { onClick: "Inc" }, String(model.n)),
   * }).withSharedSessions(db);
   * await live.ready(); // listening for the other replicas' notices
   * ```
   * @example
   * ```ts
   * import { Db, Live, Ui } from "svc-live";
   *
   * // Frames and takeover notices on Redis, off Postgres's commit path (npm install redis).
   * const db = Db.open("postgres://db.internal/app");
   * const live = Live.app<{ n: number }>({
   *   init: () => ({ n: 0 }),
   *   update: (model) => ({ n: model.n + 1 }),
   *   view: (model) => Ui.h("button", { onClick: "Inc" }, String(model.n)),
   * }).withSharedSessions(db, { bus: { redis: "redis://cache.internal:6379" } });
   * ```
   */
  withSharedSessions(db: Db, options: { readonly codec?: ModelCodec<Model>; readonly bus?: SharedBusOption } = {}): this {
    this.configure();
    if (options.bus !== undefined) checkBusOption(options.bus);
    if (db.dialect !== "postgres") return this;
    // Each replica checks the CSRF tokens the others issued: they need one key.
    if (this.config.secret === undefined && !readEnv(SECRET_ENV)) {
      throw new SvcError(
        "secret_missing",
        `shared sessions need the same secret on every replica: set ${SECRET_ENV} or the live app's secret option`,
      );
    }
    const bare = new Request("http://localhost/");
    const [probe] = splitUpdate(this.definition.init({ url: new URL(bare.url), auth: undefined, request: bare }));
    assertStorable(probe, options.codec);
    const codec = (options.codec ?? jsonCodec) as ModelCodec<Model>;
    const build = (id: string, state: SessionState<Model>, frames: SessionFrames) =>
      new LiveSession(this.definition, this.sessions, { id, now: this.now(), extraMessages: this.extraMessages, state, frames });
    // Rotated-away ids are stored sealed under a key from the app's secret (src/live/store/seal.ts).
    const sealer = new Sealer(this.csrf.derivedKey("live-rotation-seal"));
    this.replication = shareSessions({
      registry: this.sessions,
      db,
      app: this.cookieName,
      codec,
      now: this.now,
      build,
      gate: () => this.access.gate,
      sealer,
      bus: options.bus,
    });
    return this;
  }

  /**
   * Resolves once the app listens for other replicas' notices (at once without shared sessions):
   * await it before reporting the replica ready (docs/deployment.md#health-and-readiness).
   *
   * @example
   * ```ts
   * import { Db, Live, Ui } from "svc-live";
   *
   * const db = Db.open("postgres://localhost/app");
   * const live = Live.app<null>({ init: () => null, update: (m) => m, view: () => Ui.h("p", {}, "hi") }).withSharedSessions(db);
   * await live.ready();
   * console.log("replica ready");
   * ```
   */
  ready(): Promise<void> {
    return this.replication?.ready ?? Promise.resolve();
  }

  /**
   * Graceful shutdown (docs/deployment.md#several-replicas): stops taking new sessions, lets each
   * session finish what it is doing (every change is already saved), gives up its lease and
   * closes its streams, so its clients reconnect to another replica. Wire it to SIGTERM, or let
   * `Server.graceful({ live, db })` call it in order with the rest of the shutdown.
   *
   * @example
   * ```ts
   * import { Live, Ui } from "svc-live";
   *
   * const live = Live.app<null>({ init: () => null, update: (m) => m, view: () => Ui.h("p", {}, "hi") });
   * // A hand-written shutdown; Server.graceful does this, and more, for you.
   * async function shutdown(): Promise<void> {
   *   await live.drain(); // stops taking sessions; each held one finishes and lets go
   * }
   * ```
   */
  async drain(): Promise<void> {
    this.stopEvictions?.();
    await this.sessions.drain();
  }

  /**
   * What this app's drain still waits for, in words (sessions still held, their streams still
   * open): `Server.graceful` logs it when a drain passes half its timeout.
   *
   * @example
   * ```ts
   * import { Live, Ui } from "svc-live";
   *
   * const live = Live.app<null>({ init: () => null, update: (m) => m, view: () => Ui.h("p", {}, "hi") });
   * console.log(live.waitingFor()); // [] : no session held
   * ```
   */
  waitingFor(): readonly string[] {
    return this.sessions.waitingFor();
  }

  /**
   * Ends every session and stops the app's timers, at once (for shutdown and tests; a replica
   * that hands its sessions to others drains instead).
   *
   * @example
   * ```ts
   * import { Live, Ui } from "svc-live";
   *
   * const live = Live.app<null>({ init: () => null, update: (m) => m, view: () => Ui.h("p", {}, "hi") });
   * const page = await live.fetch(new Request("http://localhost/"));
   * console.log(page.status); // 200
   * live.close();
   * ```
   */
  close(): void {
    this.stopEvictions?.();
    this.sessions.close();
  }

  /** Builder methods must come before the first request. */
  protected configure(): void {
    if (this.started) throw new TypeError("configure the live app before its first request");
  }

  /**
   * The routes, on this app itself, so `app.route(path, live)` copies them into another Hono app.
   * The builders' middleware runs from one place ahead of them (`composed`), the Secure-cookie
   * middleware after them.
   */
  private addRoutes(): void {
    const base = this.config.basePath;
    this.use((c, next) => {
      this.started = true;
      return this.composed === undefined ? next() : this.composed(c, next);
    });
    this.get(base + CLIENT_PATH, (c) => clientScript(c.req.raw));
    this.get(base + SPLIT_CLIENT_PATH, (c) => clientScript(c.req.raw, "split"));
    // An event waits for the end of the turn when the server is busy (src/live/server/http/turn-batch.ts).
    this.post(this.eventPath, (c) => handleEvent(this.routeContext, c.req.raw, c.get("svcAuth"), eventHold()));
    this.get(base + SUBSCRIBE_PATH, (c) => serveStream(this.routeContext, c.req.raw, c.get("svcAuth")));
    this.get(base + SSE_ALIAS_PATH, (c) => serveStream(this.routeContext, c.req.raw, c.get("svcAuth")));
    this.get(base + RENDER_PATH, (c) => serveRender(this.routeContext, c.req.raw, c.get("svcAuth")));
    this.post(base + ROTATE_PATH, (c) => exchangeRotation(this.routeContext, c.req.raw));
    if (this.tokens !== undefined) this.post(base + END_PATH, (c) => serveEnd(this.routeContext, c.req.raw));
    const reloads = reportsToPage(this.routeContext.definition) && inDevLoop();
    const page = (c: Context<Env>) => {
      const asked = clientAsked(c.req.raw.url);
      if (reloads && reloadAsked(c.req.raw.url)) return reloadStream();
      return asked !== undefined
        ? clientScript(c.req.raw, asked)
        : servePage(this.routeContext, c.req.raw, c.get("svcAuth"), mountOf(c) + base);
    };
    this.get(`${base}/*`, page);
    if (base !== "") this.get(base, page);
    // After the library's routes, which write every cookie Secure by the rule themselves (as do the
    // builders' middleware): reading a reply's headers back would cost an event more than its own
    // route on a server with lazy responses (@hono/node-server builds the whole Response for it).
    // The routes an app adds to this one, or after it in the app it is mounted in, still get the rule here.
    this.use(secureCookies({ prefix: this.config.prefix }));
  }

  /** Adds a builder's middleware after the others, composed by Hono's `every`. */
  private addMiddleware(middleware: MiddlewareHandler<Env>): void {
    this.middleware.push(middleware);
    this.composed = every(...this.middleware);
  }

  private secure(req: Request): boolean {
    return secureContextOf(req, this.config.prefix);
  }
}
