/**
 * The spec's reference HTTP flow (std-auth.md §Reference HTTP flow), as application code:
 *
 *   POST /register  form email, password -> 400 text if either is empty, else JSON { id }
 *   POST /login     form email, password -> 400 if either is empty, else a 24 h token with
 *                   sub = user id in an HttpOnly cookie, text body
 *   GET  /me        session cookie       -> 401 without one or if it fails verification,
 *                   else JSON { sub }
 *
 * Login and register are rate limited per client address and email (429 with Retry-After).
 */
import { Hono } from "hono";
import { rateLimiter } from "hono-rate-limiter";
import { Auth, type Db, Secret, Server, type TrustProxy } from "../../src/mod.ts";

export const SESSION_COOKIE = "session";
const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

export type AuthFlowOptions = {
  readonly db: Db;
  readonly secret: Secret;
  /** Attempts per client address and email per window; default 10 a minute. */
  readonly rateLimit?: { readonly limit: number; readonly windowMs: number };
  /** bcrypt cost for new users (tests use a low one); default 12. */
  readonly cost?: number;
  /**
   * The proxies in front of the app, whose X-Forwarded-For entries are believed (a hop count or
   * their addresses): see docs/deployment.md. Off by default: the rate limit keys on the
   * connection's own address, which a client cannot choose.
   */
  readonly trustProxy?: TrustProxy;
};

const statusFor: Record<string, 400 | 401 | 403 | 409 | 500> = {
  email_taken: 409,
  bad_email: 400,
  empty_password: 400,
  password_too_long: 400,
  expected_string: 400,
  bad_credentials: 401,
  user_disabled: 403,
};

export function createAuthFlowApp(options: AuthFlowOptions): Hono {
  const { db, secret } = options;
  const app = new Hono();
  app.use(Server.secureCookies());

  const clientAddress = Server.clientAddressResolver({ trustProxy: options.trustProxy });
  const limit = rateLimiter({
    windowMs: options.rateLimit?.windowMs ?? 60_000,
    limit: options.rateLimit?.limit ?? 10,
    standardHeaders: "draft-7",
    keyGenerator: async (c) => `${clientAddress(c) ?? "unknown"}|${(await Server.formValue("email", c.req.raw)).trim().toLowerCase()}`,
    // c.text keeps the Retry-After and RateLimit headers the limiter prepared on the context.
    handler: (c) => c.text("too many attempts; try again later", 429),
  });
  app.use("/register", limit);
  app.use("/login", limit);

  app.post("/register", async (c) => {
    const email = await Server.formValue("email", c.req.raw);
    const password = await Server.formValue("password", c.req.raw);
    if (email === "" || password === "") return Server.text("email and password are required", 400);
    const id = await Auth.register(db, email, password, options.cost === undefined ? undefined : { cost: options.cost });
    if (!id.ok) return Server.text(id.error.message, statusFor[id.error.code] ?? 500);
    return Server.json({ id: id.value });
  });

  app.post("/login", async (c) => {
    const email = await Server.formValue("email", c.req.raw);
    const password = await Server.formValue("password", c.req.raw);
    if (email === "" || password === "") return Server.text("email and password are required", 400);
    const id = await Auth.login(db, email, password);
    if (!id.ok) return Server.text(id.error.message, statusFor[id.error.code] ?? 500);
    const token = Auth.signToken(secret, { sub: id.value }, TOKEN_LIFETIME_SECONDS);
    if (!token.ok) return Server.text("cannot sign a session token", 500);
    return Server.withCookie(SESSION_COOKIE, token.value, `Path=/; HttpOnly; SameSite=Lax; Max-Age=${TOKEN_LIFETIME_SECONDS}`, Server.text("signed in"));
  });

  app.get("/me", (c) => {
    const token = Server.getCookie(SESSION_COOKIE, c.req.raw);
    if (token === undefined) return Server.text("not signed in", 401);
    const claims = Auth.verifyToken(secret, token);
    if (!claims.ok || typeof claims.value.sub !== "number") return Server.text("invalid session", 401);
    return Server.json({ sub: claims.value.sub });
  });

  return app;
}
