/**
 * Sign-up and login: plain form POST routes beside the live app, because they must set the
 * sliding cookie and a live event reply cannot set cookies (docs/auth.md#cookies:
 * the login handler writes the first cookie with setSlidingCookie). Each answers 303 to "/":
 *
 *   POST /register  email, password -> a new user (the first one ever is made admin), signed in
 *   POST /login     email, password -> signed in
 *
 * A failure redirects to "/" with a one-time notice (flash.ts: the form, the error code and the
 * email to fill in again, in a short-lived cookie, never in the URL); the signed-out page says why.
 * Both routes are rate limited per email and client address (the connection's address, or the
 * forwarded one only behind a proxy the `trustProxy` option names: docs/deployment.md).
 */
import { type Context, Hono } from "hono";
import { rateLimiter } from "hono-rate-limiter";
import { Auth, type Db, Secret, Server, setSlidingCookie, type SlidingOptions, type TrustProxy } from "../../src/mod.ts";
import { ADMIN_ROLE, type DemoStore } from "./store.ts";
import { withFlash } from "./flash.ts";

/** docs/auth.md#limits suggests a window of at least 900 s; the absolute cap is 12 h. */
export const SLIDING = { windowSeconds: 900, maxLifetimeSeconds: 12 * 60 * 60 } as const;

export type AuthRouteOptions = {
  readonly db: Db;
  readonly store: DemoStore;
  readonly sliding: Omit<SlidingOptions, "prefix">;
  readonly bcryptCost: number;
  readonly rateLimit: { readonly limit: number; readonly windowMs: number };
  /** Which proxies may name the client in X-Forwarded-For (off: the connection's own address). */
  readonly trustProxy?: TrustProxy;
  /** The live app's freshSession: drops the live session cookie so the next page starts anew. */
  readonly freshSession: (resp: Response) => Response;
};

const form = async (c: Context, name: string) => (await Server.formValue(name, c.req.raw)).trim();

export function authRoutes(options: AuthRouteOptions): Hono {
  const { db, store } = options;
  const routes = new Hono();
  // The sliding middleware runs on these routes too, so setSlidingCookie knows this app's cookie.
  const sliding = Server.withAuthSliding(options.sliding);
  const clientAddress = Server.clientAddressResolver({ trustProxy: options.trustProxy });
  const limit = rateLimiter({
    windowMs: options.rateLimit.windowMs,
    limit: options.rateLimit.limit,
    keyGenerator: async (c) => `${clientAddress(c) ?? "unknown"}|${(await form(c, "email")).toLowerCase()}`,
    handler: async (c) => failed(options, c.req.path === "/register" ? "signup" : "login", "rate_limited", await form(c, "email")),
  });
  for (const path of ["/login", "/register"]) routes.use(path, sliding, limit);

  routes.post("/register", async (c) => {
    const [email, password] = [await form(c, "email"), await Server.formValue("password", c.req.raw)];
    if (email === "" || password === "") return failed(options, "signup", "missing_fields", email);
    const strength = Auth.passwordStrength(password);
    if (strength.ok && strength.value === "weak") return failed(options, "signup", "weak_password", email);
    const id = await Auth.register(db, email, password, { cost: options.bcryptCost });
    if (!id.ok) return failed(options, "signup", id.error.code, email);
    // The demo's admin rule: the first user ever registered is an admin.
    if (await store.isFirstUser(id.value).catch(() => false)) await Auth.setRole(db, id.value, ADMIN_ROLE);
    return signedIn(options, c.req.raw, id.value);
  });

  routes.post("/login", async (c) => {
    const [email, password] = [await form(c, "email"), await Server.formValue("password", c.req.raw)];
    if (email === "" || password === "") return failed(options, "login", "missing_fields", email);
    // The cost it registers with, so an unknown email's dummy hash takes as long as a real one
    // from the first request (docs/security.md#login-timing).
    const id = await Auth.login(db, email, password, { cost: options.bcryptCost });
    if (!id.ok) return failed(options, "login", id.error.code, email);
    return signedIn(options, c.req.raw, id.value);
  });

  return routes;
}

function signedIn(options: AuthRouteOptions, req: Request, userId: number): Response {
  // The secret is read from the environment when it is needed (docs/auth.md#secrets).
  const secret = options.sliding.secret ?? Secret.fromEnv(options.sliding.secretEnv ?? "");
  const token = Auth.signSlidingToken(secret, { sub: String(userId) }, SLIDING);
  if (!token.ok) return Server.text("cannot sign a session token", 500);
  return setSlidingCookie(req, token.value, freshPage(options, "/"));
}

function failed(options: AuthRouteOptions, which: "login" | "signup", code: string, email: string): Response {
  return withFlash(freshPage(options, "/"), { form: which, error: code, email });
}

/**
 * A 303 to `location` that also drops the live session cookie, so the page that follows starts a
 * new live session whose init sees the new sign-in state (or the failure's notice). The old
 * session's page would otherwise keep its signed-out model; it ends by idle expiry.
 */
function freshPage(options: AuthRouteOptions, location: string): Response {
  return options.freshSession(new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } }));
}
