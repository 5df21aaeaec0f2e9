import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Secret } from "../../src/auth/mod.ts";
import { CsrfTokens } from "../../src/live/server/http/csrf.ts";
import { buttonId, formAppPool } from "./apps.ts";
import { cookieHeader, openTab, type Tab } from "../support/live-harness.ts";

// docs/security.md#csrf and #origin: tokens bound to the session, and the same-origin check.
const freshApp = formAppPool(after);
const inc = (seq: number) => ({ seq, msg: "Inc", handlerId: "r.2#button" });
const countOf = (a: ReturnType<typeof freshApp>) => [...a.sessions.all()].map((s) => s.model.count);

function event(a: ReturnType<typeof freshApp>, body: unknown, headers: Record<string, string>, url = "http://app.test/_svc/event") {
  return a.fetch(new Request(url, { method: "POST", body: JSON.stringify(body), headers }));
}
function sessionCookie(tab: Tab): string {
  return tab.cookies.split("; ").find((pair) => pair.includes("svc_sid="))!;
}

describe("CSRF tokens bound to the session", () => {
  test("a CSRF cookie tossed from a sibling subdomain, with the same value in the body, does not authorise a beacon", async () => {
    const a = freshApp();
    const victim = await openTab(a);
    const tossed = "attacker-chosen-value-attacker-chosen-value";
    const resp = await event(a, { csrf: tossed, batch: [inc(1)] }, {
      Cookie: `${sessionCookie(victim)}; __svc_csrf=${tossed}`,
      "Content-Type": "text/plain;charset=UTF-8",
    });
    assert.equal(resp.status, 403);
    assert.equal(resp.headers.get("X-Svc-Status"), "csrf-failed");
    const withHeader = await event(a, inc(1), { Cookie: `${sessionCookie(victim)}; __svc_csrf=${tossed}`, "X-Svc-Csrf": tossed });
    assert.equal(withHeader.status, 403);
    assert.deepEqual(countOf(a), [0]);
  });

  test("the token of one session does not authorise another session of the same browser", async () => {
    const a = freshApp();
    const first = await openTab(a);
    // A second session in the same browser: same CSRF cookie, its own session cookie.
    const second = await openTab(a, "http://app.test/", first.cookies.split("; ").filter((pair) => !pair.includes("svc_sid=")).join("; "));
    assert.notEqual(sessionCookie(first), sessionCookie(second));
    assert.notEqual(first.csrf, second.csrf, "each session has its own token");
    const crossed = await event(a, inc(1), { Cookie: second.cookies, "X-Svc-Csrf": first.csrf });
    assert.equal(crossed.status, 403);
    assert.equal((await second.post(inc(1))).status, 200);
    assert.deepEqual(countOf(a).sort(), [0, 1]);
  });

  test("the token is an HMAC under the app's secret: another secret gives another token for the same session and cookie", async () => {
    const one = freshApp({ secret: Secret.fromString("s".repeat(40)) });
    const other = freshApp({ secret: Secret.fromString("t".repeat(40)) });
    const tab = await openTab(one);
    const again = await openTab(one, "http://app.test/", tab.cookies);
    assert.equal(again.csrf, tab.csrf, "stable for a session and cookie");
    const elsewhere = await openTab(
      other,
      "http://app.test/",
      tab.cookies.split("; ").filter((pair) => !pair.includes("svc_sid=")).join("; "),
    );
    assert.notEqual(elsewhere.csrf, tab.csrf);
    assert.throws(() => freshApp({ secret: Secret.fromString("short") }), /at least 32 bytes/);
  });

  test("over https the CSRF cookie is __Host- prefixed, and a tossed unprefixed cookie does not displace it", async () => {
    const a = freshApp();
    const tab = await openTab(a, "https://app.test/");
    assert.match(tab.cookies, /__Host-__svc_csrf=/);
    assert.doesNotMatch(tab.cookies, /(^|; )__svc_csrf=/);
    const withTossed = `${tab.cookies}; __svc_csrf=tossed`;
    const resp = await event(a, inc(1), { Cookie: withTossed, "X-Svc-Csrf": tab.csrf }, "https://app.test/_svc/event");
    assert.equal(resp.status, 200);
    const forged = await event(
      a,
      { csrf: "tossed", batch: [inc(2)] },
      { Cookie: withTossed, "Content-Type": "text/plain" },
      "https://app.test/_svc/event",
    );
    assert.equal(forged.status, 403);
  });

  test("a browser holding only the unprefixed cookie gets the __Host- one on its next https page load", async () => {
    const a = freshApp();
    const plain = await openTab(a);
    const page = await a.fetch(new Request("https://app.test/", { headers: { Cookie: plain.cookies } }));
    assert.ok(
      page.headers.getSetCookie().some((line) => /^__Host-__svc_csrf=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Secure$/.test(line)),
    );
  });

  test("rotation re-derives the token: the rotating reply carries the new one, and the old token works only within the grace period", async () => {
    let now = 1_000_000;
    const a = freshApp({ now: () => now });
    const tab = await openTab(a);
    const rotated = await tab.post({ seq: 1, msg: "SignIn", handlerId: buttonId(tab.html, "sign in") });
    assert.equal(rotated.status, 200);
    const newToken = rotated.headers.get("X-Svc-Csrf");
    assert.ok(newToken && newToken !== tab.csrf);
    const newCookies = cookieHeader(rotated, tab.cookies);
    assert.equal((await event(a, inc(2), { Cookie: newCookies, "X-Svc-Csrf": newToken })).status, 200);

    // Another tab of the browser: the new cookie from the shared jar, the old token and handle.
    const otherTab = await event(a, { ...inc(3), sessionId: tab.handle }, { Cookie: newCookies, "X-Svc-Csrf": tab.csrf });
    assert.equal(otherTab.status, 200);
    assert.equal(otherTab.headers.get("X-Svc-Csrf"), newToken, "the tab learns the current token");
    assert.equal(otherTab.headers.get("X-Svc-Sid"), rotated.headers.get("X-Svc-Sid"));

    now += 60_000;
    const asleep = await event(a, { ...inc(4), sessionId: tab.handle }, { Cookie: newCookies, "X-Svc-Csrf": tab.csrf });
    assert.equal(asleep.status, 404, "past the grace period a stale tab reloads");
    assert.equal(asleep.headers.get("X-Svc-Status"), "session-lost");
    assert.equal((await event(a, inc(4), { Cookie: newCookies, "X-Svc-Csrf": tab.csrf })).status, 403);
    assert.deepEqual(countOf(a), [102]);
  });

  test("the ticket exchange checks the old id's token and hands back the new one", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const rotated = await tab.post({ seq: 1, msg: "SignIn", handlerId: buttonId(tab.html, "sign in") });
    const ticket = rotated.headers.get("X-Svc-Rotation")!;
    const exchange = (token: string) =>
      a.fetch(
        new Request("http://app.test/_svc/rotate", {
          method: "POST",
          headers: { Cookie: tab.cookies, "X-Svc-Csrf": token, "X-Svc-Rotation": ticket },
        }),
      );
    assert.equal((await exchange(rotated.headers.get("X-Svc-Csrf")!)).status, 403, "the token goes with the cookie's (old) id");
    const granted = await exchange(tab.csrf);
    assert.equal(granted.status, 204);
    assert.equal(granted.headers.get("X-Svc-Csrf"), rotated.headers.get("X-Svc-Csrf"));
    const fresh = cookieHeader(granted, tab.cookies);
    assert.equal((await event(a, inc(2), { Cookie: fresh, "X-Svc-Csrf": granted.headers.get("X-Svc-Csrf")! })).status, 200);
  });

  test("the resync render checks the token against the session", async () => {
    const a = freshApp();
    const first = await openTab(a);
    const second = await openTab(a, "http://app.test/", first.cookies.split("; ").filter((pair) => !pair.includes("svc_sid=")).join("; "));
    const render = (cookies: string, token: string) =>
      a.fetch(new Request("http://app.test/_svc/render", { headers: { Cookie: cookies, "X-Svc-Csrf": token } }));
    assert.equal((await render(second.cookies, first.csrf)).status, 403);
    assert.equal((await render(second.cookies, second.csrf)).status, 200);
  });

  test("a session's remembered token is that of its current id and cookie: another cookie, another id or a wrong token is refused", () => {
    const tokens = new CsrfTokens(Secret.fromString("k".repeat(40)));
    const session = {};
    const req = (cookie: string) => `svc_sid=x; __svc_csrf=${cookie}`;
    const right = tokens.tokenFor("sid-1", "cookie-a");
    const former = () => ["sid-0"];
    // Twice: the second check uses the remembered token.
    for (let i = 0; i < 2; i++) assert.equal(tokens.check(req("cookie-a"), right, { id: "sid-1", rotatedIds: former, session }), "current");
    assert.equal(
      tokens.check(req("cookie-a"), right.slice(0, -1) + (right.endsWith("A") ? "B" : "A"), { id: "sid-1", rotatedIds: former, session }),
      "wrong",
    );
    assert.equal(tokens.check(req("cookie-a"), "", { id: "sid-1", rotatedIds: former, session }), "wrong");
    // The same token under another cookie (a tossed one), then for another id (the session rotated).
    assert.equal(tokens.check(req("cookie-b"), right, { id: "sid-1", rotatedIds: former, session }), "wrong");
    assert.equal(tokens.check(req("cookie-a"), right, { id: "sid-2", rotatedIds: () => [], session }), "wrong");
    assert.equal(tokens.check(req("cookie-a"), right, { id: "sid-2", rotatedIds: () => ["sid-1"], session }), "former");
    assert.equal(
      tokens.check(req("cookie-a"), tokens.tokenFor("sid-2", "cookie-a"), { id: "sid-2", rotatedIds: former, session }),
      "current",
    );
    // Back to the first cookie and id after the others: worked out again, still right.
    assert.equal(tokens.check(req("cookie-a"), right, { id: "sid-1", rotatedIds: former, session }), "current");
    assert.equal(
      tokens.check(req("cookie-b"), tokens.tokenFor("sid-1", "cookie-b"), { id: "sid-1", rotatedIds: former, session }),
      "current",
    );
    // Another session object with the same id has its own entry; without one nothing is remembered.
    assert.equal(tokens.check(req("cookie-a"), right, { id: "sid-1", rotatedIds: former, session: {} }), "current");
    assert.equal(tokens.check(req("cookie-a"), right, { id: "sid-1", rotatedIds: former }), "current");
    assert.equal(tokens.check(req("cookie-c"), right, { id: "sid-1", rotatedIds: former }), "wrong");
    // No CSRF cookie at all (no Cookie header, or an empty value).
    assert.equal(tokens.check(null, right, { id: "sid-1", rotatedIds: former, session }), "wrong");
    assert.equal(tokens.check("svc_sid=x; __svc_csrf=", right, { id: "sid-1", rotatedIds: former, session }), "wrong");
  });
});

describe("the Origin check", () => {
  test("an event with a valid token from another origin is refused, and nothing is applied", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    for (
      const headers of <Record<string, string>[]> [
        { Origin: "https://evil.example" },
        { Origin: "null" },
        { Origin: "http://app.test.evil.example" },
        { "Sec-Fetch-Site": "cross-site" },
        { "Sec-Fetch-Site": "same-site" },
      ]
    ) {
      const resp = await tab.post(inc(1), headers);
      assert.equal(resp.status, 403, JSON.stringify(headers));
      assert.equal(resp.headers.get("X-Svc-Status"), "csrf-failed");
    }
    assert.deepEqual(countOf(a), [0]);
    assert.equal((await tab.post(inc(1), { Origin: "http://app.test" })).status, 200);
    assert.equal((await tab.post(inc(2), { "Sec-Fetch-Site": "same-origin" })).status, 200);
    assert.equal((await tab.post(inc(3))).status, 200, "no header (not a browser): the token decides");
    assert.deepEqual(countOf(a), [3]);
  });

  test("the beacon's text/plain body is checked the same way: its own origin passes, another is refused", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const beacon = (origin: string, seq: number) =>
      event(a, { csrf: tab.csrf, batch: [inc(seq)] }, { Cookie: tab.cookies, "Content-Type": "text/plain;charset=UTF-8", Origin: origin });
    assert.equal((await beacon("http://app.test", 1)).status, 204);
    assert.equal((await beacon("https://evil.example", 2)).status, 403);
    assert.deepEqual(countOf(a), [1]);
  });

  test("the render and the rotation exchange refuse another origin", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const render = await a.fetch(
      new Request("http://app.test/_svc/render", {
        headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, "Sec-Fetch-Site": "cross-site" },
      }),
    );
    assert.equal(render.status, 403);
    const rotated = await tab.post({ seq: 1, msg: "SignIn", handlerId: buttonId(tab.html, "sign in") });
    const exchange = (origin: string) =>
      a.fetch(
        new Request("http://app.test/_svc/rotate", {
          method: "POST",
          headers: {
            Cookie: tab.cookies,
            "X-Svc-Csrf": tab.csrf,
            "X-Svc-Rotation": rotated.headers.get("X-Svc-Rotation")!,
            Origin: origin,
          },
        }),
      );
    assert.equal((await exchange("https://evil.example")).status, 403);
    assert.equal((await exchange("http://app.test")).status, 204);
  });

  test("behind a TLS-ending proxy the https origin of the same host is the app's own", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    assert.equal((await tab.post(inc(1), { Origin: "https://app.test", "X-Forwarded-Proto": "https" })).status, 200);
    assert.equal((await tab.post(inc(2), { Origin: "https://app.test" })).status, 403, "without the proxy's signal the scheme must match");
  });

  test("a proxy that rewrites the host needs its public origin in allowedOrigins", async () => {
    const plain = freshApp();
    const listed = freshApp({ allowedOrigins: ["https://app.example.com"] });
    for (const [a, status] of [[plain, 403], [listed, 200]] as const) {
      const tab = await openTab(a, "http://10.0.0.5:3000/");
      assert.equal((await tab.post(inc(1), { Origin: "https://app.example.com" })).status, status);
      assert.equal((await tab.post(inc(2), { Origin: "https://other.example.com" })).status, 403);
    }
    for (const bad of ["app.example.com", "https://app.example.com/", "https://app.example.com/path", "null", 5 as unknown as string]) {
      assert.throws(() => freshApp({ allowedOrigins: [bad] }), TypeError, String(bad));
    }
  });
});
