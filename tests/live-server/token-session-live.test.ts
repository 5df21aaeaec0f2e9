/**
 * A live app bound to the user of a fixed-lifetime `Server.tokenSession` (docs/auth.md#hono-middleware):
 * `live.withAuth(session)` reads the user the middleware verified when the app sits behind it
 * (`app.route`), runs the middleware itself when mounted alone, and starts a new live session when
 * a page load's token names another user, as `withAuthSliding` does for a sliding session.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { Live, Secret, Ui } from "../../src/mod.ts";
import { type AuthEnv, Server } from "../../src/server/mod.ts";
import type { LiveApp } from "../../src/live/server/app/app.ts";
import { cookieHeader } from "../support/live-harness.ts";
import { withEnv } from "../support/env.ts";

const secret = Secret.fromString("token-session-live-secret-0123456789");
const DEV = { ENV: undefined };
const apps: LiveApp<unknown>[] = [];
after(() => apps.forEach((app) => app.close()));

/** A live app whose model is the user its session was started for. */
function whoAmI(): LiveApp<{ user: string }> {
  const live = Live.app<{ user: string }>({
    init: (ctx) => ({ user: ctx.auth?.sub === undefined ? "nobody" : String(ctx.auth.sub) }),
    update: (model) => model,
    view: (model) => Ui.h("main", {}, Ui.h("p", { id: "who" }, `user ${model.user}`)),
  });
  apps.push(live as LiveApp<unknown>);
  return live;
}

function tokenCookie(userId: number): string {
  const session = Server.tokenSession({ cookie: "sid", secret, lifetimeSeconds: 3600 });
  const c = { header: (_: string, line: string) => (written = line), req: { raw: new Request("http://app.test/") } };
  let written = "";
  session.signIn(c as never, userId);
  return written.slice(0, written.indexOf(";"));
}

const whoOnPage = (html: string) => /<p[^>]*>user ([^<]*)<\/p>/.exec(html)?.[1];

describe("live.withAuth(Server.tokenSession(...))", () => {
  test("behind the middleware (app.route): the page's session starts for the token's user", async () => {
    await withEnv(DEV, async () => {
      const session = Server.tokenSession({ cookie: "sid", secret, lifetimeSeconds: 3600 });
      const host = new Hono<AuthEnv>().use(session);
      host.route("/live", whoAmI().withAuth(session));
      const signedOut = await host.request("/live", { headers: { Accept: "text/html" } });
      assert.equal(whoOnPage(await signedOut.text()), "nobody");
      const seven = await host.request("/live", { headers: { Accept: "text/html", Cookie: tokenCookie(7) } });
      assert.equal(seven.status, 200);
      assert.equal(whoOnPage(await seven.text()), "7");
    });
  });

  test("mounted alone (app.mount), the app runs the middleware itself", async () => {
    await withEnv(DEV, async () => {
      const session = Server.tokenSession({ cookie: "sid", secret, lifetimeSeconds: 3600 });
      const host = new Hono();
      host.mount("/live", whoAmI().withAuth(session).fetch);
      const page = await host.request("/live", { headers: { Accept: "text/html", Cookie: tokenCookie(9) } });
      assert.equal(whoOnPage(await page.text()), "9");
    });
  });

  test("a page load whose token names another user starts a new live session; the same user keeps it", async () => {
    await withEnv(DEV, async () => {
      const session = Server.tokenSession({ cookie: "sid", secret, lifetimeSeconds: 3600 });
      const host = new Hono<AuthEnv>().use(session);
      host.route("/", whoAmI().withAuth(session));
      const first = await host.request("/", { headers: { Accept: "text/html", Cookie: tokenCookie(7) } });
      const liveCookies = cookieHeader(first, "");
      assert.match(liveCookies, /svc/, "the live session cookie");
      const again = await host.request("/", { headers: { Accept: "text/html", Cookie: `${liveCookies}; ${tokenCookie(7)}` } });
      assert.equal(whoOnPage(await again.text()), "7");
      assert.equal(cookieHeader(again, liveCookies), liveCookies, "the same user keeps the live session");
      const other = await host.request("/", { headers: { Accept: "text/html", Cookie: `${liveCookies}; ${tokenCookie(8)}` } });
      assert.equal(whoOnPage(await other.text()), "8");
      assert.notEqual(cookieHeader(other, liveCookies), liveCookies, "another user gets a new live session");
    });
  });

  test("a sliding session given to withAuth is withAuthSliding", async () => {
    await withEnv(DEV, async () => {
      const session = Server.slidingSession({ cookie: "sid", secret, windowSeconds: 900, maxLifetimeSeconds: 3600 });
      const live = whoAmI().withAuth(session);
      assert.equal(live.describe().sliding, true);
    });
  });
});
