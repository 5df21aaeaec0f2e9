/** The demo on Deno: `deno run -A examples/demo/deno.ts`. */
import { banner, startDemo } from "./start.ts";

/** The part of Deno's API used here (the project type-checks against Node's types). */
type DenoApi = {
  env: { get(name: string): string | undefined; set(name: string, value: string): void };
  errors: { NotFound: new (...args: never[]) => Error };
  readTextFileSync(path: string): string;
  serve(
    options: { port: number; onListen: (addr: { port: number }) => void },
    handler: (req: Request) => Response | Promise<Response>,
  ): object;
  exit(code: number): never;
};
const Deno = (globalThis as unknown as { Deno: DenoApi }).Deno;

let dotenv: string | undefined;
try {
  dotenv = Deno.readTextFileSync(".env");
} catch (error) {
  if (!(error instanceof Deno.errors.NotFound)) throw error;
}
const { demo, config, notes } = startDemo((name) => Deno.env.get(name), (name, value) => Deno.env.set(name, value), dotenv);

// A replica being stopped drains without cutting a request, hands its sessions over and exits
// (docs/deployment.md#draining).
try {
  demo.graceful.attach(
    Deno.serve({ port: config.port, onListen: ({ port }) => console.log(banner(`http://localhost:${port}`, notes)) }, demo.fetch),
  );
} catch (error) {
  if ((error as Error).name !== "AddrInUse") throw error;
  console.error(`port ${config.port} is already in use; set PORT to another port (PORT=8788 deno run -A examples/demo/deno.ts)`);
  Deno.exit(1);
}
