/**
 * A live page in a Hono app of yours: a TSX view, mounted with `app.route`, behind Hono's own
 * middleware and the session middleware, beside ordinary routes. The README quotes this file
 * ("Use it in your Hono app"); tests/examples/hono-app.test.ts and tests/e2e/hono-app.test.ts run it.
 */
import { Hono } from "hono";
import { logger } from "hono/logger";
import { secureHeaders } from "hono/secure-headers";
import { type AuthEnv, Each, Live, type Secret, Server, Ui } from "svc-live";

type Todo = { id: number; text: string };
type Todos = { user: string; draft: string; items: Todo[]; next: number };
// What update receives. TypeScript gives TSX one set of prop types for every app, so a TSX handler
// takes a message written with ui.msg, which checks it against this map; a raw ["Remvoe", item.id]
// does not compile (docs/live-apps.md#typed-messages).
type TodoMessages = { Draft: [value: string]; Add: [fields: { readonly [name: string]: string }]; Remove: [id: number] };
const ui = Ui.typed<TodoMessages>();

const TodoItem = (item: Todo) => (
  <li>
    {item.text} <button onClick={ui.msg("Remove", item.id)} hover={{ color: "crimson" }}>✕</button>
  </li>
);

const TodoPage = ({ model }: { model: Todos }) => (
  <main>
    <h1>{model.user}'s to-dos</h1>
    <form onSubmit={ui.msg("Add")}>
      <input name="draft" value={model.draft} onInput={ui.msg("Draft")} autocomplete="off" />
      <button type="submit">Add</button>
    </form>
    <ul>
      <Each items={model.items} by={(item) => item.id} row={TodoItem} />
    </ul>
  </main>
);

export function createApp(secret: Secret) {
  const session = Server.slidingSession({ cookie: "sid", secret, windowSeconds: 900, maxLifetimeSeconds: 43_200 });
  const todos = Live.app<Todos, TodoMessages>(
    {
      // The session middleware in front verified the cookie: init sees its claims.
      init: ({ auth }) => ({ user: String(auth?.name ?? "someone"), draft: "", items: [], next: 1 }),
      update: {
        Draft: (m, value) => ({ ...m, draft: value }),
        Add: (m) =>
          m.draft.trim() === "" ? m : { ...m, draft: "", items: [...m.items, { id: m.next, text: m.draft.trim() }], next: m.next + 1 },
        Remove: (m, id) => ({ ...m, items: m.items.filter((item) => item.id !== id) }),
      },
      view: (model) => <TodoPage model={model} />,
    },
    { name: "todos", title: "To-dos" },
  ).withAuthSliding(session); // a sign-in as someone else starts a new live session

  const app = new Hono<AuthEnv>();
  app.use(logger(), secureHeaders(), session);
  app.get("/", (c) => c.html(`<form method="post" action="/login"><input name="name"><button>Sign in</button></form>`));
  app.post("/login", async (c) => {
    session.signIn(c, crypto.randomUUID(), { name: (await Server.formValue("name", c)).trim() || "guest" });
    return c.redirect("/todos", 303);
  });
  app.get("/me", Server.requireUser(), (c) => c.json({ id: c.var.auth.userId, name: c.var.auth.claims.name ?? null }));
  app.use("/todos/*", Server.requireUser({ redirectTo: "/" })); // 401, or a redirect for a page
  app.route("/todos", todos); // or app.mount("/todos", todos.fetch)
  return { app, todos };
}
