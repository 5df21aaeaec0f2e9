/**
 * A live page in a Hono app of yours: a TSX view, mounted with `app.route`, behind Hono's own
 * middleware and the session middleware, beside ordinary routes. The README quotes this file
 * ("Use it in your Hono app"); tests/examples/hono-app.test.ts and tests/e2e/hono-app.test.ts run it.
 */
import { Hono } from "hono";
import { logger } from "hono/logger";
import { secureHeaders } from "hono/secure-headers";
import { type AuthEnv, type JsonValue, Live, type Secret, Server } from "svc-live";

type Todos = { readonly draft: string; readonly items: readonly { id: number; text: string }[]; readonly next: number };

function TodoPage({ model, user }: { model: Todos; user: string }) {
  return (
    <main>
      <h1>{user}'s to-dos</h1>
      <form onSubmit="Add">
        <input name="draft" value={model.draft} onInput="Draft" autocomplete="off" />
        <button type="submit">Add</button>
      </form>
      <ul>
        {model.items.map((item) => (
          <li key={item.id}>
            {item.text} <button onClick={["Remove", item.id]} hover={{ color: "crimson" }}>✕</button>
          </li>
        ))}
      </ul>
    </main>
  );
}

function update(model: Todos, msg: string, args: readonly JsonValue[]): Todos {
  switch (msg) {
    case "Draft":
      return { ...model, draft: String(args[0] ?? "") };
    case "Add":
      return model.draft.trim() === "" ? model : { draft: "", items: [...model.items, { id: model.next, text: model.draft.trim() }], next: model.next + 1 };
    case "Remove":
      return { ...model, items: model.items.filter((item) => item.id !== args[0]) };
    default:
      return model;
  }
}

export function createApp(secret: Secret) {
  const session = Server.slidingSession({ cookie: "sid", secret, windowSeconds: 900, maxLifetimeSeconds: 43_200 });
  const todos = Live.app<Todos & { user: string }>(
    {
      // The session middleware in front verified the cookie; init sees its claims.
      init: ({ auth }) => ({ draft: "", items: [], next: 1, user: String(auth?.name ?? "someone") }),
      update: (model, msg, args) => ({ ...update(model, msg, args), user: model.user }),
      view: (model) => <TodoPage model={model} user={model.user} />,
    },
    { name: "todos", title: "To-dos" },
  );

  const app = new Hono<AuthEnv>();
  app.use(logger(), secureHeaders(), session);
  app.get("/", (c) => c.html(`<form method="post" action="/login"><input name="name"><button>Sign in</button></form>`));
  app.post("/login", async (c) => {
    const name = (await Server.formValue("name", c)).trim() || "guest";
    session.signIn(c, crypto.randomUUID(), { name });
    return c.redirect("/todos", 303);
  });
  app.get("/me", Server.requireUser(), (c) => c.json({ id: c.var.auth.userId, name: c.var.auth.claims.name ?? null }));
  app.use("/todos/*", Server.requireUser({ redirectTo: "/" }));
  app.route("/todos", todos);
  return { app, todos };
}
