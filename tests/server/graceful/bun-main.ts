/** The drain test's server on Bun, through Bun.serve (tests/server/graceful.test.ts). */
import { drainTestApp } from "./app.ts";

type BunServe = { serve(options: { fetch: (req: Request) => Promise<Response>; port: number; hostname: string }): { port: number } };
const { drain, fetch } = drainTestApp();
const server = (globalThis as unknown as { Bun: BunServe }).Bun.serve({ fetch, port: 0, hostname: "127.0.0.1" });
drain.attach(server);
console.log(`listening ${server.port}`);
