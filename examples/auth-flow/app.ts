/**
 * The spec's reference HTTP flow (docs/auth.md#reference-flow), as application code:
 *
 *   POST /register  form email, password -> 400 text if either is empty, else JSON { id }
 *   POST /login     form email, password -> 400 if either is empty, else a 24 h token with
 *                   sub = user id in an HttpOnly cookie, text body
 *   GET  /me        session cookie       -> 401 without one or if it fails verification,
 *                   else JSON { sub }
 *
 * Login and register are rate limited per client address and email (429 with Retry-After). A
 * failed Auth call is thrown as Hono's HTTPException with the status its error code means.
 */
import { type Context, Hono } from "hono";
import { rateLimiter } from "hono-rate-limiter";
import { Auth, type AuthEnv, type Db, DEFAULT_COST, Secret, Server, type TrustProxy } from "../../src/mod.ts";

export const SESSION_COOKIE = "session";

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

/** The form's email and password; a 400 when either is empty. */
async function credentials(c: Context): Promise<[string, string]> {
  const [email, password] = [await Server.formValue("email", c), await Server.formValue("password", c)];
  if (email === "" || password === "") throw Server.httpException(400, "email and password are required");
  return [email, password];
}

export function createAuthFlowApp(options: AuthFlowOptions): Hono<AuthEnv> {
  const { db } = options;
  // A 24 h token with sub = the user id, in an HttpOnly cookie; c.var.auth is its user.
  const session = Server.tokenSession({ cookie: SESSION_COOKIE, secret: options.secret, lifetimeSeconds: 24 * 60 * 60 });
  const app = new Hono<AuthEnv>().use(Server.secureCookies(), session);

  const clientAddress = Server.clientAddressResolver({ trustProxy: options.trustProxy });
  const limit = rateLimiter({
    windowMs: options.rateLimit?.windowMs ?? 60_000,
    limit: options.rateLimit?.limit ?? 10,
    standardHeaders: "draft-7",
    keyGenerator: async (c) => `${clientAddress(c) ?? "unknown"}|${(await Server.formValue("email", c)).trim().toLowerCase()}`,
    // c.text keeps the Retry-After and RateLimit headers the limiter prepared on the context.
    handler: (c) => c.text("too many attempts; try again later", 429),
  });

  app.post("/register", limit, async (c) => {
    const [email, password] = await credentials(c);
    const id = Server.orThrow(await Auth.register(db, email, password, options.cost === undefined ? undefined : { cost: options.cost }));
    return c.json({ id });
  });

  app.post("/login", limit, async (c) => {
    // The cost of register, so that an unknown email takes as long as a known one from the first login.
    const [email, password] = await credentials(c);
    session.signIn(c, Server.orThrow(await Auth.login(db, email, password, { cost: options.cost ?? DEFAULT_COST })));
    return c.text("signed in");
  });

  app.get("/me", Server.requireUser(), (c) => c.json({ sub: c.var.auth.claims.sub }));

  return app;
}
