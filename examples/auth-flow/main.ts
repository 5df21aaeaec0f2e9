/** `npm start`: the reference auth flow on Node, at http://localhost:8787 (PORT to change it). */
import { serve } from "@hono/node-server";
import handler from "./fetch.ts";

const port = Number(process.env.PORT ?? 8787);
serve({ fetch: handler.fetch, port }, (info) => {
  console.log(`svc reference auth flow listening on http://localhost:${info.port}`);
  console.log("try: curl -i -d email=a@b.c -d password=hunter2-hunter2 http://localhost:" + info.port + "/register");
});
