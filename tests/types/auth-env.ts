// Type tests for the session middleware's variables, checked by `tsc --noEmit` (npm run
// typecheck); never executed. Each @ts-expect-error fails the type-check if its line compiles.
import { Hono } from "hono";
import { type AuthEnv, type AuthUser, Server } from "../../src/server/mod.ts";
import { Secret } from "../../src/auth/mod.ts";

const session = Server.tokenSession({ cookie: "sid", secret: Secret.fromString("x".repeat(40)), lifetimeSeconds: 60 });
const app = new Hono<AuthEnv>().use(session);

// Behind a guard the user is there: its id, role and claims are typed.
app.get("/me", Server.requireUser(), (c) => {
  const user: AuthUser = c.var.auth;
  const id: string = c.var.auth.userId;
  const role: string | undefined = c.get("auth").role;
  return c.json({ id, role, sub: user.claims.sub ?? null });
});
app.get("/admin", Server.requireRole("admin"), (c) => c.text(c.var.auth.userId));
app.get("/either", Server.requireRole(["admin", "editor"], { redirectTo: "/login" }), (c) => c.text(c.var.auth.userId));

// Without a guard the user may be absent.
app.get("/open", (c) => {
  // @ts-expect-error c.var.auth is AuthUser | undefined before a guard
  const id: string = c.var.auth.userId;
  return c.text(c.var.auth?.userId ?? id);
});

// @ts-expect-error the variable is auth, not user
app.get("/typo", Server.requireUser(), (c) => c.text(c.var.user.userId));

// signIn takes a user id and JSON claims.
app.post("/login", (c) => {
  session.signIn(c, 42, { role: "admin" });
  // @ts-expect-error claims are JSON: no functions
  session.signIn(c, 42, { hook: () => 1 });
  // @ts-expect-error a user id is a string or a number
  session.signIn(c, { id: 42 });
  return c.text("ok");
});

// @ts-expect-error a session middleware needs a secret or the variable holding it
Server.slidingSession({ cookie: "sid", windowSeconds: 900, maxLifetimeSeconds: 3600 });
// @ts-expect-error not both
Server.tokenSession({ cookie: "sid", secret: Secret.fromString("x".repeat(40)), secretEnv: "S", lifetimeSeconds: 60 });
