/**
 * "Session lost" is one response, byte for byte, on every route (docs/protocol.md#sessions-and-cookies):
 * the page, the event, the render, the stream, the end and the rotation exchange, for cookie and
 * token sessions alike. Read over a real socket (a node:http server through @hono/node-server,
 * the raw bytes read with node:net), so the header names, their case and their order count; only
 * the Date header's value is left out.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { serve } from "@hono/node-server";
import { Live, Secret, Ui } from "../../src/mod.ts";
import { CSRF_HEADER, ROTATION_HEADER, SESSION_HEADER } from "../../src/protocol/mod.ts";
import { metaOf } from "../support/token-tab.ts";

const SECRET = Secret.fromString("refusal-bytes-test-secret-0123456789-abcdef");
const closers: (() => void)[] = [];
after(() => closers.forEach((close) => close()));

async function app(session: "cookie" | "token") {
  const live = Live.app<{ n: number }>({
    init: () => ({ n: 0 }),
    update: (model) => ({ n: model.n + 1 }),
    view: (model) => Ui.h("button", { onClick: "Inc" }, `n ${model.n}`),
  }, { session, secret: SECRET });
  const port = await new Promise<number>((resolve) => {
    const server = serve({ fetch: live.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port));
    closers.push(() => {
      live.close();
      server.close();
    });
  });
  return { live, port: () => port };
}

/** The raw bytes of the response to one request, sent over a socket of its own. */
function raw(port: number, request: { method: string; path: string; headers: Record<string, string>; body?: string }): Promise<string> {
  const body = request.body ?? "";
  const lines = [
    `${request.method} ${request.path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
    ...(request.method === "POST" ? [`Content-Length: ${Buffer.byteLength(body)}`] : []),
    "Connection: close",
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(lines.join("\r\n") + "\r\n\r\n" + body));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", reject);
  });
}

/** A response's bytes with the Date header's value blanked. */
const dateAside = (bytes: string) => bytes.replace(/^(date): [^\r]*\r$/im, "$1: -\r");

const EVENT_BODY = JSON.stringify({ seq: 1, msg: "Inc", args: [], handler: "h0" });

test("the lost-session refusal is the same bytes on every route, for cookie and token sessions", async () => {
  const cookie = await app("cookie");
  const token = await app("token");
  const gone = { Cookie: "svc_sid=no-such-session" };

  // A live cookie session with its CSRF token, whose rotation ticket is wrong: its exchange finds
  // no rotation, and answers lost.
  const page = await cookie.live.fetch(new Request("http://app.test/"));
  const sid = page.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");
  const csrf = metaOf(await page.text(), "svc-csrf") ?? "";
  assert.notEqual(csrf, "");

  // A token whose session has ended: every route of the token app answers it as lost.
  const tokenPage = await token.live.fetch(new Request("http://app.test/"));
  const ended = tokenPage.headers.get(SESSION_HEADER)!;
  await tokenPage.body?.cancel();
  const end = await token.live.fetch(new Request("http://app.test/_svc/end", { method: "POST", headers: { [SESSION_HEADER]: ended } }));
  assert.equal(end.status, 204);
  const named = { [SESSION_HEADER]: ended };

  const answers: Record<string, string> = {
    "cookie event": await raw(cookie.port(), {
      method: "POST",
      path: "/_svc/event",
      headers: { ...gone, "Content-Type": "application/json" },
      body: EVENT_BODY,
    }),
    "cookie render": await raw(cookie.port(), { method: "GET", path: "/_svc/render", headers: gone }),
    "cookie subscribe": await raw(cookie.port(), { method: "GET", path: "/_svc/subscribe", headers: gone }),
    "cookie rotate": await raw(cookie.port(), {
      method: "POST",
      path: "/_svc/rotate",
      headers: { Cookie: sid, [CSRF_HEADER]: csrf, [ROTATION_HEADER]: "no-such-ticket" },
    }),
    "token page": await raw(token.port(), { method: "GET", path: "/", headers: named }),
    "token event": await raw(token.port(), {
      method: "POST",
      path: "/_svc/event",
      headers: { ...named, "Content-Type": "application/json" },
      body: EVENT_BODY,
    }),
    "token render": await raw(token.port(), { method: "GET", path: "/_svc/render", headers: named }),
    "token subscribe": await raw(token.port(), { method: "GET", path: "/_svc/subscribe", headers: named }),
    "token end": await raw(token.port(), { method: "POST", path: "/_svc/end", headers: named }),
    "token rotate": await raw(token.port(), { method: "POST", path: "/_svc/rotate", headers: named }),
  };
  const [first, ...rest] = Object.entries(answers).map(([route, bytes]) => [route, dateAside(bytes)] as const);
  assert.match(first![1], /^HTTP\/1\.1 404 /, "the refusal is the 404");
  // Its body, framed by Content-Length, or chunked where the runtime's node:http streams a Response
  // it did not build (Bun's): the framing is the server's, and the same on every route either way.
  assert.match(first![1], /\r\n\r\n(session lost|c\r\nsession lost\r\n0\r\n\r\n)$/, "with its body");
  for (const [route, bytes] of rest) assert.equal(bytes, first![1], `${route} answers as ${first![0]} does`);
});
