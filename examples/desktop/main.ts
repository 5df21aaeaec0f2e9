/**
 * Runs the notes app (app.ts) as a desktop application: `npm run desktop`, or under Bun
 * `bun examples/desktop/main.ts`, or under Deno `deno run -A examples/desktop/main.ts`. The same as
 * `svc-live desktop examples/desktop/app.ts`.
 */
import { Live } from "svc-live";
import app from "./app.ts";

await Live.desktop(app);
