// The split client's Session field and its stream read with fetch (docs/protocol.md#the-session-field):
// the token goes in X-Svc-Session on every request the client makes (events, renders, the unload
// batch, the stream), a reply's X-Svc-Session replaces it, ending clears it and POSTs /_svc/end;
// without a token the requests pass unchanged. The stream parses the event-stream format and
// reconnects with Last-Event-ID, and gives up on a refusal as EventSource does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventStreamParser, fetchEventSource } from "../../client/split/fetch-stream.ts";
import { SessionField } from "../../client/split/session.ts";
import { json, page, settle, sleep } from "./support.ts";

type Seen = { url: string; init: RequestInit; headers: Record<string, string> };

function recorder(answer: (seen: Seen) => Response | Promise<Response> = () => new Response(null, { status: 204 })) {
  const seen: Seen[] = [];
  const fetch = (url: string, init: RequestInit) => {
    const s = { url, init, headers: { ...(init.headers as Record<string, string>) } };
    seen.push(s);
    return Promise.resolve(answer(s));
  };
  return { seen, fetch };
}

test("with a token, every request carries X-Svc-Session and keeps its own headers; a reply's token replaces it", async () => {
  const field = new SessionField("t1");
  const net = recorder((s) => new Response(null, { status: 200, headers: s.url.endsWith("/sign-in") ? { "X-Svc-Session": "t2" } : {} }));
  const fetch = field.wrap(net.fetch);
  await fetch("/_svc/event", { method: "POST", headers: { "X-Svc-Csrf": "c" } });
  await fetch("/sign-in", { method: "POST", headers: new Headers({ "Content-Type": "application/json" }) });
  await fetch("/_svc/render", {});
  assert.deepEqual(net.seen.map((s) => s.headers["X-Svc-Session"]), ["t1", "t1", "t2"]);
  assert.equal(net.seen[0]!.headers["X-Svc-Csrf"], "c");
  assert.equal(net.seen[1]!.headers["content-type"], "application/json");
  assert.equal(field.value, "t2");
});

test("ending clears the field and POSTs /_svc/end once with the token; a later reply brings no token back", async () => {
  const field = new SessionField("t1");
  const net = recorder((s) => new Response(null, { status: s.url.endsWith("/_svc/end") ? 204 : 200, headers: { "X-Svc-Session": "t9" } }));
  assert.equal(await field.end(net.fetch, "/app"), true);
  assert.equal(field.value, undefined);
  assert.deepEqual(net.seen.map((s) => [s.url, s.init.method, s.headers["X-Svc-Session"]]), [["/app/_svc/end", "POST", "t1"]]);
  field.read(new Response(null, { headers: { "X-Svc-Session": "t9" } }));
  assert.equal(field.value, undefined);
  assert.equal(await field.end(net.fetch, "/app"), false, "a second end sends nothing");
  assert.equal(net.seen.length, 1);
});

test("a lost end request resolves false and still clears the field", async () => {
  const field = new SessionField("t1");
  assert.equal(await field.end(() => Promise.reject(new TypeError("network")), ""), false);
  assert.equal(field.value, undefined);
});

test("without a token (a cookie session) requests pass unchanged", async () => {
  const field = new SessionField(undefined);
  const net = recorder();
  await field.wrap(net.fetch)("/_svc/event", { method: "POST", headers: { "X-Svc-Csrf": "c" } });
  assert.deepEqual(net.seen[0]!.headers, { "X-Svc-Csrf": "c" });
  assert.equal(field.isToken, false);
});

test("the client's event posts and its resync carry the token, and a rotated token is used from the next request on", async () => {
  const field = new SessionField("t1");
  let n = 0;
  const p = page(`<main svc-id="r"><button svc-id="r.0#button" data-svc-click="Inc">+</button></main>`, {
    split: true,
    wrapFetch: (fetch) => field.wrap(fetch),
    auto: (
      req,
    ) => (req.url.endsWith("/_svc/event") ? json({ seq: ++n, patches: [] }, n === 1 ? { "X-Svc-Session": "t2" } : {}) : undefined),
  });
  p.fire(p.el("r.0#button"), "click");
  await settle();
  p.fire(p.el("r.0#button"), "click");
  await settle();
  void p.client.resync();
  await settle();
  assert.deepEqual(p.requests.map((r) => [r.url.replace(/\?.*/, ""), r.headers["X-Svc-Session"]]), [
    ["/_svc/event", "t1"],
    ["/_svc/event", "t2"],
    ["/_svc/render", "t2"],
  ]);
  await p.close();
});

test("the event-stream parser: fields, multi-line data, comments, id-only blocks, retry, and CRLF, LF or CR split anywhere", () => {
  const text =
    ': heartbeat\r\nretry: 2500\r\nid: 1\r\nevent: patch\r\ndata: {"a":\r\ndata: 1}\r\n\r\nid: 2\n\nevent: sync\rdata:x\r\rdata: plain\n\n';
  for (const size of [1, 2, 3, 7, text.length]) {
    const events: [string, string | undefined, string][] = [];
    const retries: number[] = [];
    const parser = new EventStreamParser((type, data, id) => events.push([type, data, id]), (ms) => retries.push(ms));
    for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size));
    assert.deepEqual(
      events,
      [["patch", '{"a":\n1}', "1"], ["message", undefined, "2"], ["sync", "x", "2"], ["message", "plain", "2"]],
      `size ${size}`,
    );
    assert.deepEqual(retries, [2500]);
  }
});

/** A response whose body the test writes, as a server's stream. */
function streamed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    resp: new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

test("the fetch stream delivers events, reconnects by itself with Last-Event-ID after a drop, and gives up on a refusal", async () => {
  const streams: ReturnType<typeof streamed>[] = [];
  const net = recorder((s) => {
    if (streams.length >= 2) return new Response("x", { status: 404, headers: { "X-Svc-Status": "session-lost" } });
    const st = streamed();
    streams.push(st);
    void s;
    return st.resp;
  });
  const Source = fetchEventSource(new SessionField("tok").wrap(net.fetch));
  const es = new Source("/_svc/subscribe?page=p&since=0");
  const got: string[] = [];
  es.addEventListener("patch", (event) => got.push(String(event.data)));
  let errors = 0;
  let opens = 0;
  es.onopen = () => void opens++;
  es.onerror = () => void errors++;
  await settle();
  assert.equal(es.readyState, 1);
  streams[0]!.write('retry: 100\nid: 3\nevent: patch\ndata: {"seq":3}\n\nid: 4\n\n');
  await settle();
  assert.deepEqual(got, ['{"seq":3}']);
  streams[0]!.end();
  await settle();
  assert.equal(es.readyState, 0, "reconnecting, as EventSource after a drop");
  assert.equal(net.seen.length, 1, "after the stream's retry delay");
  await sleep(150);
  await settle();
  assert.equal(net.seen[1]!.headers["Last-Event-ID"], "4", "the last id, an id-only block's included");
  assert.equal(net.seen[1]!.headers["X-Svc-Session"], "tok");
  assert.equal(net.seen[0]!.headers["Last-Event-ID"], undefined);
  streams[1]!.end();
  await sleep(150);
  await settle();
  assert.equal(es.readyState, 2, "a refused stream is closed for good");
  assert.equal(opens, 2);
  assert.equal(errors, 3, "two drops and the refusal");
  es.close();
});
