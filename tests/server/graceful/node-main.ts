/** The drain test's server on Node, through @hono/node-server (tests/server/graceful.test.ts). */
import { serve } from "@hono/node-server";
import { drainTestApp } from "./app.ts";

const { drain, fetch } = drainTestApp();
drain.attach(serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info) => console.log(`listening ${info.port}`)));
