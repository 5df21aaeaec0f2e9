import { after, test } from "node:test";
import assert from "node:assert/strict";
import { buttonId, formAppPool } from "./apps.ts";
import { openTab, type Tab } from "../support/live-harness.ts";
import type { LiveApp } from "../../src/live/server/app/app.ts";

// docs/protocol.md#resume: frames carry `id: <seq>`; a stream that reconnects with Last-Event-ID
// gets the frames it missed from the session's buffer, or one full render when the gap is too old.
const freshApp = formAppPool(after);

type SseEvent = { id: string | undefined; event: string; data: unknown };

/** The SSE events of a response (comments and retry-only blocks skipped), read until `count` or a quiet 300 ms. */
async function events(resp: Response, count: number): Promise<SseEvent[]> {
  const reader = resp.body!.getReader();
  const decoder = new TextDecoder();
  const out: SseEvent[] = [];
  let buffer = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    while (out.length < count) {
      const quiet = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 300)));
      const chunk = await Promise.race([reader.read(), quiet]);
      clearTimeout(timer);
      if (chunk === undefined || chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const lines = buffer.slice(0, end).split("\n");
        buffer = buffer.slice(end + 2);
        const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
        const event = field("event");
        if (event !== undefined) out.push({ id: field("id"), event, data: JSON.parse(field("data") ?? "null") });
      }
    }
  } finally {
    await reader.cancel();
  }
  return out;
}

function subscribe(a: LiveApp<unknown>, tab: Tab, lastEventId?: string, since?: number): Promise<Response> {
  const headers: Record<string, string> = { Cookie: tab.cookies };
  if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
  const query = since === undefined ? "" : `?page=p1&since=${since}`;
  return Promise.resolve(a.fetch(new Request(`http://app.test/_svc/subscribe${query}`, { headers })));
}

async function incTimes(tab: Tab, n: number): Promise<void> {
  const inc = buttonId(tab.html, "\\+");
  for (let i = 1; i <= n; i++) assert.equal((await tab.post({ seq: i, msg: "Inc", handlerId: inc })).status, 200);
}

test("every SSE frame carries its seq as the event id", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const stream = subscribe(a as LiveApp<unknown>, tab, "0");
  const resp = await stream;
  await incTimes(tab, 2);
  const got = await events(resp, 2);
  assert.deepEqual(got.map((e) => [e.id, e.event, (e.data as { seq: number }).seq]), [["1", "patch", 1], ["2", "patch", 2]]);
});

test("a stream opened without Last-Event-ID starts with a sync event naming the session's seq, without an id", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  await incTimes(tab, 3);
  const got = await events(await subscribe(a as LiveApp<unknown>, tab), 1);
  assert.deepEqual(got, [{ id: undefined, event: "sync", data: { seq: 3 } }]);
});

test("a stream resuming with Last-Event-ID gets exactly the frames after it, in order", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  await incTimes(tab, 5);
  const resp = await subscribe(a as LiveApp<unknown>, tab, "2");
  const replayed = await events(resp, 4);
  assert.deepEqual(replayed.map((e) => e.id), ["3", "4", "5"]);
  assert.deepEqual(replayed[2]!.data, { seq: 5, patches: [{ id: "r.0#p", text: "count 5" }] });
});

test("a stream opened with ?since= (a page's first stream) gets the frames after it, as with Last-Event-ID", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  await incTimes(tab, 3); // frames stamped between the page's render (seq 0) and its stream opening
  const replayed = await events(await subscribe(a as LiveApp<unknown>, tab, undefined, 0), 3);
  assert.deepEqual(replayed.map((e) => [e.id, e.event]), [["1", "patch"], ["2", "patch"], ["3", "patch"]]);
});

test("Last-Event-ID wins over ?since= (the browser reconnecting by itself on the URL the client opened)", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  await incTimes(tab, 4);
  const replayed = await events(await subscribe(a as LiveApp<unknown>, tab, "3", 0), 1);
  assert.deepEqual(replayed.map((e) => e.id), ["4"]);
});

test("a stream resuming at the session's current seq gets nothing until the next frame", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  await incTimes(tab, 2);
  const resp = await subscribe(a as LiveApp<unknown>, tab, "2");
  await tab.post({ seq: 3, msg: "Inc", handlerId: buttonId(tab.html, "\\+") });
  const got = await events(resp, 2);
  assert.deepEqual(got.map((e) => [e.id, e.event]), [["3", "patch"]]);
});

test("a gap older than the session's buffer is answered with one full render at the current seq", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  await incTimes(tab, 20);
  const got = await events(await subscribe(a as LiveApp<unknown>, tab, "1"), 2);
  assert.equal(got.length, 1, "one render, no partial replay");
  assert.equal(got[0]!.event, "render");
  assert.equal(got[0]!.id, "20");
  const data = got[0]!.data as { seq: number; html: string };
  assert.equal(data.seq, 20);
  assert.match(data.html, /^<main svc-id="r"><p id="count">count 20<\/p>/);
});

test("a Last-Event-ID the server never issued (not a number, or ahead of the session) gets a full render", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  await incTimes(tab, 2);
  for (const id of ["abc", "-1", "1.5", "99", "9".repeat(40)]) {
    const got = await events(await subscribe(a as LiveApp<unknown>, tab, id), 1);
    assert.deepEqual(got.map((e) => [e.event, e.id, (e.data as { seq: number }).seq]), [["render", "2", 2]], id);
  }
});

test("a session whose kept frames are gone resumes from a full render", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  await incTimes(tab, 3);
  const session = [...a.sessions.all()][0]!;
  session.frames.forgetRecent();
  const got = await events(await subscribe(a as LiveApp<unknown>, tab, "2"), 1);
  assert.deepEqual(got.map((e) => [e.event, e.id]), [["render", "3"]]);
  assert.match((got[0]!.data as { html: string }).html, /count 3/);
});
