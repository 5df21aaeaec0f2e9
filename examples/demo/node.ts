/** `npm start`: the demo on Node through @hono/node-server (tsx examples/demo/node.ts). */
import { existsSync, readFileSync } from "node:fs";
import { serve } from "@hono/node-server";
import { banner, startDemo } from "./start.ts";

const dotenv = existsSync(".env") ? readFileSync(".env", "utf8") : undefined;
const { demo, config, notes } = startDemo((name) => process.env[name], (name, value) => (process.env[name] = value), dotenv);

// A replica being stopped (a deploy, a scale-down, SIGTERM or Ctrl-C) drains without cutting a
// request, hands its sessions over and exits (docs/deployment.md#draining).
const server = demo.graceful.attach(
  serve({ fetch: demo.fetch, port: config.port }, (info) => console.log(banner(`http://localhost:${info.port}`, notes))),
);
server.on("error", (error) => {
  if ((error as { code?: string }).code !== "EADDRINUSE") throw error;
  console.error(`port ${config.port} is already in use; set PORT to another port (PORT=8788 npm start)`);
  process.exit(1);
});
