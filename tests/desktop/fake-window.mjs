#!/usr/bin/env node
// A stand-in for the browser window of the desktop mode, for the tests that run on Node, Bun and
// Deno without Chromium (tests/desktop/desktop.test.ts). Started as the browser would be
// (--app=<launch file URL> --user-data-dir=<folder>), it does what the launch file and the
// bootstrap page do in a browser: it reads the launch URL, takes the token from its fragment, asks
// for the page with X-Svc-Launch, and then acts as the split client would (an event, a stream). It
// writes what it saw to $FAKE_WINDOW_OUT, and then, per $FAKE_WINDOW_CLOSE, exits ("exit"), drops
// its stream and waits to be stopped ("stream"), or keeps its stream and waits ("hold").
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const app = process.argv.find((arg) => arg.startsWith("--app="))?.slice("--app=".length);
const launchHtml = readFileSync(fileURLToPath(app), "utf8");
const target = new URL(JSON.parse(/location\.replace\(("[^"]*")\)/.exec(launchHtml)[1]));
const launch = target.hash.slice(1);
target.hash = "";
const seen = { argv: process.argv.slice(2) };

const bootstrap = await fetch(target, { headers: { "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "none" } });
seen.bootstrap = { status: bootstrap.status, html: await bootstrap.text() };
const page = await fetch(target, { headers: { "X-Svc-Launch": launch } });
const html = await page.text();
const token = /<meta name="svc-session-token" content="([^"]*)">/.exec(html)?.[1] ?? "";
seen.page = { status: page.status, html, referrerPolicy: page.headers.get("Referrer-Policy") };
const again = await fetch(target, { headers: { "X-Svc-Launch": launch } });
seen.again = again.status;
const stream = await fetch(new URL("/_svc/subscribe", target), { headers: { "X-Svc-Session": token } });
seen.stream = stream.status;
const reader = stream.body.getReader();
const event = await fetch(new URL("/_svc/event", target), {
  method: "POST",
  headers: { "X-Svc-Session": token, "Content-Type": "application/json", Origin: target.origin },
  body: JSON.stringify({ seq: 1, msg: "Inc", page: "w" }),
});
seen.event = { status: event.status, body: await event.text() };
let frames = "";
const decoder = new TextDecoder();
while (!frames.includes("event: patch")) {
  const chunk = await reader.read();
  if (chunk.done) break;
  frames += decoder.decode(chunk.value);
}
seen.frames = frames;
writeFileSync(process.env.FAKE_WINDOW_OUT, JSON.stringify(seen));
if (process.env.FAKE_WINDOW_CLOSE === "exit") process.exit(0);
if (process.env.FAKE_WINDOW_CLOSE !== "hold") await reader.cancel();
setInterval(() => {}, 1000);
