/** `npm start`: the demo on Node through @hono/node-server (tsx examples/demo/node.ts). */
import { existsSync, readFileSync } from "node:fs";
import { serve } from "@hono/node-server";
import { banner, startDemo } from "./start.ts";

const dotenv = existsSync(".env") ? readFileSync(".env", "utf8") : undefined;
const { demo, config, notes } = startDemo((name) => process.env[name], (name, value) => (process.env[name] = value), dotenv);

const server = serve({ fetch: demo.fetch, port: config.port }, (info) => console.log(banner(`http://localhost:${info.port}`, notes)));
server.on("error", (error) => {
  if ((error as { code?: string }).code !== "EADDRINUSE") throw error;
  console.error(`port ${config.port} is already in use; set PORT to another port (PORT=8788 npm start)`);
  process.exit(1);
});

// A replica being stopped (a deploy, a scale-down) hands its sessions over before it exits.
process.once("SIGTERM", () => {
  void demo.drain().finally(() => server.close(() => process.exit(0)));
});
