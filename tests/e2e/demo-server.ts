// The demo app (examples/demo) served on 127.0.0.1 for the real-browser tests.
import { sleep } from "./support.ts";

export type Served = Awaited<ReturnType<typeof serveDemo>>;

/** The demo on 127.0.0.1 (random port), SQLite in memory, bcrypt cost 4, event replies delayed 0-300 ms. */
export async function serveDemo() {
  const [{ serve }, { Auth, Db }, { createDemo }, { randomSecret }] = await Promise.all([
    import("@hono/node-server"),
    import("../../src/mod.ts"),
    import("../../examples/demo/app.ts"),
    import("../../examples/demo/config.ts"),
  ]);
  process.env["SVC_AUTH_TOKEN_SECRET"] ??= randomSecret();
  const db = Db.open(":memory:");
  const demo = createDemo({ db, bcryptCost: 4, rateLimit: { limit: 1000, windowMs: 60_000 } });
  const server = serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req: Request) => {
      const resp = await demo.fetch(req);
      if (req.method === "POST" && new URL(req.url).pathname === "/_svc/event") await sleep(Math.random() * 300);
      return resp;
    },
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    db,
    store: demo.store,
    async close() {
      server.close();
      demo.close();
      await db.close();
      Auth.closePasswordWorkers();
    },
  };
}
