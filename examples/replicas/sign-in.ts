/**
 * A complete sign-in app for several replicas (docs/deployment.md#a-sign-in-app-on-replicas): users
 * in Postgres under the app's own schema, a sliding session cookie, a live page bound to the
 * signed-in user, revocation pushed to every replica, sessions shared through Postgres, a
 * readiness probe and the graceful drain. sign-in-main.ts serves it; run as many copies as you
 * like behind any load balancer. tests/examples/sign-in-replicas.test.ts runs two of them.
 */
import { Hono } from "hono";
import { Auth, type AuthEnv, type Db, Live, type Secret, Server, Ui } from "svc-live";

type Model = { user: string; clicks: number; note: string };

export function createSignInApp(db: Db, secret: Secret) {
  // The signed-in user's cookie: a sliding token; a revoked user's token stops sliding.
  const session = Server.slidingSession({
    cookie: "app_session",
    secret,
    windowSeconds: 30 * 60,
    maxLifetimeSeconds: 12 * 60 * 60,
    revokedCheck: (sub, iat) => Auth.isRevoked(db, sub, iat),
  });
  const live = Live.app<Model>(
    {
      init: ({ auth }) => ({ user: String(auth?.email ?? ""), clicks: 0, note: "" }),
      update: (model, msg, args) =>
        msg === "Click" ? { ...model, clicks: model.clicks + 1 } : msg === "Note" ? { ...model, note: String(args[0] ?? "") } : model,
      view: (model) =>
        Ui.h(
          "main",
          {},
          Ui.h("p", { id: "who" }, model.user),
          Ui.h("button", { id: "click", onClick: "Click" }, `clicked ${model.clicks}`),
          Ui.h("input", { id: "note", name: "note", value: model.note, onInput: "Note" }),
          Ui.h("form", { method: "post", action: "/logout" }, Ui.h("button", {}, "Sign out")),
        ),
    },
    { title: "Signed in", secret },
  )
    // Binds each live session to the token's user: the sign-in is what binds a user, and a page
    // load as another user starts a new live session (docs/auth.md#hono-middleware).
    .withAuth(session)
    // Revoke and disable through Auth reach every replica at once (docs/deployment.md#several-replicas).
    .withRevocation(db)
    // Sessions live in Postgres: any replica serves any request.
    .withSharedSessions(db);
  const graceful = Server.graceful({ live, db });

  const app = new Hono<AuthEnv>();
  app.get("/healthz/ready", () => graceful.readiness());
  app.use(session);
  app.get("/", (c) =>
    c.html(
      `<form method="post" action="/login"><input name="email" type="email"><input name="password" type="password">` +
        `<button>Sign in</button></form>`,
    ));
  app.post("/login", async (c) => {
    const email = await Server.formValue("email", c);
    const user = await Auth.login(db, email, await Server.formValue("password", c));
    if (!user.ok) return c.text("wrong email or password", 401);
    session.signIn(c, user.value, { email });
    return c.redirect("/app", 303);
  });
  app.post("/logout", (c) => {
    session.signOut(c);
    return c.redirect("/", 303);
  });
  app.use("/app/*", Server.requireUser({ redirectTo: "/" }));
  app.route("/app", live);
  return { app, live, graceful, fetch: graceful.fetch(app.fetch) };
}
