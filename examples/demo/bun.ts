/** The demo on Bun: `bun examples/demo/bun.ts`. (Bun itself also loads .env; variables already set win.) */
import { banner, startDemo } from "./start.ts";

/** The part of Bun's API used here (the project type-checks against Node's types). */
type BunApi = {
  env: Record<string, string | undefined>;
  file(path: string): { exists(): Promise<boolean>; text(): Promise<string> };
  serve(
    options: { port: number; fetch: (req: Request) => Response | Promise<Response> },
  ): { port: number; stop(): unknown; pendingRequests: number };
};
const Bun = (globalThis as unknown as { Bun: BunApi }).Bun;

const file = Bun.file(".env");
const dotenv = (await file.exists()) ? await file.text() : undefined;
const { demo, config, notes } = startDemo((name) => Bun.env[name], (name, value) => (Bun.env[name] = value), dotenv);

// A replica being stopped drains without cutting a request, hands its sessions over and exits
// (docs/deployment.md#draining).
let server: { port: number };
try {
  server = demo.graceful.attach(Bun.serve({ port: config.port, fetch: demo.fetch }));
} catch (error) {
  if (!/EADDRINUSE|in use/i.test(`${(error as { code?: string }).code} ${(error as Error).message}`)) throw error;
  console.error(`port ${config.port} is already in use; set PORT to another port (PORT=8788 bun examples/demo/bun.ts)`);
  process.exit(1);
}
console.log(banner(`http://localhost:${server.port}`, notes));
