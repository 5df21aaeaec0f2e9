/**
 * Live.app: the low-level live app builder (docs/protocol.md#endpoints). It is a Hono app: serve
 * its `fetch` (a Web-standard handler), or put it in a Hono app of yours with
 * `app.route("/live", live)` or `app.mount("/live", live.fetch)`:
 *
 *   GET  <base>/*                 the page: first render as full HTML, session and CSRF cookies
 *   GET  <base>/*?_svc=client.js  the browser client, from whatever page asks (see below)
 *   POST <base>/_svc/event        events (src/live/server/event-route.ts)
 *   GET  <base>/_svc/subscribe    SSE frames (GET <base>/_svc/sse is an alias)
 *   GET  <base>/_svc/render       the current render as full HTML, for a client that must resync
 *   POST <base>/_svc/rotate       exchanges a rotated-away cookie, for the tab holding the ticket
 *   GET  <base>/_svc/client.js    the browser client
 *
 * The base is where the app is mounted, and nothing needs to say it (docs/protocol.md#mounting):
 * a page loads the client through its own URL with a query, and tells the client its path within
 * the app, from which the client works out the base from its location. `app.mount` hands the app
 * a request with the mount's prefix taken off, so only the browser knows that prefix.
 *
 * Builder methods (.withAuthSliding, .withRevocation) configure the app before its first request;
 * the middleware they add runs at one place ahead of every route, so order never depends on calls.
 */
import { type Context, Hono, type MiddlewareHandler, type Next } from "hono";
import { basePath as routeBase } from "hono/route";
import type { Db } from "../../db/db.ts";
import type { JsonObject } from "../../json.ts";
import { SvcError } from "../../errors.ts";
import { cookieWritten, withCookie } from "../../server/cookies.ts";
import { checkSecretAtStart, SECRET_ENV } from "../../server/production.ts";
import { readEnv } from "../../runtime/env.ts";
import { log } from "../../log.ts";
import { secureContextOf, secureCookies, secureResponseCookies } from "../../server/secure.ts";
import { authSliding, type SlidingEnv, type SlidingOptions, slidingRanFor } from "../../server/sliding.ts";
import { type AuthEnv, type SessionMiddleware, sessionMiddlewareRan } from "../../server/auth-session.ts";
import { render } from "../render.ts";
import { clientScript } from "./client-script.ts";
import type { Secret } from "../../auth/secret.ts";
import { readSessionId, setSessionCookie } from "./cookies.ts";
import { CsrfTokens, type TokenState } from "./csrf.ts";
import { originCheck } from "./origin.ts";
import { type LiveDefinition, splitUpdate } from "./definition.ts";
import { type EventRouteContext, handleEvent } from "./event-route.ts";
import { RevocationGate } from "./gate.ts";
import { pageHtml } from "./page.ts";
import { randomToken } from "./random.ts";
import { type Resolved, SessionRegistry } from "./registry.ts";
import { DEFAULT_TREE_BUDGET_BYTES } from "./tree-budget.ts";
import { crossOrigin, csrfFailed, replicaDraining, sessionLost, sessionRotating, sessionsFull, storeUnavailable } from "./responses.ts";
import { orStoreFailed, STORE_FAILED } from "./store-failure.ts";
import { LiveSession } from "./session.ts";
import { SessionAccess } from "./session-access.ts";
import { sessionBoundsOptions, type SessionCounts } from "./session-bounds.ts";
import { initialState } from "./session-state.ts";
import type { SessionState } from "./session-state.ts";
import type { SessionFrames } from "./session-frames.ts";
import { listenForEvictions } from "./eviction.ts";
import { type Replication, shareSessions } from "./replication.ts";
import { assertStorable, jsonCodec, type ModelCodec } from "../store/codec.ts";
import { openFrameStream } from "./sse.ts";
import { MemorySessionStore, type SessionStore } from "./store.ts";
import { eventHold } from "./turn-batch.ts";
import {
  ACK_HEADER,
  CLIENT_PATH,
  CLIENT_QUERY,
  CLIENT_QUERY_NAME,
  CLIENT_QUERY_VALUE,
  CSRF_HEADER,
  EVENT_PATH,
  HOST_PREFIX,
  LAST_EVENT_ID_HEADER,
  LIMITS,
  MOVES_HEADER,
  RENDER_PATH,
  ROTATE_PATH,
  ROTATION_HEADER,
  SEQ_HEADER,
  sessionCookieName,
  SID_HEADER,
  SSE_ALIAS_PATH,
  SUBSCRIBE_PATH,
} from "../../protocol/mod.ts";

/** Options of `Live.app`. */
export type LiveAppOptions = {
  /** A sub-app's name: its session cookie is svc_<name>_sid (docs/protocol.md#sessions-and-cookies). */
  readonly name?: string;
  /**
   * Deprecated: a live app finds where it is mounted (`app.route`, `app.mount`). A prefix of its
   * own routes, for the old way of serving it under a path (`app.all("/live/*", (c) => live.fetch(c.req.raw))`).
   */
  readonly basePath?: string;
  readonly title?: string;
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
   * released past the budget renders it again from its model on its next event, which about
   * doubles that event's cost and changes nothing else. A kept tree costs in proportion to its
   * page (bench/table.bench.ts, memory); trees of sessions quiet for treeIdleMs are dropped either way.
   */
  readonly maxTreeBytes?: number;
  readonly heartbeatMs?: number;
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
  /** Clock in ms, for tests. */
  readonly now?: () => number;
};

type Env = SlidingEnv;

/** A live app: a Hono app serving the page, events, the SSE stream and the client. Mount it with `app.route(path, live)` or serve `live.fetch` (docs/live-apps.md). */
export class LiveApp<Model> extends Hono<Env> {
  readonly sessions: SessionRegistry<Model>;
  private readonly config: Required<Pick<LiveAppOptions, "basePath" | "title" | "head" | "heartbeatMs">> & LiveAppOptions;
  private readonly cookieName: string;
  private readonly now: () => number;
  private readonly extraMessages: ReadonlySet<string>;
  private readonly csrf: CsrfTokens;
  private readonly originAllowed: (req: Request) => boolean;
  private readonly middleware: MiddlewareHandler<Env>[] = [];
  /** Who may use a session, and as whom: sliding-token binding and the revocation gate. */
  private readonly access: SessionAccess<Model>;
  /** Set by the first request: the configuration is fixed from then on. */
  private started = false;
  private replication: Replication | undefined;
  private stopEvictions: (() => void) | undefined;

  constructor(
    private readonly definition: LiveDefinition<Model>,
    options: LiveAppOptions = {},
  ) {
    super();
    if (typeof definition?.init !== "function" || typeof definition.update !== "function" || typeof definition.view !== "function") {
      throw new TypeError("Live.app needs { init, update, view } functions");
    }
    const started = checkSecretAtStart(options.prefix);
    if (!started.ok) throw new SvcError(started.error.code, started.error.message);
    this.config = { basePath: "", title: "svc", head: "", heartbeatMs: 15_000, ...options };
    this.cookieName = sessionCookieName(options.name);
    this.eventPath = this.config.basePath + EVENT_PATH;
    this.now = options.now ?? (() => Date.now());
    this.extraMessages = new Set(options.messages ?? []);
    this.csrf = new CsrfTokens(options.secret);
    this.originAllowed = originCheck(options.allowedOrigins);
    this.sessions = new SessionRegistry<Model>({
      store: options.store ?? new MemorySessionStore(),
      now: this.now,
      idleTimeoutMs: options.idleTimeoutMs ?? 30 * 60_000,
      treeIdleMs: options.treeIdleMs ?? 10_000,
      sweepEveryMs: Math.min(60_000, Math.max(1_000, Math.floor((options.idleTimeoutMs ?? 30 * 60_000) / 4))),
      maxTreeBytes: options.maxTreeBytes ?? DEFAULT_TREE_BUDGET_BYTES,
      bounds: sessionBoundsOptions({
        maxSessions: options.maxSessions,
        maxPending: options.maxPendingSessions,
        pendingMs: options.pendingSessionMs,
      }),
      onBind: (session, userId) => this.access.bind(session, { userId, at: this.now() }, { rotate: true }),
    });
    this.access = new SessionAccess({
      sessions: this.sessions,
      now: this.now,
      cookieName: this.cookieName,
      secure: (req) => this.secure(req),
    });
    this.addRoutes();
    // Assigned here rather than declared as a field: a field's initialiser would have to read
    // Hono's fetch before it is replaced, and the runtimes' compilers do not agree on that order.
    const dispatch = this.fetch;
    /**
     * The Web-standard handler: `export default { fetch: app.fetch }`. Events, the hot path, skip
     * the router when no middleware is mounted (no sliding token to verify): the route is known
     * from the method and path, and the Secure-cookie rule the middleware would apply runs here.
     * That saves a measurable share of an event (bench/live.bench.ts).
     */
    this.fetch = (req: Request, env?: unknown, ctx?: unknown): Response | Promise<Response> => {
      if (this.middleware.length === 0 && req.method === "POST" && pathOf(req.url) === this.eventPath) {
        this.started = true;
        return this.directEvent(req);
      }
      return dispatch(req, env as never, ctx as never);
    };
  }

  private readonly eventPath: string;

  /**
   * Mounts the sliding-session middleware (docs/auth.md#hono-middleware): its options, or a
   * `Server.slidingSession` the app sits behind. Behind that middleware (`app.route`), the token
   * was verified and slid in front and is not again; the app still starts a new session when the
   * token names another user, so a sign-in as someone else never sees the previous user's model.
   */
  withAuthSliding(options: Omit<SlidingOptions, "prefix"> | SessionMiddleware): this {
    this.configure();
    const settings = typeof options === "function" ? options.sliding : options;
    if (settings === undefined) throw new TypeError("withAuthSliding takes sliding options or a Server.slidingSession middleware");
    const own = authSliding({ ...settings, prefix: this.config.prefix });
    this.middleware.push((c, next) => (slidingRanFor(c.req.raw, settings.cookie) ? next() : own(c, next)));
    this.access.tokenCookie = { cookie: settings.cookie, sameSite: settings.sameSite };
    return this;
  }

  /**
   * Binds live sessions to the user of a session middleware (docs/auth.md#hono-middleware), sliding
   * or fixed-lifetime: a page load whose token names another user starts a new live session, and
   * an eviction clears the token cookie. A sliding session is `withAuthSliding(session)`. Behind the
   * middleware (`app.route`) its verdict is read from the request; mounted alone the app runs it.
   */
  withAuth(session: SessionMiddleware): this {
    if (session.sliding !== undefined) return this.withAuthSliding(session);
    this.configure();
    const claimsFromAuth = (c: Context<AuthEnv & SlidingEnv>) => c.set("svcAuth", c.get("auth")?.claims);
    this.middleware.push(async (c, next) => {
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
   * the Db given to Auth. Until this is called the gate is inert.
   */
  withRevocation(db: Db): this {
    this.configure();
    this.access.gate = new RevocationGate(db);
    // Pushed, not lazy: a revoke or disable ends the user's sessions here at once (eviction.ts).
    this.stopEvictions?.();
    this.stopEvictions = listenForEvictions(this.access.gate, this.sessions);
    return this;
  }

  /**
   * Drops the browser's live session cookie (both spellings) from a response, so the next page
   * load starts a new session whose init sees the request afresh: for example a login or sign-up
   * route that redirects back to the live app with an error in the URL.
   */
  freshSession(resp: Response): Response {
    const expired = "Path=/; HttpOnly; SameSite=Lax; Max-Age=0";
    return withCookie(HOST_PREFIX + this.cookieName, "", expired, withCookie(this.cookieName, "", expired, resp));
  }

  /** What the app is configured with, for `svc doctor`. */
  describe(): {
    readonly gate: boolean;
    readonly sliding: boolean;
    readonly name: string | undefined;
    readonly prefix: string | undefined;
  } {
    return {
      gate: this.access.gate !== undefined,
      sliding: this.access.tokenCookie !== undefined,
      name: this.config.name,
      prefix: this.config.prefix,
    };
  }

  /** Live, pending (never connected), evicted and expired session counts, for monitoring. */
  sessionCounts(): SessionCounts {
    return this.sessions.counts();
  }

  /**
   * Shares the app's sessions between replicas through `db` (docs/deployment.md#several-replicas):
   * on Postgres, any replica serves any request, revocation reaches every replica at once, and a
   * restart loses nothing saved. Another database keeps sessions in this process. The model must
   * be plain JSON data or come with a `codec`; that is checked now, on the model `init` makes for
   * a bare request, and a model that cannot be stored throws SvcError "model_not_serialisable".
   */
  withSharedSessions(db: Db, options: { readonly codec?: ModelCodec<Model> } = {}): this {
    this.configure();
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
      new LiveSession(this.definition, this.sessions, { id, now: this.now(), extraMessages: this.extraMessages }, state, frames);
    this.replication = shareSessions(this.sessions, db, this.cookieName, codec, this.now, build, () => this.access.gate);
    return this;
  }

  /** Resolves once the app listens for other replicas' notices (at once without shared sessions). */
  ready(): Promise<void> {
    return this.replication?.ready ?? Promise.resolve();
  }

  /**
   * Graceful shutdown (docs/deployment.md#several-replicas): stops taking new sessions, lets each
   * session finish what it is doing (every change is already saved), gives up its lease and
   * closes its streams, so its clients reconnect to another replica. Wire it to SIGTERM.
   */
  async drain(): Promise<void> {
    this.stopEvictions?.();
    await this.sessions.drain();
  }

  /** Ends every session and stops the app's timers (for shutdown and tests). */
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
   * The builders' middleware runs from one place ahead of them (`runMiddleware`).
   */
  private addRoutes(): void {
    const base = this.config.basePath;
    this.use(secureCookies({ prefix: this.config.prefix }));
    this.use((c, next) => this.runMiddleware(c, next));
    this.get(base + CLIENT_PATH, (c) => clientScript(c.req.raw));
    this.post(this.eventPath, (c) => this.event(c.req.raw, c.get("svcAuth")));
    this.get(base + SUBSCRIBE_PATH, (c) => this.subscribe(c.req.raw, c.get("svcAuth")));
    this.get(base + SSE_ALIAS_PATH, (c) => this.subscribe(c.req.raw, c.get("svcAuth")));
    this.get(base + RENDER_PATH, (c) => this.renderCurrent(c.req.raw, c.get("svcAuth")));
    this.post(base + ROTATE_PATH, (c) => this.exchangeRotation(c.req.raw));
    const page = (
      c: Context<Env>,
    ) => (isClientRequest(c.req.raw.url) ? clientScript(c.req.raw) : this.page(c.req.raw, c.get("svcAuth"), mountOf(c) + base));
    this.get(`${base}/*`, page);
    if (base !== "") this.get(base, page);
  }

  /** The builders' middleware (the sliding token's), in the order they were added. */
  private runMiddleware(c: Context<Env>, next: Next): Promise<void> | Promise<Response | void> {
    this.started = true;
    const chain = this.middleware;
    const step = async (i: number): Promise<void> => {
      if (i === chain.length) return next();
      const res = await chain[i]!(c, () => step(i + 1));
      if (res instanceof Response && !c.finalized) c.res = res;
    };
    return chain.length === 0 ? next() : step(0);
  }

  /** An event, processed at the end of the turn when the server is busy (src/live/server/turn-batch.ts). */
  private event(req: Request, auth: JsonObject | undefined): Promise<Response> {
    const context = (this.eventContext ??= this.makeEventContext());
    const hold = eventHold();
    return hold === undefined ? handleEvent(req, context, auth) : hold.then(() => handleEvent(req, context, auth));
  }

  /** What the event route needs of the app: made once, not per event. */
  private eventContext: EventRouteContext<Model> | undefined;

  private makeEventContext(): EventRouteContext<Model> {
    return {
      registry: this.sessions,
      now: this.now,
      sessionIdOf: (r) => readSessionId(r, this.cookieName),
      // Nothing to check without a gate or a sliding token: no extra async step on the hot path.
      admit: (session, r, auth) => (this.access.checksAnything ? this.access.admit(session, auth, r) : undefined),
      finish: (session, r, resp) => this.finishReply(session, r, resp),
      originAllowed: this.originAllowed,
      checkToken: (session, r, token) => this.checkToken(session, r, token),
      tokenOf: (session, r) => this.csrf.tokenOf(r, session.id),
    };
  }

  /**
   * The event route outside the router: what the middleware and Hono's error handler would do
   * around it. Every cookie an event reply can carry (a rotated or ended session's) is written by
   * `withCookie`, so only such replies have their cookies checked against the Secure rule.
   */
  private async directEvent(req: Request): Promise<Response> {
    try {
      const resp = await this.event(req, undefined);
      return cookieWritten(resp) ? secureResponseCookies(req, resp, this.config.prefix) : resp;
    } catch (error) {
      log.error(`live.event failed: ${error instanceof Error ? error.message : String(error)}`);
      return new Response("Internal Server Error", { status: 500 });
    }
  }

  private secure(req: Request): boolean {
    return secureContextOf(req, this.config.prefix);
  }

  /**
   * A page load (docs/protocol.md#page): the cookie's session if it may go on, else a new one;
   * then its first render as full HTML, with the session and CSRF cookies.
   */
  private async page(req: Request, auth: JsonObject | undefined, base: string): Promise<Response> {
    const kept = await orStoreFailed(() => this.keptSessionFor(req, auth));
    if (kept === STORE_FAILED) return storeUnavailable();
    if (kept instanceof Response) return kept;
    const opened = kept !== undefined ? { session: kept, signOut: false } : await this.openSession(req, auth);
    if (opened instanceof Response) return opened;
    // One CSRF cookie per browser, so apps mounted side by side share it; the token is the session's.
    const csrfCookie = this.csrf.cookieFor(req);
    const page = await this.renderPage(opened.session, csrfCookie, { base, path: pathWithin(req.url, base) });
    // With a shared store, the session (and a rotation made on this load) is stored before its
    // cookie goes out, so the next request finds it at any replica. Not stored, no cookie: a new
    // session ends here (no one holds its id), a kept one stays as it was (src/live/server/store-failure.ts).
    if ((await orStoreFailed(() => this.sessions.saveNow(opened.session))) === STORE_FAILED) {
      if (kept === undefined) this.sessions.end(opened.session as LiveSession<unknown>);
      return storeUnavailable();
    }
    const resp = new Response(page.html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
    return this.pageCookies(resp, req, { id: page.id, csrfCookie, signOut: opened.signOut });
  }

  /**
   * The cookie's session, when a page load may go on with it; undefined when the load starts a
   * new session instead (none, another user's in a sliding app, or one the gate just evicted).
   */
  private async keptSessionFor(req: Request, auth: JsonObject | undefined): Promise<LiveSession<Model> | Response | undefined> {
    const resolved = await this.sessions.resolve(readSessionId(req, this.cookieName));
    if (resolved.kind === "elsewhere") return replicaDraining();
    if (resolved.kind !== "live") return undefined;
    const session = resolved.session;
    if (this.access.userChanged(session, auth)) {
      // A new session, so that init sees the new user; the old id dies.
      this.sessions.end(session as LiveSession<unknown>);
      return undefined;
    }
    const refused = await this.access.admit(session, auth, req);
    // An evicted session's page load starts a fresh, signed-out session.
    if (refused !== undefined) return session.ended ? undefined : refused;
    this.sessions.takeRotation(session); // a bind on page load: the new cookie goes out with the page
    return session;
  }

  /** A new session for a page load: bound as the access policy says, its model from the app's init. */
  private async openSession(
    req: Request,
    auth: JsonObject | undefined,
  ): Promise<{ session: LiveSession<Model>; signOut: boolean } | Response> {
    // A draining replica takes no new session: the proxy sends the retry elsewhere.
    if (this.sessions.draining) return replicaDraining();
    const access = await this.access.forNewSession(auth);
    if (access instanceof Response) return access;
    if (!this.sessions.makeRoom()) return sessionsFull();
    const [model, cmd] = splitUpdate(this.definition.init({ url: new URL(req.url), auth: access.auth, request: req }));
    const now = this.now();
    const session = new LiveSession(
      this.definition,
      this.sessions,
      { id: randomToken(), now, extraMessages: this.extraMessages },
      initialState(model, now),
    );
    // A brand-new id needs no rotation.
    if (access.binding) this.access.bind(session as LiveSession<unknown>, access.binding, { rotate: false });
    this.sessions.add(session);
    session.start(cmd);
    return { session, signOut: access.signOut };
  }

  /** The page's HTML: the session's current render, under its mutex, as a new page of the session. */
  private renderPage(
    session: LiveSession<Model>,
    csrfCookie: string,
    where: { base: string; path: string },
  ): Promise<{ html: string; id: string }> {
    return session.mutex.run(() => {
      session.lastActive = this.now();
      session.startPage();
      // The id the page's token is bound to is the one its session cookie gets.
      const id = session.id;
      const html = pageHtml({
        title: this.config.title,
        head: this.config.head,
        basePath: where.base,
        appPath: where.path,
        csrf: this.csrf.tokenFor(id, csrfCookie),
        seq: session.outSeq,
        handle: this.sessions.handleOf(session),
        body: render(session.currentTree()),
      });
      return { html, id };
    });
  }

  /** The page's cookies: the session's, a new browser's CSRF cookie, and a signed-out visitor's token cleared. */
  private pageCookies(resp: Response, req: Request, page: { id: string; csrfCookie: string; signOut: boolean }): Response {
    const secure = this.secure(req);
    let out = setSessionCookie(resp, this.cookieName, page.id, secure);
    if (this.csrf.needsCookie(req, secure)) out = this.csrf.setCookie(out, page.csrfCookie, secure);
    return page.signOut ? this.access.clearTokenCookie(out) : out;
  }

  private async subscribe(req: Request, auth: JsonObject | undefined): Promise<Response> {
    const id = readSessionId(req, this.cookieName);
    // A stream of a session another replica holds listens here; its frames come over the bus.
    const remote = this.replication?.streamHere(id, req.headers.get(LAST_EVENT_ID_HEADER), this.config.heartbeatMs);
    const resolved = await orStoreFailed(() => remote ?? (this.sessions.resolve(id) as Resolved<unknown> | Promise<Resolved<unknown>>));
    if (resolved === STORE_FAILED) return storeUnavailable();
    if (resolved instanceof Response) return resolved;
    if (resolved.kind !== "live") {
      return resolved.kind === "rotating" ? sessionRotating() : resolved.kind === "elsewhere" ? replicaDraining() : sessionLost();
    }
    const session = resolved.session as LiveSession<Model>;
    const refused = await this.access.admit(session, auth, req);
    if (refused !== undefined) return refused;
    this.sessions.connected(session);
    const { sink, body, write } = openFrameStream({
      heartbeatMs: this.config.heartbeatMs,
      onHeartbeat: () => (session.lastActive = this.now()),
      onClose: (closed) => session.frames.closed(closed),
    });
    // Under the mutex, so that no frame is stamped between the catch-up and the stream joining.
    await session.mutex.run(() => {
      const renderRoot = () => render(session.currentTree());
      write(session.frames.catchUp(req.headers.get(LAST_EVENT_ID_HEADER), session.outSeq, renderRoot));
      session.frames.open(sink, pageOf(req.url));
    });
    return new Response(body, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no" } });
  }

  private async renderCurrent(req: Request, auth: JsonObject | undefined): Promise<Response> {
    const resolved = await orStoreFailed(() => this.sessions.resolve(readSessionId(req, this.cookieName)));
    if (resolved === STORE_FAILED) return storeUnavailable();
    if (resolved.kind !== "live") {
      return resolved.kind === "rotating" ? sessionRotating() : resolved.kind === "elsewhere" ? replicaDraining() : sessionLost();
    }
    if (!this.originAllowed(req)) return crossOrigin();
    const session = resolved.session;
    const tokenState = this.checkToken(session, req, req.headers.get(CSRF_HEADER) ?? undefined);
    if (tokenState === "wrong") return csrfFailed();
    const refused = await this.access.admit(session, auth, req);
    if (refused !== undefined) return refused;
    return session.mutex.run(() => {
      session.lastActive = this.now();
      const headers: Record<string, string> = {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        [SEQ_HEADER]: String(session.outSeq),
      };
      // A tab still holding the token of a rotated-away id learns the current one.
      if (tokenState === "former") {
        Object.assign(headers, { [SID_HEADER]: this.sessions.handleOf(session), [CSRF_HEADER]: this.csrf.tokenOf(req, session.id) });
      }
      const moves = movesHeader(session, new URL(req.url).searchParams.get("since"));
      if (moves !== undefined) headers[MOVES_HEADER] = moves;
      // The acks a tab catching up has missed: a value the render shows applies to an input only
      // once its keystrokes are acked, and the frames that carried those acks are skipped.
      if (session.inputSeqs.size > 0) headers[ACK_HEADER] = JSON.stringify(Object.fromEntries(session.inputSeqs));
      return new Response(render(session.currentTree()), { headers });
    });
  }

  private exchangeRotation(req: Request): Response {
    if (!this.originAllowed(req)) return crossOrigin();
    // The tab exchanging its ticket still holds the old id's cookie and token.
    const oldId = readSessionId(req, this.cookieName);
    if (oldId === undefined || !this.csrf.matches(req, req.headers.get(CSRF_HEADER) ?? undefined, oldId)) return csrfFailed();
    const session = this.sessions.exchange(oldId, req.headers.get(ROTATION_HEADER) ?? undefined);
    if (session === undefined) return sessionLost();
    const resp = new Response(null, {
      status: 204,
      headers: { [SID_HEADER]: this.sessions.handleOf(session), [CSRF_HEADER]: this.csrf.tokenOf(req, session.id) ?? "" },
    });
    return setSessionCookie(resp, this.cookieName, session.id, this.secure(req));
  }

  /** A token checked against the session's current id, then the ids it rotated away from within the grace period. */
  private checkToken(session: LiveSession<Model>, req: Request, token: string | undefined): TokenState {
    return this.csrf.check(req, token, session.id, () => this.sessions.rotatedIds(session));
  }

  /** After an event: hand a rotation to the tab that caused it, or clear the cookie of an ended session. */
  private finishReply(session: LiveSession<Model>, req: Request, resp: Response): Response {
    const rotation = this.sessions.takeRotation(session);
    if (session.ended) return this.access.signedOut(resp, req);
    if (rotation === undefined) return resp;
    resp.headers.set(ROTATION_HEADER, rotation.ticket);
    resp.headers.set(SID_HEADER, this.sessions.handleOf(session));
    const token = this.csrf.tokenOf(req, session.id);
    if (token !== undefined) resp.headers.set(CSRF_HEADER, token);
    return setSessionCookie(resp, this.cookieName, session.id, this.secure(req));
  }
}

/** `Live.app(definition, options)`. */
export function app<Model>(definition: LiveDefinition<Model>, options?: LiveAppOptions): LiveApp<Model> {
  return new LiveApp(definition, options);
}

function isClientRequest(url: string): boolean {
  return url.includes(CLIENT_QUERY) && new URL(url).searchParams.get(CLIENT_QUERY_NAME) === CLIENT_QUERY_VALUE;
}

/**
 * Where another Hono app's `route(path, live)` put this app's routes ("" when it did not): the
 * matched route's base, its parameters filled in.
 */
function mountOf(c: Context): string {
  const base = routeBase(c);
  return base === "/" ? "" : base;
}

/** The page's path within the app: its URL's path without the base, "/" at the app's root. */
function pathWithin(url: string, base: string): string {
  const path = pathOf(url);
  return path.startsWith(base) ? path.slice(base.length) || "/" : path;
}

/** The `page` a stream's URL names (`?page=<id>`, the client's id of its page load), if any and well formed. */
function pageOf(url: string): string | undefined {
  const page = new URL(url).searchParams.get("page");
  return page !== null && page.length > 0 && page.length <= LIMITS.maxNameLength ? page : undefined;
}

/** The path of a request URL (what the router matches), without building a URL object. */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.indexOf("?", start);
  if (end < 0) end = url.indexOf("#", start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

/** Largest X-Svc-Moves value sent; a longer one is left out and the client reconciles as before. */
const MAX_MOVES_BYTES = 16 * 1024;

/**
 * The X-Svc-Moves header of a render asked for with `?since=<seq>` (docs/protocol.md#ids-that-move):
 * what the frames since then did to ids, or undefined when unknown or too long for a header.
 */
function movesHeader(session: { movesSince(since: number): readonly unknown[] | undefined }, since: string | null): string | undefined {
  if (since === null || !/^\d{1,15}$/.test(since)) return undefined;
  const moves = session.movesSince(Number(since));
  if (moves === undefined) return undefined;
  const json = JSON.stringify(moves);
  return json.length <= MAX_MOVES_BYTES ? json : undefined;
}
