/**
 * Serves the sign-in app (sign-in.ts) on Node as one replica of many
 * (docs/deployment.md#a-sign-in-app-on-replicas):
 *
 *   DATABASE_URL=postgres://… SVC_AUTH_TOKEN_SECRET=… PORT=8801 npx tsx examples/replicas/sign-in-main.ts
 */
import process from "node:process";
import { serve } from "@hono/node-server";
import { Db, Secret } from "svc-live";
import { createSignInApp } from "./sign-in.ts";

// Each app on a shared database keeps its tables in its own schema (docs/deployment.md#a-shared-database).
const db = Db.open(process.env.DATABASE_URL!, { schema: process.env.DATABASE_SCHEMA ?? "sign_in_app" });
const { live, graceful, fetch } = createSignInApp(db, Secret.fromEnv("SVC_AUTH_TOKEN_SECRET"));
await live.ready(); // listening for the other replicas' notices before it serves
// SIGTERM: not ready at once, stop accepting, finish what is in flight, hand the sessions over, exit.
graceful.attach(serve({ fetch, port: Number(process.env.PORT ?? 8801) }, (info) => console.log(`listening on ${info.port}`)));
