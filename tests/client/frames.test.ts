// Frame order, SSE and session signals (docs/protocol.md#sequence-numbers, #sse-stream, #resume,
// #session-rotation, #errors-and-statuses).
// Each test runs with both browser clients (the split client shares the order, transport and recovery).
import assert from "node:assert/strict";
import { eachClient, json, ROOT, settle, sleep, status, TITLE, until } from "./support.ts";

const text = (seq: number, value: string) => ({ seq, patches: [{ id: "r.0#p", text: value }] });

eachClient(
  "the SSE subscription opens the subscribe route under the base path, naming its page load and the page's seq, nothing else",
  async (page) => {
    const p = page(ROOT, { seq: 12, base: "/app" });
    assert.equal(p.sources.length, 1);
    assert.match(p.sse.url, /^\/app\/_svc\/subscribe\?page=[A-Za-z0-9_-]{22}&since=12$/);
    await p.close();
  },
);

eachClient("a sync event at the page's seq changes nothing and asks for no render", async (page) => {
  const p = page(ROOT, { seq: 4 });
  p.sse.event("sync", { seq: 4 });
  await sleep(120);
  assert.equal(p.requests.length, 0);
  assert.equal(p.client.order.lastAppliedSeq, 4);
  await p.close();
});

eachClient(
  "a sync event ahead of the page's seq waits for the missed frames, then resyncs from a render when they do not come",
  async (page) => {
    const p = page(ROOT, {
      seq: 2,
      auto: (
        req,
      ) => (req.url.split("?")[0]!.endsWith("/_svc/render")
        ? new Response(ROOT.replace("count 0", "count 5"), { headers: { "Content-Type": "text/html", "X-Svc-Seq": "5" } })
        : undefined),
    });
    p.sse.event("sync", { seq: 5 });
    assert.equal(p.requests.length, 0, "not at once: the missing frames may still come as replies");
    await sleep(120);
    assert.deepEqual(p.requests.map((r) => r.url.split("?")[0]), ["/_svc/render"]);
    assert.equal(p.el("r.0#p").textContent, "count 5");
    assert.equal(p.client.order.lastAppliedSeq, 5);
    await p.close();
  },
);

eachClient(
  "an event answered 204 (applied already, its reply lost) with the session's seq resyncs when that frame does not come",
  async (page) => {
    const p = page(ROOT, {
      seq: 2,
      auto: (req) => {
        const path = req.url.split("?")[0]!;
        if (path.endsWith("/_svc/event")) return new Response(null, { status: 204, headers: { "X-Svc-Seq": "3" } });
        if (path.endsWith("/_svc/render")) {
          return new Response(ROOT.replace("count 0", "count 3"), { headers: { "Content-Type": "text/html", "X-Svc-Seq": "3" } });
        }
        return undefined;
      },
    });
    p.el("r.2#button").click();
    await sleep(150);
    assert.deepEqual(p.requests.map((r) => r.url.split("?")[0]), ["/_svc/event", "/_svc/render"]);
    assert.equal(p.el("r.0#p").textContent, "count 3");
    assert.equal(p.client.order.lastAppliedSeq, 3);
    await p.close();
  },
);

eachClient("a 204 whose seq the page has reached asks for nothing", async (page) => {
  const p = page(ROOT, {
    seq: 2,
    auto: (req) => (req.url.endsWith("/_svc/event") ? new Response(null, { status: 204, headers: { "X-Svc-Seq": "2" } }) : undefined),
  });
  p.el("r.2#button").click();
  await sleep(150);
  assert.deepEqual(p.requests.map((r) => r.url.split("?")[0]), ["/_svc/event"]);
  await p.close();
});

eachClient("a sync event whose missed frames do arrive needs no render", async (page) => {
  const p = page(ROOT, { seq: 2 });
  p.sse.event("sync", { seq: 3 });
  p.sse.frame(text(3, "three"));
  await sleep(120);
  assert.equal(p.requests.length, 0);
  assert.equal(p.el("r.0#p").textContent, "three");
  await p.close();
});

eachClient(
  "a render event with the moves since the page's last frame reconciles the page at once, and frames continue after its seq",
  async (page) => {
    const p = page(ROOT, { seq: 1 });
    p.sse.event("render", { seq: 30, html: ROOT.replace("count 0", "count 30"), since: 1, moves: [] });
    assert.equal(p.el("r.0#p").textContent, "count 30");
    assert.equal(p.client.order.lastAppliedSeq, 30);
    assert.equal(p.requests.length, 0, "no resync");
    p.sse.frame(text(30, "stale"));
    p.sse.frame(text(31, "thirty-one"));
    assert.equal(p.el("r.0#p").textContent, "thirty-one");
    await p.close();
  },
);

eachClient(
  "a render event without moves, or with moves since another frame than the page's last, resyncs with the page's own since",
  async (page) => {
    for (const extra of [{}, { since: 2, moves: [] }]) {
      const p = page(ROOT, {
        seq: 1,
        auto: (req) =>
          req.url.startsWith("/_svc/render")
            ? new Response(ROOT.replace("count 0", "count 31"), {
              headers: { "Content-Type": "text/html", "X-Svc-Seq": "31", "X-Svc-Moves": "[]" },
            })
            : undefined,
      });
      p.sse.event("render", { seq: 30, html: ROOT.replace("count 0", "count 30"), ...extra });
      await settle();
      assert.deepEqual(p.requests.map((r) => r.url), ["/_svc/render?since=1"], JSON.stringify(extra));
      assert.equal(p.el("r.0#p").textContent, "count 31", "the resync's render, not the stream's");
      assert.equal(p.client.order.lastAppliedSeq, 31);
      await p.close();
    }
  },
);

eachClient("a render event during a resync is left to the resync: the page keeps the ids the resync's moves start from", async (page) => {
  const p = page(ROOT, { seq: 1 });
  const resync = p.client.resync();
  const req = await p.waitFor(1);
  p.sse.event("render", { seq: 30, html: ROOT.replace("count 0", "count 30"), since: 1, moves: [] });
  assert.equal(p.el("r.0#p").textContent, "count 0", "not adopted while the resync is on its way");
  req.respond(
    new Response(ROOT.replace("count 0", "count 32"), { headers: { "Content-Type": "text/html", "X-Svc-Seq": "32", "X-Svc-Moves": "[]" } }),
  );
  await resync;
  assert.equal(p.el("r.0#p").textContent, "count 32");
  assert.equal(p.client.order.lastAppliedSeq, 32);
  await p.close();
});

eachClient("a render event older than what is applied changes nothing", async (page) => {
  const p = page(ROOT, { seq: 1 });
  p.sse.frame(text(2, "two"));
  p.sse.event("render", { seq: 1, html: ROOT.replace("count 0", "old") });
  assert.equal(p.el("r.0#p").textContent, "two");
  assert.equal(p.client.order.lastAppliedSeq, 2);
  await p.close();
});

eachClient("a frame at or below the page's seq is dropped whole", async (page) => {
  const p = page(ROOT, { seq: 5 });
  p.sse.frame(text(5, "five"));
  p.sse.frame(text(3, "three"));
  assert.equal(p.el("r.0#p").textContent, "count 0");
  assert.equal(p.client.order.lastAppliedSeq, 5);
  await p.close();
});

eachClient("a duplicate SSE frame and the reply carrying the same frame are applied once", async (page) => {
  const p = page(
    `<div svc-id="r"><ul svc-id="r.0#ul"></ul><button svc-id="r.1#button" data-svc-hid="r.1#button" data-svc-on="click" data-svc-click="Add">+</button></div>`,
  );
  const add = { seq: 1, patches: [{ id: "r.0#ul", kids: [{ html: `<li svc-id="r.0#ul.0#li">1</li>` }] }] };
  p.el("r.1#button").click();
  const req = await p.waitFor(1);
  p.sse.frame(add);
  p.sse.frame(add);
  req.respond(json({ ...add, respondingTo: 1 }));
  await settle();
  assert.equal(p.el("r.0#ul").innerHTML, `<li svc-id="r.0#ul.0#li">1</li>`);
  await p.close();
});

eachClient("out-of-order frames are applied in seq order: a later frame waits for the earlier one", async (page) => {
  const p = page(ROOT);
  p.sse.frame(text(3, "three"));
  p.sse.frame(text(2, "two"));
  assert.equal(p.el("r.0#p").textContent, "count 0");
  assert.equal(p.client.order.lastAppliedSeq, 0);
  p.sse.frame(text(1, "one"));
  assert.equal(p.el("r.0#p").textContent, "three");
  assert.equal(p.client.order.lastAppliedSeq, 3);
  await p.close();
});

eachClient("replies arriving out of order with SSE frames in between end in the last frame's state", async (page) => {
  const p = page(ROOT, { options: { debounceMs: 0 } });
  p.el("r.2#button").click();
  const r1 = await p.waitFor(1);
  p.sse.frame(text(1, "count 1")); // the stream is faster than the reply
  r1.respond(json({ ...text(1, "count 1"), respondingTo: 1 }));
  p.el("r.2#button").click();
  const r2 = await p.waitFor(2);
  p.sse.frame(text(3, "count 2 (tick)")); // a background frame overtakes the reply
  r2.respond(json({ ...text(2, "count 2"), respondingTo: 2 }));
  await settle();
  assert.equal(p.el("r.0#p").textContent, "count 2 (tick)");
  assert.equal(p.client.order.lastAppliedSeq, 3);
  await p.close();
});

eachClient("a gap that does not fill resyncs from a full render and continues after its seq", async (page) => {
  const p = page(ROOT, {
    auto: (
      req,
    ) => (req.url.split("?")[0]!.endsWith("/_svc/render")
      ? new Response(ROOT.replace("count 0", "count 4"), { headers: { "Content-Type": "text/html", "X-Svc-Seq": "4" } })
      : undefined),
  });
  p.sse.frame(text(3, "three"));
  await sleep(120);
  assert.equal(p.el("r.0#p").textContent, "count 4");
  assert.equal(p.client.order.lastAppliedSeq, 4);
  p.sse.frame(text(5, "five"));
  assert.equal(p.el("r.0#p").textContent, "five");
  await p.close();
});

eachClient("a dropped connection is left to the browser, which reconnects with Last-Event-ID itself", async (page) => {
  const p = page(ROOT);
  p.sse.frame(text(1, "one"));
  const first = p.sse;
  first.error();
  await sleep(400);
  assert.equal(first.closed, false);
  assert.equal(p.sources.length, 1, "no second EventSource");
  first.readyState = 1;
  first.frame(text(2, "two"));
  assert.equal(p.el("r.0#p").textContent, "two");
  await p.close();
});

eachClient(
  "a stream the browser gave up on is closed and opened again after a delay, from the last applied frame; the old one's events are ignored",
  async (page) => {
    const p = page(ROOT);
    p.sse.frame(text(1, "one"));
    const first = p.sse;
    first.fail();
    assert.equal(first.closed, true);
    await sleep(400);
    assert.equal(p.sources.length, 2);
    assert.match(first.url, /&since=0$/, "the first stream named the page's seq");
    assert.match(p.sse.url, /^\/_svc\/subscribe\?page=[A-Za-z0-9_-]{22}&since=1$/, "the new one names the frame applied since");
    first.frame(text(2, "from the closed stream"));
    assert.equal(p.el("r.0#p").textContent, "one");
    await p.close();
  },
);

eachClient(
  "the stream's session-lost signal (an eviction while the page is open) reloads the page and the stream stays closed",
  async (page) => {
    const p = page(ROOT);
    p.sse.frame(text(1, "one"));
    const stream = p.sse;
    stream.lost();
    assert.equal(p.reloads, 1);
    assert.equal(stream.closed, true);
    stream.fail();
    await sleep(400);
    assert.equal(p.sources.length, 1, "no reconnect after the signal");
    await p.close();
  },
);

eachClient("a session-lost reply reloads the page and nothing more is sent", async (page) => {
  const p = page(ROOT, { auto: () => status(404, "session-lost") });
  p.el("r.2#button").click();
  await settle();
  assert.equal(p.reloads, 1);
  p.el("r.2#button").click();
  await settle();
  assert.equal(p.requests.length, 1);
  await p.close();
});

eachClient("a session-ended reply (the tab's own sign-out) reloads the page and nothing more is sent", async (page) => {
  const p = page(ROOT, { auto: () => new Response(null, { status: 205, headers: { "X-Svc-Status": "session-ended" } }) });
  p.el("r.2#button").click();
  await settle();
  assert.equal(p.reloads, 1);
  p.el("r.2#button").click();
  await settle();
  assert.equal(p.requests.length, 1);
  await p.close();
});

eachClient("a stream's lost signal during an event waits for that event's reply (a sign-out's cookies) before the reload", async (page) => {
  const p = page(ROOT);
  p.el("r.2#button").click();
  await settle();
  assert.equal(p.requests.length, 1, "the event is on its way");
  p.sse.event("lost", {});
  await settle();
  assert.equal(p.reloads, 0, "not before the reply: it may carry the cookies that end the sign-in");
  p.requests[0]!.respond(new Response(null, { status: 205, headers: { "X-Svc-Status": "session-ended" } }));
  await settle();
  assert.equal(p.reloads, 1);
  await p.close();
});

eachClient("a stream's lost signal with no event on its way reloads at once", async (page) => {
  const p = page(ROOT);
  p.sse.event("lost", {});
  await settle();
  assert.equal(p.reloads, 1);
  await p.close();
});

eachClient("a plain 404 (a restarted server) reloads the page too", async (page) => {
  const p = page(ROOT, { auto: () => new Response("not found", { status: 404 }) });
  p.el("r.2#button").click();
  await settle();
  assert.equal(p.reloads, 1);
  await p.close();
});

eachClient("session-rotating is retried with backoff; a held rotation ticket is exchanged first", async (page) => {
  let rotating = 2;
  const p = page(ROOT, {
    auto: (req) => {
      if (req.url.endsWith("/_svc/rotate")) return new Response(null, { status: 204, headers: { "X-Svc-Sid": "h3" } });
      const seq = Number(req.body?.seq);
      if (seq === 1) return json({ seq: 1, patches: [] }, { "X-Svc-Rotation": "ticket-1", "X-Svc-Sid": "h2" });
      if (rotating-- > 0) return status(409, "session-rotating");
      return json({ seq: 2, patches: [] });
    },
  });
  p.el("r.2#button").click();
  await settle();
  assert.equal(p.client.sessionId, "h2", "X-Svc-Sid is adopted");
  p.el("r.2#button").click();
  await until(() => p.requests.length >= 5);
  const urls = p.requests.map((r) => r.url.replace("/_svc/", ""));
  assert.deepEqual(urls, ["event", "event", "rotate", "event", "event"]);
  const rotate = p.requests[2]!;
  assert.equal(rotate.method, "POST");
  assert.deepEqual([rotate.headers["X-Svc-Rotation"], rotate.headers["X-Svc-Csrf"]], ["ticket-1", "tok"]);
  assert.deepEqual(p.requests.slice(1).filter((r) => r.body).map((r) => [r.body?.seq, r.body?.sessionId]), [[2, "h2"], [2, "h3"], [
    2,
    "h3",
  ]]);
  assert.equal(p.reloads, 0);
  await p.close();
});

eachClient(
  "a rotation's new CSRF token (X-Svc-Csrf beside X-Svc-Sid) is sent by every later request, the ticket exchange's token by those after it",
  async (page) => {
    let rotating = 1;
    const p = page(ROOT, {
      auto: (req) => {
        if (req.url.endsWith("/_svc/rotate")) {
          return new Response(null, { status: 204, headers: { "X-Svc-Sid": "h3", "X-Svc-Csrf": "tok-3" } });
        }
        const seq = Number(req.body?.seq);
        if (seq === 1) return json({ seq: 1, patches: [] }, { "X-Svc-Rotation": "ticket-1", "X-Svc-Sid": "h2", "X-Svc-Csrf": "tok-2" });
        if (rotating-- > 0) return status(409, "session-rotating");
        return json({ seq, patches: [] });
      },
    });
    p.el("r.2#button").click();
    await settle();
    p.el("r.2#button").click();
    await until(() => p.requests.length >= 4);
    const sent = p.requests.map((r) => [r.url.replace("/_svc/", ""), r.headers["X-Svc-Csrf"]]);
    assert.deepEqual(sent, [["event", "tok"], ["event", "tok-2"], ["rotate", "tok-2"], ["event", "tok-3"]]);
    assert.equal(p.reloads, 0);
    await p.close();
  },
);

eachClient("an app error keeps the reported inputs dirty, and they go again with the next event", async (page) => {
  const p = page(ROOT, {
    options: { debounceMs: 5 },
    auto: (
      req,
    ) => (req.body?.seq === 1
      ? new Response("{}", { status: 500, headers: { "X-Svc-Status": "app-error" } })
      : json({ seq: 1, ackInputs: { [TITLE]: 2 }, patches: [] })),
  });
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "keep");
  await p.waitFor(1);
  await settle();
  assert.equal(p.client.inputs.dirty(p.client.inputs.of(title)!), true);
  assert.match(p.logs.join("\n"), /refused: 500 app-error/);
  p.el("r.2#button").click();
  const next = await p.waitFor(2);
  // Unchanged since it was first reported: it keeps the seq of that first report.
  assert.deepEqual(next.body?.inputState, { [TITLE]: { value: "keep", seq: 1 } });
  await settle();
  assert.equal(p.client.inputs.dirty(p.client.inputs.of(title)!), false);
  await p.close();
});

eachClient("a 400 reply drops the message, logs it, and the queue carries on", async (page) => {
  const p = page(ROOT, {
    auto: (
      req,
    ) => (req.body?.seq === 1 ? json({ error: "unknown_message" }, {}, 400) : json({ seq: 1, patches: [{ id: "r.0#p", text: "ok" }] })),
  });
  p.el("r.2#button").click();
  p.el("r.2#button").click();
  await p.waitFor(2);
  await settle();
  assert.match(p.logs.join("\n"), /refused: 400/);
  assert.equal(p.el("r.0#p").textContent, "ok");
  await p.close();
});

eachClient("gate-unavailable (503) is retried after the server's Retry-After", async (page) => {
  let first = true;
  const p = page(ROOT, {
    auto: () => {
      if (!first) return json({ seq: 1, patches: [{ id: "r.0#p", text: "count 1" }] });
      first = false;
      return status(503, "gate-unavailable", { "Retry-After": "0.05" });
    },
  });
  p.el("r.2#button").click();
  await sleep(120);
  assert.equal(p.requests.length, 2);
  assert.deepEqual([p.requests[1]?.body?.seq, p.requests[1]?.body?.msg], [1, "Inc"]);
  assert.equal(p.el("r.0#p").textContent, "count 1");
  await p.close();
});
