/** The drain test's server on Deno, through Deno.serve (tests/server/graceful.test.ts). */
import { drainTestApp } from "./app.ts";

type DenoServe = {
  serve(
    options: { port: number; hostname: string; onListen: (addr: { port: number }) => void },
    handler: (req: Request) => Promise<Response>,
  ): object;
};
const { drain, fetch } = drainTestApp();
drain.attach(
  (globalThis as unknown as { Deno: DenoServe }).Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: ({ port }) => console.log(`listening ${port}`) },
    fetch,
  ),
);
