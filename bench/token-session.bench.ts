/**
 * Token sessions (docs/protocol.md#token-sessions): what naming a session by a signed token in the
 * X-Svc-Session header costs an event, against the same app with a cookie session (the session
 * cookie and the CSRF header, whose expected token the server keeps per session). The workload is
 * bench/live-app.ts's form app, one tab sending events back to back through `app.fetch`; every
 * token event verifies its HS256 token (shape, signature, claims) where the cookie event scans the
 * Cookie header and compares the CSRF token in constant time. Rounds alternate and the median pair
 * is kept. Target: a token event at least 0.8x a cookie event's rate.
 *
 * Run: node --import tsx bench/token-session.bench.ts | npx bun bench/token-session.bench.ts |
 *      npx deno run -A bench/token-session.bench.ts
 */
import { Secret } from "../src/auth/secret.ts";
import type { LiveApp } from "../src/live/server/app/app.ts";
import { credsFromPage, eventBody, formApp, type FormModel, type SessionCreds } from "./live-app.ts";
import { medianPair, report } from "./report.ts";

const ORIGIN = "http://bench.test";
const secret = Secret.fromString("token-session-bench-secret-0123456789-abcdef");

type Tab = { app: LiveApp<FormModel>; send(seq: number): Promise<Response> };

async function cookieTab(): Promise<Tab> {
  const app = formApp({ secret });
  const page = await app.fetch(new Request(`${ORIGIN}/`));
  const cookie = page.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const creds = credsFromPage(await page.text(), cookie);
  const headers = { Cookie: creds.cookie, "X-Svc-Csrf": creds.csrf, "Content-Type": "application/json" };
  return { app, send: (seq) => post(app, headers, creds, seq) };
}

async function tokenTab(): Promise<Tab> {
  const app = formApp({ secret, session: "token" });
  const page = await app.fetch(new Request(`${ORIGIN}/`));
  const html = await page.text();
  const token = /<meta name="svc-session-token" content="([^"]*)">/.exec(html)?.[1] ?? "";
  const creds = credsFromPage(html, "");
  const headers = { "X-Svc-Session": token, "Content-Type": "application/json" };
  return { app, send: (seq) => post(app, headers, creds, seq) };
}

async function post(app: LiveApp<FormModel>, headers: Record<string, string>, creds: SessionCreds, seq: number): Promise<Response> {
  const body = eventBody(creds, seq);
  const resp = await app.fetch(
    new Request(`${ORIGIN}/_svc/event`, { method: "POST", headers: { ...headers, "Content-Length": String(body.length) }, body }),
  );
  if (resp.status !== 200) throw new Error(`event ${seq} answered ${resp.status}`);
  await resp.arrayBuffer();
  return resp;
}

/** Events per second of a tab, for about `ms` milliseconds. */
async function eventsPerSecond(tab: Tab, next: { seq: number }, ms: number): Promise<number> {
  let done = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 50; i++) await tab.send(++next.seq);
    done += 50;
    elapsed = performance.now() - start;
  }
  return (done * 1000) / elapsed;
}

const scale = Number((globalThis as { process?: { argv: string[] } }).process?.argv[2] ?? "1") || 1;
const token = await tokenTab();
const cookie = await cookieTab();
const seqs = { token: { seq: 0 }, cookie: { seq: 0 } };
await eventsPerSecond(token, seqs.token, 300 * scale);
await eventsPerSecond(cookie, seqs.cookie, 300 * scale);
const ours: number[] = [];
const peer: number[] = [];
for (let round = 0; round < 9; round++) {
  if (round % 2 === 0) {
    ours.push(await eventsPerSecond(token, seqs.token, 250 * scale));
    peer.push(await eventsPerSecond(cookie, seqs.cookie, 250 * scale));
  } else {
    peer.push(await eventsPerSecond(cookie, seqs.cookie, 250 * scale));
    ours.push(await eventsPerSecond(token, seqs.token, 250 * scale));
  }
}
const pair = medianPair(ours, peer);
const ratio = pair.ours / pair.peer;
report("Token sessions", [{
  name: "event, one tab, token session (X-Svc-Session)",
  ours: pair.ours,
  peer: pair.peer,
  peerName: "the same app, cookie session",
  unit: "events/s",
  higherIsBetter: true,
  target: "ratio >= 0.8x",
  met: ratio >= 0.8,
}]);
token.app.close();
cookie.app.close();
