/**
 * Route guards for an app behind a session middleware (src/server/auth-session.ts):
 *
 *   app.get("/me", requireUser(), (c) => c.json({ id: c.var.auth.userId }));   // c.var.auth: AuthUser
 *   app.use("/admin/*", requireRole("admin", { redirectTo: "/login" }));
 *
 * A request without a signed-in user gets 401, one whose user lacks the role 403, both as Hono's
 * HTTPException, so `app.onError` sees them like any other HTTP error. With `redirectTo`, a page
 * request (a GET or HEAD that accepts HTML) without a user is sent there with a 303 instead.
 */
import type { Context, MiddlewareHandler } from "hono";
import { type AuthUser, sessionMiddlewareRan, type SignedInEnv } from "./auth-session.ts";
import { httpException } from "./http-errors.ts";

/** Options of `requireUser()` and `requireRole()`. */
export type GuardOptions = {
  /** Where a page request without a signed-in user is redirected (a path of this site). */
  readonly redirectTo?: string;
};

/**
 * Lets the request through when a user is signed in; `c.var.auth` is then typed as present.
 * Otherwise a page request is redirected to `redirectTo` (when given) and any other answers 401.
 * It must stand behind `Server.slidingSession` or `Server.tokenSession`.
 *
 * @example
 * ```ts
 * import { type AuthEnv, Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const session = Server.tokenSession({ cookie: "auth", secretEnv: "SVC_AUTH_TOKEN_SECRET", lifetimeSeconds: 86_400 });
 * const app = new Hono<AuthEnv>().use(session);
 * app.get("/account", Server.requireUser({ redirectTo: "/login" }), (c) => c.text(`Signed in as ${c.var.auth.userId}`));
 * ```
 */
export function requireUser(options: GuardOptions = {}): MiddlewareHandler<SignedInEnv> {
  checkRedirect(options.redirectTo, "requireUser");
  return async (c, next) => {
    const user = signedIn(c, options, "requireUser");
    if (user instanceof Response) return user;
    await next();
  };
}

/**
 * Lets the request through when the signed-in user has one of the roles (the token's `role`
 * claim, set with `Auth.setRole` before sign-in); a signed-in user without one gets 403.
 *
 * @throws {TypeError} for no role, or an empty one
 *
 * @example
 * ```ts
 * import { type AuthEnv, Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const session = Server.tokenSession({ cookie: "auth", secretEnv: "SVC_AUTH_TOKEN_SECRET", lifetimeSeconds: 86_400 });
 * const app = new Hono<AuthEnv>().use(session);
 * app.get("/admin", Server.requireRole(["admin", "owner"]), (c) => c.text("admin tools"));
 * ```
 */
export function requireRole(role: string | readonly string[], options: GuardOptions = {}): MiddlewareHandler<SignedInEnv> {
  const roles: readonly string[] = typeof role === "string" ? [role] : role;
  if (roles.length === 0 || roles.some((r) => typeof r !== "string" || r === "")) {
    throw new TypeError("requireRole needs one or more role names");
  }
  checkRedirect(options.redirectTo, "requireRole");
  return async (c, next) => {
    const user = signedIn(c, options, "requireRole");
    if (user instanceof Response) return user;
    if (user.role === undefined || !roles.includes(user.role)) throw httpException(403, "forbidden");
    await next();
  };
}

/** The signed-in user, a redirect for a page request, or a thrown 401. */
function signedIn(c: Context, options: GuardOptions, who: string): AuthUser | Response {
  // A guard with no session middleware before it would refuse everyone: a wiring mistake, said so.
  if (!sessionMiddlewareRan(c)) {
    throw new Error(`${who}: no session middleware (Server.slidingSession or Server.tokenSession) ran before this guard`);
  }
  const user = c.get("auth") as AuthUser | undefined;
  if (user !== undefined) return user;
  if (options.redirectTo !== undefined && wantsPage(c)) return c.redirect(options.redirectTo, 303);
  throw httpException(401, "not signed in");
}

function wantsPage(c: Context): boolean {
  return (c.req.method === "GET" || c.req.method === "HEAD") && (c.req.header("Accept") ?? "").includes("text/html");
}

/** Only a path of this site: an absolute URL here would be an open redirect. */
function checkRedirect(to: string | undefined, who: string): void {
  if (to !== undefined && (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//"))) {
    throw new TypeError(`${who}: redirectTo must be a path of this site, starting with one "/"`);
  }
}
