/** The demo on Bun: `bun examples/demo/bun.ts`. (Bun itself also loads .env; variables already set win.) */
import { banner, startDemo } from "./start.ts";

/** The part of Bun's API used here (the project type-checks against Node's types). */
type BunApi = {
  env: Record<string, string | undefined>;
  file(path: string): { exists(): Promise<boolean>; text(): Promise<string> };
  serve(options: { port: number; fetch: (req: Request) => Response | Promise<Response> }): { port: number };
};
const Bun = (globalThis as unknown as { Bun: BunApi }).Bun;

const file = Bun.file(".env");
const dotenv = (await file.exists()) ? await file.text() : undefined;
const { demo, config, notes } = startDemo((name) => Bun.env[name], (name, value) => (Bun.env[name] = value), dotenv);

const server = Bun.serve({ port: config.port, fetch: demo.fetch });
console.log(banner(`http://localhost:${server.port}`, notes));
// A replica being stopped hands its sessions over before it exits (docs/deployment.md#several-replicas).
process.once("SIGTERM", () => void demo.drain().finally(() => process.exit(0)));
