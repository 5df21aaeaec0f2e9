/**
 * Serves the Hono example (app.tsx) on Node: `npx tsx examples/hono-app/server.ts`. The secret
 * comes from SVC_AUTH_TOKEN_SECRET, resolved when the session middleware is built, so a server
 * in production (NODE_ENV=production) without it refuses to start and says what to set
 * (docs/auth.md#production-gate). PORT sets the port (default 3000).
 */
import process from "node:process";
import { serve } from "@hono/node-server";
import { Secret } from "svc-live";
import { createApp } from "./app.tsx";

const port = Number(process.env["PORT"] ?? 3000);
const { app } = createApp(Secret.fromEnv("SVC_AUTH_TOKEN_SECRET"));

serve({ fetch: app.fetch, port }, (info) => console.log(`the Hono example on http://localhost:${info.port}`)).on("error", (error) => {
  if ((error as { code?: string }).code !== "EADDRINUSE") throw error;
  console.error(`port ${port} is already in use; set PORT to another port (PORT=8080 npx tsx examples/hono-app/server.ts)`);
  process.exit(1);
});
