/**
 * Sign-in as Hono middleware: the session cookie's token verified on every request and the user
 * set on `c.var.auth`, typed through Hono's `Variables`:
 *
 *   const session = Server.slidingSession({ cookie: "sid", secretEnv: "APP_SECRET", windowSeconds: 900, maxLifetimeSeconds: 43_200 });
 *   const app = new Hono<Server.AuthEnv>().use(session);
 *   app.post("/login", async (c) => { …; session.signIn(c, userId); return c.redirect("/", 303); });
 *   app.get("/me", Server.requireUser(), (c) => c.json({ id: c.var.auth.userId }));
 *
 * `slidingSession` slides the token's expiry on each interaction under an absolute cap (the
 * sliding middleware, src/server/sliding.ts); `tokenSession` keeps a fixed lifetime. Both set
 * `c.var.auth` to the signed-in user, or undefined, and give `signIn` and `signOut`, which write
 * the cookie on the response the handler builds through `c`.
 */
import type { Context, MiddlewareHandler } from "hono";
import { nowSeconds } from "../auth/claims.ts";
import { signSlidingToken, type SlidingParams } from "../auth/sliding.ts";
import type { Secret } from "../auth/secret.ts";
import { requireSecretAtStart } from "./production.ts";
import { signToken, verifyToken } from "../auth/token.ts";
import { SvcError } from "../errors.ts";
import type { JsonObject } from "../json.ts";
import { encodeCookieValue, getCookie } from "./cookies.ts";
import { applySecureRule, secureContextOf } from "./secure.ts";
import {
  authSliding,
  type RevokedCheck,
  type SameSite,
  secretOf,
  setSlidingCookie,
  type SlidingEnv,
  type SlidingOptions,
} from "./sliding.ts";

/** The signed-in user a session middleware puts on `c.var.auth`. */
export type AuthUser = {
  /** The token's `sub`, as a string. */
  readonly userId: string;
  /** The user's role: `roleOf`'s answer, else the token's `role` claim, else undefined. */
  readonly role: string | undefined;
  /** Every verified claim of the token. */
  readonly claims: JsonObject;
};

/** The Hono environment of an app behind a session middleware: `new Hono<AuthEnv>()`. */
export type AuthEnv = {
  /** `c.var.auth`: the signed-in user, or undefined. */
  Variables: { auth: AuthUser | undefined };
};
/** The environment after a `requireUser` or `requireRole` guard: the user is there. */
export type SignedInEnv = {
  /** `c.var.auth`: the signed-in user. */
  Variables: { auth: AuthUser };
};

/** Where the HMAC secret comes from: the Secret itself, or the variable holding it (read per request). */
export type SecretSource = { readonly secret: Secret; readonly secretEnv?: undefined } | {
  readonly secretEnv: string;
  readonly secret?: undefined;
};

type CommonOptions = SecretSource & {
  /** The cookie holding the token. */
  readonly cookie: string;
  /** Default Lax. */
  readonly sameSite?: SameSite;
  /** Looks the user's role up (in the database, say), so a role change applies at the next request. */
  readonly roleOf?: (
    user: { readonly userId: string; readonly claims: JsonObject },
    c: Context,
  ) => string | undefined | Promise<string | undefined>;
  /** The app's <PREFIX>_ENV prefix, for the Secure rule. */
  readonly prefix?: string;
  /** Clock in seconds, for tests. */
  readonly now?: () => number;
};

/** Options of `tokenSession()`: a signed-in token of fixed lifetime in a cookie. */
export type TokenSessionOptions = CommonOptions & {
  /** How long a signed-in token lives, in whole seconds. */
  readonly lifetimeSeconds: number;
};

/** Options of `slidingSession()`: a sliding token in a cookie (docs/auth.md#sliding-tokens). */
export type SlidingSessionOptions = CommonOptions & SlidingParams & {
  /** Consulted at each re-issue: a revoked user's token stops sliding (Auth.isRevoked fits). */
  readonly revokedCheck?: RevokedCheck;
};

/** A session middleware, with the two writes of its cookie. */
export type SessionMiddleware = MiddlewareHandler<AuthEnv> & {
  /** A sliding session's settings, for a live app behind it (`live.withAuth(session)`). */
  readonly sliding?: Omit<SlidingOptions, "prefix">;
  /** The cookie holding the token and its SameSite, so a live app behind it can clear it at an eviction. */
  readonly tokenCookie: { readonly cookie: string; readonly sameSite: SameSite };
  /**
   * Signs a token whose `sub` is `userId` (with extra claims) and sets the cookie on the response
   * the handler builds through `c`. A claim that cannot be signed throws SvcError.
   */
  signIn(c: Context, userId: string | number, claims?: JsonObject): void;
  /** Expires the cookie on the response the handler builds through `c`. */
  signOut(c: Context): void;
};

/** Contexts a session middleware ran on, so a guard can tell "signed out" from "no middleware". */
const sessionRan = new WeakSet<object>();

/** Whether a session middleware ran on this request before the guard. */
export function sessionMiddlewareRan(c: Context): boolean {
  return sessionRan.has(c.req.raw);
}

/**
 * A fixed-lifetime session middleware (docs/auth.md#hono-middleware): the token lives
 * `lifetimeSeconds` from sign-in and never slides. It sets `c.var.auth` to the signed-in user or
 * undefined; `session.signIn(c, userId)` and `session.signOut(c)` write its cookie. For a session
 * that lasts while the user is active, `Server.slidingSession`.
 *
 * @throws {TypeError} for a bad option (no cookie or secret, a lifetime that is not whole seconds)
 *
 * @example
 * ```ts
 * import { Auth, type AuthEnv, Db, Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const db = Db.open("file:app.db");
 * const session = Server.tokenSession({ cookie: "auth", secretEnv: "SVC_AUTH_TOKEN_SECRET", lifetimeSeconds: 8 * 3600 });
 * const app = new Hono<AuthEnv>().use(session);
 * app.post("/login", async (c) => {
 *   const id = await Auth.login(db, await Server.formValue("email", c), await Server.formValue("password", c));
 *   if (!id.ok) return c.text("wrong email or password", 401);
 *   session.signIn(c, id.value);
 *   return c.redirect("/", 303);
 * });
 * app.post("/logout", (c) => {
 *   session.signOut(c);
 *   return c.redirect("/", 303);
 * });
 * ```
 */
export function tokenSession(options: TokenSessionOptions): SessionMiddleware {
  const common = checkCommon(options, "tokenSession");
  if (!Number.isSafeInteger(options.lifetimeSeconds) || options.lifetimeSeconds <= 0) {
    throw new TypeError("tokenSession: lifetimeSeconds must be a positive whole number");
  }
  const middleware: MiddlewareHandler<AuthEnv> = async (c, next) => {
    sessionRan.add(c.req.raw);
    const token = getCookie(options.cookie, c.req.raw);
    const verified = token === undefined ? undefined : verifyToken(secretOf(options), token, { now: common.now() });
    c.set("auth", verified?.ok ? await userOf(verified.value, c, options) : undefined);
    await next();
  };
  return Object.assign(middleware, {
    tokenCookie: { cookie: options.cookie, sameSite: common.sameSite },
    signIn(c: Context, userId: string | number, claims: JsonObject = {}) {
      const token = signToken(secretOf(options), { ...claims, sub: userId }, options.lifetimeSeconds, { now: common.now() });
      if (!token.ok) throw new SvcError(token.error.code, token.error.message);
      c.header("Set-Cookie", cookieLine(c, options, token.value, options.lifetimeSeconds), { append: true });
    },
    signOut: (c: Context) => c.header("Set-Cookie", cookieLine(c, options, "", 0), { append: true }),
  });
}

/**
 * Session middleware with sliding tokens: puts the signed-in user on `c.var.auth` (or undefined),
 * and each interaction re-issues the token with a later expiry, never past the absolute cap
 * (docs/auth.md#sliding-tokens). The secret is resolved here, when it is built: in production a
 * missing one throws, saying what to set (docs/auth.md#production-gate).
 *
 * @param options the cookie's name, the secret (`secret` or `secretEnv`), `windowSeconds` and
 *   `maxLifetimeSeconds`; optionally `sameSite`, `roleOf` and the `<PREFIX>_ENV` prefix
 * @returns the middleware, with `signIn(c, userId, claims)` and `signOut(c)`
 * @throws {SvcError} `secret_missing` in production without the secret, `secret_too_short` for a short one
 * @throws {TypeError} for a bad option
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { type AuthEnv, Server } from "svc-live";
 *
 * const session = Server.slidingSession({ cookie: "sid", secretEnv: "SVC_AUTH_TOKEN_SECRET", windowSeconds: 900, maxLifetimeSeconds: 43_200 });
 * const app = new Hono<AuthEnv>().use(session);
 * app.post("/login", (c) => {
 *   session.signIn(c, "42", { name: "Ada" });
 *   return c.redirect("/", 303);
 * });
 * app.get("/me", Server.requireUser(), (c) => c.json({ id: c.var.auth.userId }));
 * ```
 */
export function slidingSession(options: SlidingSessionOptions): SessionMiddleware {
  const common = checkCommon(options, "slidingSession");
  const settings = {
    cookie: options.cookie,
    secret: options.secret,
    secretEnv: options.secretEnv,
    sameSite: common.sameSite,
    revokedCheck: options.revokedCheck,
    now: common.now,
  };
  const sliding = authSliding({ ...settings, prefix: options.prefix });
  const middleware: MiddlewareHandler<AuthEnv> = async (c, next) => {
    sessionRan.add(c.req.raw);
    // The sliding middleware sets svcAuth (the live app reads it too); auth is the user it names.
    const both = c as unknown as Context<AuthEnv & SlidingEnv>;
    await sliding(both as unknown as Context<SlidingEnv>, async () => {
      const claims = both.get("svcAuth");
      c.set("auth", claims === undefined ? undefined : await userOf(claims, c, options));
      await next();
    });
  };
  return Object.assign(middleware, {
    sliding: settings,
    tokenCookie: { cookie: options.cookie, sameSite: common.sameSite },
    signIn(c: Context, userId: string | number, claims: JsonObject = {}) {
      const params = { windowSeconds: options.windowSeconds, maxLifetimeSeconds: options.maxLifetimeSeconds };
      const token = signSlidingToken(secretOf(options), { ...claims, sub: userId }, params, { now: common.now() });
      if (!token.ok) throw new SvcError(token.error.code, token.error.message);
      setSlidingCookie(c, token.value);
    },
    signOut: (c: Context) => c.header("Set-Cookie", cookieLine(c, { ...options, sameSite: common.sameSite }, "", 0), { append: true }),
  });
}

function checkCommon(options: CommonOptions, who: string): { readonly sameSite: SameSite; readonly now: () => number } {
  if (!options || typeof options.cookie !== "string" || options.cookie === "") throw new TypeError(`${who} needs a cookie name`);
  if (options.secret === undefined && typeof options.secretEnv !== "string") throw new TypeError(`${who} needs a secret or a secretEnv`);
  // A missing secret fails here in production, at start, rather than at the first sign-in (docs/auth.md#production-gate).
  requireSecretAtStart(`Server.${who}`, options.secret ?? options.secretEnv!, options.prefix);
  const sameSite = options.sameSite ?? "Lax";
  if (!["Strict", "Lax", "None"].includes(sameSite)) throw new TypeError(`${who}: sameSite must be Strict, Lax or None`);
  return { sameSite, now: options.now ?? nowSeconds };
}

/** The user a verified token names, or undefined when its `sub` is not a user id. */
async function userOf(claims: JsonObject, c: Context, options: CommonOptions): Promise<AuthUser | undefined> {
  const sub = claims.sub;
  const userId = typeof sub === "string" && sub !== ""
    ? sub
    : typeof sub === "number" && Number.isSafeInteger(sub)
    ? String(sub)
    : undefined;
  if (userId === undefined) return undefined;
  const role = options.roleOf !== undefined
    ? await options.roleOf({ userId, claims }, c)
    : typeof claims.role === "string"
    ? claims.role
    : undefined;
  return { userId, role, claims };
}

function cookieLine(c: Context, options: CommonOptions, token: string, maxAge: number): string {
  const line = `${options.cookie}=${encodeCookieValue(token)}; Path=/; HttpOnly; SameSite=${options.sameSite ?? "Lax"}; Max-Age=${maxAge}`;
  return applySecureRule(line, secureContextOf(c.req.raw, options.prefix));
}
