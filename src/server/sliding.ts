/**
 * The sliding-session middleware and Auth.setSlidingCookie (docs/auth.md#live-sessions-and-the-gate builders and
 * helpers, docs/auth.md#live-sessions-and-the-gate: Sliding token).
 *
 * On every request a valid sliding token's claims are verified and made available to handlers
 * (c.get("svcAuth")). On an interaction (an event POST or a page GET: never an SSE request, whose
 * headers are written once at connect) the token is re-issued with exp = min(now + w, aexp),
 * unless the revokedCheck hook says the subject is revoked (not slid) or fails (fail closed: not
 * slid, the token lives to its current exp). The hook is consulted only at re-issue time. With no
 * hook, revocation latency equals maxLifetimeSeconds.
 */
import type { Context, MiddlewareHandler } from "hono";
import { Secret } from "../auth/secret.ts";
import { requireSecretAtStart } from "./production.ts";
import { reissueSlidingToken, slidingTimes, verifySlidingToken } from "../auth/sliding.ts";
import { issuedAtOf, nowSeconds } from "../auth/claims.ts";
import { isJsonObject, type JsonObject } from "../json.ts";
import { decodeText } from "../runtime/base64url.ts";
import { log } from "../log.ts";
import type { Result } from "../result.ts";
import { getCookie, setCookieLine, withCookie } from "./cookies.ts";
import { replaceResponse } from "./hono-response.ts";
import { applySecureRule, secureContextOf } from "./secure.ts";

/** A cookie's SameSite attribute. */
export type SameSite = "Strict" | "Lax" | "None";
/**
 * Whether `sub` (whose token was issued at `iat`, in seconds, to the millisecond when the token
 * carries iat_ms) is revoked; Auth.isRevoked fits.
 */
export type RevokedCheck = (sub: string, iat: number) => boolean | Result<boolean> | Promise<boolean | Result<boolean>>;

/** Options of the sliding-token middleware (`withAuthSliding`). */
export type SlidingOptions = {
  /** Cookie name. */
  readonly cookie: string;
  /**
   * Name of the environment variable holding the HMAC secret (never the secret itself), read at
   * each request. Give this or `secret`.
   */
  readonly secretEnv?: string;
  /** The HMAC secret itself, for an app that holds it already (as `Server.slidingSession` passes it). */
  readonly secret?: Secret | undefined;
  /** The cookie's SameSite attribute: "Lax" for most apps, "Strict" for one never linked to from elsewhere. */
  readonly sameSite: SameSite;
  /** Consulted at each re-issue: a revoked user's token stops sliding (`Auth.isRevoked` fits). */
  readonly revokedCheck?: RevokedCheck | undefined;
  /** The app's <PREFIX>_ENV prefix for the production gate. */
  readonly prefix?: string | undefined;
  /** Clock in seconds, for tests. */
  readonly now?: () => number;
  /** Which requests are interactions; by default POSTs and GETs that are not SSE. */
  readonly isInteraction?: (req: Request) => boolean;
};

/** The Hono variables the sliding middleware sets: the verified claims, or undefined. */
export type SlidingEnv = {
  /** `c.var.svcAuth`: the verified claims of the sliding token, or undefined when signed out. */
  Variables: { svcAuth: JsonObject | undefined };
};

/** The secret the options name: the one given, else the variable's value now. */
export function secretOf(options: { readonly secret?: Secret | undefined; readonly secretEnv?: string | undefined }): Secret {
  return options.secret ?? Secret.fromEnv(options.secretEnv ?? "");
}

const configOfRequest = new WeakMap<Request, SlidingOptions>();

/** Whether a sliding middleware for this cookie already ran on this request (in an app in front). */
export function slidingRanFor(req: Request, cookie: string): boolean {
  return configOfRequest.get(req)?.cookie === cookie;
}
let lastConfigured: SlidingOptions | undefined;

function isServerSentEvents(req: Request): boolean {
  const path = new URL(req.url).pathname;
  return (req.headers.get("Accept") ?? "").includes("text/event-stream") || path.endsWith("/_svc/subscribe") || path.endsWith("/_svc/sse");
}

export function defaultIsInteraction(req: Request): boolean {
  if (req.method === "POST") return true;
  return req.method === "GET" && !isServerSentEvents(req);
}

/** The attribute string every sliding cookie carries; Secure is added by the rule. */
function cookieAttributes(options: SlidingOptions, maxAge: number): string {
  return `Path=/; HttpOnly; SameSite=${options.sameSite}; Max-Age=${Math.max(0, Math.floor(maxAge))}`;
}

/** The Set-Cookie line of a sliding token, Secure by the rule. */
export function slidingCookieLine(req: Request, options: SlidingOptions, token: string, now: number): string {
  const exp = payloadOf(token)?.exp;
  const maxAge = typeof exp === "number" ? exp - now : 0;
  return applySecureRule(setCookieLine(options.cookie, token, cookieAttributes(options, maxAge)), secureContextOf(req, options.prefix));
}

/** A token just signed: its text, its claims, and the time it was signed at. */
type Issued = { readonly token: string; readonly claims: JsonObject; readonly now: number };

function writeSlidingCookie(req: Request, options: SlidingOptions, issued: Issued, resp: Response): Response {
  const { token, claims, now } = issued;
  const exp = typeof claims.exp === "number" ? claims.exp : now;
  const withIt = withCookie(options.cookie, token, cookieAttributes(options, exp - now), resp);
  // Apply the Secure rule here too, so the cookie is right even outside the secureCookies middleware.
  const lines = withIt.headers.getSetCookie();
  const secure = secureContextOf(req, options.prefix);
  withIt.headers.delete("Set-Cookie");
  for (const line of lines) withIt.headers.append("Set-Cookie", applySecureRule(line, secure));
  return withIt;
}

/** The payload of a token this process just signed (already trusted; only read for exp). */
function payloadOf(token: string): JsonObject | undefined {
  const text = decodeText(token.split(".")[1] ?? "");
  try {
    const value: unknown = text === undefined ? undefined : JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the sliding cookie for a token the application just signed (the login handler must use
 * this, not a hand-rolled cookie): Path=/, HttpOnly, the builder's SameSite, Secure by the rule,
 * and Max-Age = the time to the token's exp (the sliding window for a fresh token).
 *
 * @example
 * ```ts
 * import { Auth, Db, Secret, Server, setSlidingCookie } from "svc-live";
 * import { Hono } from "hono";
 *
 * const db = Db.open("file:app.db");
 * const secret = Secret.fromEnv("SVC_AUTH_TOKEN_SECRET");
 * const app = new Hono();
 * app.use(Server.withAuthSliding({ cookie: "sid", secretEnv: "SVC_AUTH_TOKEN_SECRET", sameSite: "Lax" }));
 * app.post("/login", async (c) => {
 *   const id = await Auth.login(db, await Server.formValue("email", c), await Server.formValue("password", c));
 *   if (!id.ok) return c.text("wrong email or password", 401);
 *   const token = Auth.signSlidingToken(secret, { sub: id.value }, { windowSeconds: 900, maxLifetimeSeconds: 43_200 });
 *   if (!token.ok) return c.text("cannot sign in now", 500);
 *   setSlidingCookie(c, token.value);
 *   return c.redirect("/", 303);
 * });
 * ```
 */
export function setSlidingCookie(c: Context, token: string): void;
/** The same for a plain handler: the response, with the cookie the request's sliding middleware would write. */
export function setSlidingCookie(req: Request, token: string, resp: Response): Response;
export function setSlidingCookie(reqOrContext: Request | Context, token: string, resp?: Response): Response | void {
  const req = reqOrContext instanceof Request ? reqOrContext : reqOrContext.req.raw;
  const options = configOfRequest.get(req) ?? lastConfigured;
  if (options === undefined) {
    throw new TypeError("setSlidingCookie: no withAuthSliding middleware is configured, so the cookie's name and attributes are unknown");
  }
  const now = (options.now ?? nowSeconds)();
  if (reqOrContext instanceof Request) return writeSlidingCookie(req, options, { token, claims: payloadOf(token) ?? {}, now }, resp!);
  // A Hono handler: the line goes with the response the handler builds through `c`.
  reqOrContext.header("Set-Cookie", slidingCookieLine(req, options, token, now), { append: true });
}

async function askRevoked(check: RevokedCheck, sub: string, iat: number): Promise<"revoked" | "allowed" | "failed"> {
  try {
    const answer = await check(sub, iat);
    const verdict = typeof answer === "boolean" ? answer : answer.ok ? answer.value : undefined;
    if (verdict === undefined) {
      log.error(
        `auth.sliding revokedCheck returned an error (${typeof answer === "object" && !answer.ok ? answer.error.code : "?"}); not sliding`,
      );
      return "failed";
    }
    return verdict ? "revoked" : "allowed";
  } catch (error) {
    log.error(`auth.sliding revokedCheck threw (${error instanceof Error ? error.name : typeof error}); not sliding`);
    return "failed";
  }
}

/**
 * The sliding-token middleware (docs/auth.md#sliding-tokens), at a lower level than
 * `Server.slidingSession`: it verifies the token in the cookie on each request, sets
 * `c.var.svcAuth` to its claims (or undefined), and on an interaction re-issues it for another
 * window, up to its absolute cap; a lapsed, capped or revoked token clears the cookie. The login
 * handler signs the first token and writes it with `setSlidingCookie`.
 *
 * @throws {TypeError} for options without a cookie, a secret or a SameSite
 *
 * @example
 * ```ts
 * import { type JsonObject, Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * type Env = { Variables: { svcAuth: JsonObject | undefined } };
 * const app = new Hono<Env>();
 * app.use(Server.withAuthSliding({ cookie: "sid", secretEnv: "SVC_AUTH_TOKEN_SECRET", sameSite: "Lax" }));
 * app.get("/", (c) => c.text(c.var.svcAuth === undefined ? "signed out" : `user ${String(c.var.svcAuth["sub"])}`));
 * ```
 */
export function authSliding(options: SlidingOptions): MiddlewareHandler<SlidingEnv> {
  if (!options || typeof options.cookie !== "string" || (typeof options.secretEnv !== "string" && !(options.secret instanceof Secret))) {
    throw new TypeError("withAuthSliding needs { cookie, secretEnv or secret, sameSite }");
  }
  if (!["Strict", "Lax", "None"].includes(options.sameSite)) throw new TypeError("withAuthSliding: sameSite must be Strict, Lax or None");
  requireSecretAtStart("withAuthSliding", options.secret ?? options.secretEnv!, options.prefix);
  lastConfigured = options;
  const clock = options.now ?? nowSeconds;
  const isInteraction = options.isInteraction ?? defaultIsInteraction;

  return async (c, next) => {
    const req = c.req.raw;
    configOfRequest.set(req, options);
    const token = getCookie(options.cookie, req);
    // The secret is read from the variable named by secretEnv at request time (docs/auth.md#secrets).
    const secret = secretOf(options);
    const now = clock();
    const verified = token === undefined ? undefined : verifySlidingToken(secret, token, { now });
    c.set("svcAuth", verified?.ok ? verified.value : undefined);
    await next();
    if (!verified?.ok || !isInteraction(req)) return;
    // A handler that set this cookie itself (a sign-out, a fresh login) has the last word.
    if (c.res.headers.getSetCookie().some((line) => line.startsWith(`${options.cookie}=`))) return;

    const times = slidingTimes(verified.value);
    if (!times.ok || now >= times.value.aexp) return;
    if (options.revokedCheck) {
      const sub = verified.value.sub;
      const verdict = await askRevoked(
        options.revokedCheck,
        typeof sub === "number" ? String(sub) : String(sub ?? ""),
        issuedAtOf(verified.value) ?? times.value.iat,
      );
      if (verdict !== "allowed") return;
    }
    const next_ = reissueSlidingToken(secret, verified.value, { now });
    if (!next_.ok) return;
    const claims = payloadOf(next_.value) ?? verified.value;
    replaceResponse(c, writeSlidingCookie(req, options, { token: next_.value, claims, now }, c.res));
  };
}
