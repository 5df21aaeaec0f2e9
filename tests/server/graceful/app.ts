/**
 * The app the drain tests serve on each runtime: the counter live app (in memory) at `/`, a POST
 * `/slow?ms=<n>` that answers after n ms (a request in flight when the signal comes), and the
 * readiness probe at `/ready`. The drain's steps are printed as `step <name>`.
 */
import { Server } from "../../../src/server/mod.ts";
import { counterApp } from "../../support/counter-app.ts";

export function drainTestApp() {
  const live = counterApp({ heartbeatMs: 200 });
  const drain = Server.graceful({
    live,
    timeoutMs: 10_000,
    onStep: (step) => console.log(`step ${step}`),
  });
  const fetch = drain.fetch(async (req: Request, ...rest: unknown[]): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname === "/ready") return drain.readiness();
    if (url.pathname === "/slow") {
      const ms = Number(url.searchParams.get("ms") ?? 0);
      const body = await req.text();
      await new Promise((resolve) => setTimeout(resolve, ms));
      return new Response(`done ${body}`);
    }
    return live.fetch(req, ...(rest as []));
  });
  return { live, drain, fetch };
}
