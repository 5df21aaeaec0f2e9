/**
 * The demo as a default-exported `{ fetch }`, for any Web-standard host that reads a module's
 * default export (for example `bun examples/demo/fetch.ts` or `deno serve -A examples/demo/fetch.ts`).
 * The host provides the environment (a .env file is the host's business here); the variables are
 * those of config.ts.
 */
import { startDemo } from "./start.ts";

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const { demo, notes } = startDemo((name) => env[name], (name, value) => (env[name] = value), undefined);
for (const note of notes) console.log(`svc demo: ${note}`);

export default { fetch: demo.fetch };
/** The live app itself, for tools such as `svc-live doctor examples/demo/fetch.ts`. */
export const live = demo.live;
