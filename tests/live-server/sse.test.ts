import { after, test } from "node:test";
import assert from "node:assert/strict";
import { buttonId, formAppPool } from "./apps.ts";
import { openTab, sleep } from "../support/live-harness.ts";

// docs/protocol.md#sse-stream, docs/protocol.md#sequence-numbers.
const freshApp = formAppPool(after);

test("SSE frames are `event: patch` with the reply's shape, share the counter with replies and arrive in seq order", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const stream = await tab.subscribe();
  assert.equal(stream.response.headers.get("Content-Type"), "text/event-stream");
  const inc = buttonId(tab.html, "\\+");
  const replies: number[] = [];
  for (let i = 1; i <= 5; i++) {
    replies.push(((await (await tab.post({ seq: i, msg: "Inc", handlerId: inc })).json()) as { seq: number }).seq);
  }
  const frames = [];
  for (let i = 0; i < 5; i++) frames.push(await stream.next());
  assert.deepEqual(replies, [1, 2, 3, 4, 5]);
  assert.deepEqual(frames.map((f) => f?.seq), [1, 2, 3, 4, 5]);
  assert.deepEqual(frames[4], { seq: 5, patches: [{ id: "r.0#p", text: "count 5" }] }, "no respondingTo on SSE frames");
  await stream.close();
});

test("GET /_svc/sse is an alias of /_svc/subscribe", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const stream = await tab.subscribe("/_svc/sse");
  await tab.post({ seq: 1, msg: "Inc", handlerId: buttonId(tab.html, "\\+") });
  assert.equal((await stream.next())?.seq, 1);
  await stream.close();
});

test("a background task's completion dispatches its message and produces a frame", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const stream = await tab.subscribe();
  const reply = (await (await tab.post({ seq: 1, msg: "Fetch", handlerId: buttonId(tab.html, "fetch") })).json()) as { seq: number };
  assert.equal(reply.seq, 1);
  assert.equal((await stream.next())?.seq, 1, "the reply's frame also goes to the stream");
  const completion = await stream.next();
  assert.deepEqual(completion, { seq: 2, patches: [{ id: "r.9#output", text: "loaded" }] });
  await stream.close();
});

test("subscription ticks produce frames while the model asks for them, and stop when it no longer does", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const stream = await tab.subscribe();
  await tab.post({ seq: 1, msg: "StartTicks", handlerId: buttonId(tab.html, "ticks") });
  const seqs: number[] = [];
  for (let i = 0; i < 4; i++) seqs.push((await stream.next())!.seq);
  assert.deepEqual(seqs, [1, 2, 3, 4]);
  const session = [...a.sessions.all()][0]!;
  await tab.post({ seq: 2, msg: "StopTicks", handlerId: buttonId(tab.html, "ticks") });
  assert.equal(session.subscriptionCount, 0);
  const count = session.model.count;
  await sleep(100);
  assert.equal(session.model.count, count, "no tick after the model stopped asking");
  await stream.close();
});

test("a batch's frames still reach SSE subscribers, one per entry", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const stream = await tab.subscribe();
  const inc = buttonId(tab.html, "\\+");
  const resp = await tab.post({ batch: [{ seq: 1, msg: "Inc", handlerId: inc }, { seq: 2, msg: "Inc", handlerId: inc }] });
  assert.equal(resp.status, 204);
  assert.deepEqual([(await stream.next())?.seq, (await stream.next())?.seq], [1, 2]);
  await stream.close();
});

test("two tabs of one session both get every frame; a reconnecting stream replays what it missed", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const other = await tab.subscribe();
  const inc = buttonId(tab.html, "\\+");
  await tab.post({ seq: 1, msg: "Inc", handlerId: inc });
  await tab.post({ seq: 2, msg: "Inc", handlerId: inc });
  assert.deepEqual([(await other.next())?.seq, (await other.next())?.seq], [1, 2]);
  const late = await tab.subscribe("/_svc/subscribe", { "Last-Event-ID": "1" });
  assert.equal((await late.next())?.seq, 2, "frame 2 is replayed to a stream that last received 1");
  await other.close();
  await late.close();
});

test("closing the stream removes it from the session", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const stream = await tab.subscribe();
  const session = [...a.sessions.all()][0]!;
  assert.equal(session.streams.size, 1);
  await stream.close();
  await sleep(10);
  assert.equal(session.streams.size, 0);
});

test("the resync render returns the current tree as full HTML with the session's seq", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  await tab.post({ seq: 1, msg: "Inc", handlerId: buttonId(tab.html, "\\+") });
  const resp = await a.fetch(new Request("http://app.test/_svc/render", { headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf } }));
  assert.equal(resp.headers.get("X-Svc-Seq"), "1");
  assert.match(await resp.text(), /^<main svc-id="r"><p id="count">count 1<\/p>/);
  const noCsrf = await a.fetch(new Request("http://app.test/_svc/render", { headers: { Cookie: tab.cookies } }));
  assert.equal(noCsrf.status, 403);
});

test("an open stream gets heartbeat comments, and each one keeps its session from expiring as idle", async () => {
  let now = 1_000_000;
  const a = freshApp({ now: () => now, idleTimeoutMs: 60_000, heartbeatMs: 20 });
  const tab = await openTab(a);
  const session = [...a.sessions.all()][0]!;
  const resp = await a.fetch(new Request("http://app.test/_svc/subscribe", { headers: { Cookie: tab.cookies } }));
  const reader = resp.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  // Past the idle timeout on the app's clock, then wait (in real time) for a heartbeat to arrive.
  // A ref'd timer bounds the wait and keeps the process alive (the server's timers are unref'd).
  now += 60_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 2_000)));
  while (!text.includes(": heartbeat\n\n")) {
    const chunk = await Promise.race([reader.read(), timeout]);
    if (chunk === undefined || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  clearTimeout(timer);
  assert.match(text, /^: connected\nretry: \d+\n\n/, "the stream opens with a comment and the reconnection delay");
  assert.match(text, /: heartbeat\n\n/, "a heartbeat comment arrived");
  assert.equal(session.lastActive, now, "the heartbeat marked the session active");
  a.sessions.sweep();
  assert.equal(session.life, "live", "a session with an open stream is not idle");
  await reader.cancel();
});
