// IME composition, the navigation flush and the unload beacon (docs/protocol.md#client-rules
// rules 7, 8 and 9; G2).
// Each test runs with both browser clients (the split client shares these rules).
import assert from "node:assert/strict";
import { eachClient, pageOf, ROOT, settle, sleep, TITLE } from "./support.ts";

/** The page with its link's handler taken away: a plain anchor, whose click only flushes. */
const PLAIN_ANCHOR = ROOT.replace(
  `<a svc-id="r.5#a" href="#next" data-svc-hid="r.5#a" data-svc-on="click" data-svc-click="Navigate">`,
  `<a svc-id="r.5#a" href="#elsewhere">`,
);

eachClient("no input is dispatched while a composition is open; compositionend dispatches the committed text once", async (page) => {
  const p = page(ROOT, { options: { debounceMs: 5 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.fire(title, "compositionstart");
  for (const partial of ["n", "ni", "に"]) {
    title.value = partial;
    p.fire(title, "input", { isComposing: true });
  }
  await sleep(30);
  assert.equal(p.requests.length, 0);
  title.value = "日本";
  p.fire(title, "compositionend", { data: "日本" });
  p.fire(title, "input"); // some browsers follow with a non-composing input of the same value
  await sleep(30);
  assert.equal(p.events().length, 1);
  assert.deepEqual(p.events()[0]?.body?.args, ["日本"]);
  assert.deepEqual(p.events()[0]?.body?.inputState, { [TITLE]: { value: "日本", seq: 1 } });
  await p.close();
});

eachClient("an Enter that confirms a composition does not fire the Enter handler", async (page) => {
  const p = page(ROOT);
  const input = p.el("r.6#input");
  p.fire(input, "compositionstart");
  p.fire(input, "keydown", { key: "Enter", isComposing: true });
  p.fire(input, "compositionend", { data: "字" });
  p.fire(input, "keydown", { key: "Enter", keyCode: 229 }); // Safari's order: compositionend first
  await sleep(20);
  assert.equal(p.events().length, 0);
  p.fire(input, "keydown", { key: "Enter" });
  await p.waitFor(1);
  assert.equal(p.events()[0]?.body?.msg, "Send");
  await p.close();
});

eachClient("a pending debounce is sent as it is when a composition starts, and no value patch is written while composing", async (page) => {
  const p = page(ROOT, { options: { debounceMs: 1000 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "a");
  p.fire(title, "compositionstart");
  const req = await p.waitFor(1);
  assert.deepEqual(req.body?.args, ["a"]);
  title.value = "aか";
  p.fire(title, "input", { isComposing: true });
  p.sse.frame({ seq: 1, ackInputs: { [TITLE]: 1 }, patches: [{ id: TITLE, attrs: { value: "A" } }] });
  assert.equal(title.value, "aか");
  await p.close();
});

eachClient(
  "a click on an anchor flushes the pending values and its own message in one keepalive batch, without preventing the default",
  async (page) => {
    const p = page(ROOT, { options: { debounceMs: 10_000 } });
    const title = p.el<HTMLInputElement>(TITLE);
    p.type(title, "final value");
    const notPrevented = p.fire(p.el("r.5#a"), "click");
    assert.equal(notPrevented, true);
    await settle();
    assert.equal(p.requests.length, 1);
    const batch = p.requests[0]!;
    assert.equal(batch.init.keepalive, true);
    assert.equal(batch.headers["X-Svc-Csrf"], "tok");
    assert.equal(p.doc.documentElement.hasAttribute("data-svc-busy"), false, "no loader");
    assert.deepEqual(batch.body, {
      sessionId: "h1",
      page: pageOf(batch.body),
      inputState: { [TITLE]: { value: "final value", seq: 1 } },
      batch: [
        { seq: 1, msg: "SetTitle", args: ["final value"], handlerId: TITLE },
        { seq: 2, msg: "Navigate", args: [], handlerId: "r.5#a" },
      ],
      lastAppliedSeq: 0,
    });
    await p.close();
  },
);

eachClient(
  "an anchor without a handler still flushes pending sends, including ones queued behind a request in flight, and re-sends the one in flight first",
  async (page) => {
    const p = page(PLAIN_ANCHOR, { options: { debounceMs: 10_000 } });
    p.el("r.2#button").click();
    await p.waitFor(1);
    p.el("r.2#button").click(); // queued behind the first
    p.type(p.el<HTMLInputElement>(TITLE), "x");
    p.el("r.5#a").click();
    await settle();
    assert.equal(p.requests.length, 2);
    const [inFlight, batch] = p.requests as [(typeof p.requests)[number], (typeof p.requests)[number]];
    // The batch may reach the server first: it carries the request in flight under its own seq, and
    // the server processes that seq of this page once (tests/live-server: duplicates).
    assert.deepEqual((batch.body?.batch as { seq: number; msg: string }[]).map((e) => [e.seq, e.msg]), [[1, "Inc"], [2, "Inc"], [
      3,
      "SetTitle",
    ]]);
    assert.equal(inFlight.body?.seq, 1);
    assert.equal(pageOf(batch.body), pageOf(inFlight.body), "one page id for every body of a page load");
    await p.close();
  },
);

eachClient("each page load has its own page id", async (page) => {
  const ids = [];
  for (let i = 0; i < 2; i++) {
    const p = page(ROOT);
    p.el("r.2#button").click();
    await p.waitFor(1);
    ids.push(pageOf(p.requests[0]!.body));
    await p.close();
  }
  assert.notEqual(ids[0], ids[1]);
});

eachClient("on pagehide every pending send goes in one beacon batch with the CSRF token in the body", async (page) => {
  const p = page(ROOT, { options: { debounceMs: 10_000 } });
  p.type(p.el<HTMLInputElement>(TITLE), "unsaved");
  p.el<HTMLTextAreaElement>("r.#textarea:body").value = "notes";
  p.fire(p.el("r.#textarea:body"), "input");
  p.win.dispatchEvent(new p.win.Event("pagehide"));
  assert.equal(p.beacons.length, 1);
  assert.equal(p.beacons[0]?.url, "/_svc/event");
  assert.deepEqual(p.beacons[0]?.body, {
    csrf: "tok",
    sessionId: "h1",
    page: pageOf(p.beacons[0]?.body),
    inputState: { [TITLE]: { value: "unsaved", seq: 1 }, "r.#textarea:body": { value: "notes", seq: 1 } },
    batch: [
      { seq: 1, msg: "SetTitle", args: ["unsaved"], handlerId: TITLE },
      { seq: 2, msg: "SetBody", args: ["notes"], handlerId: "r.#textarea:body" },
    ],
    lastAppliedSeq: 0,
  });
  await sleep(20);
  assert.equal(p.requests.length, 0, "nothing else is posted");
  await p.close();
});

eachClient("pagehide with only a request in flight re-sends it in the beacon, under its own seq", async (page) => {
  // The unload may abort the request (a proxy in front then drops it unread); the server
  // processes a page's seq once, whichever copy arrives first.
  const p = page(ROOT);
  p.type(p.el<HTMLInputElement>(TITLE), "last keystroke");
  await p.waitFor(1);
  p.win.dispatchEvent(new p.win.Event("pagehide"));
  assert.equal(p.beacons.length, 1);
  const batch = p.beacons[0]?.body?.batch as { seq: number; msg: string; args: unknown[] }[];
  assert.deepEqual(batch.map((e) => [e.seq, e.msg, e.args]), [[1, "SetTitle", ["last keystroke"]]]);
  assert.equal(pageOf(p.beacons[0]?.body), pageOf(p.requests[0]!.body));
  await p.close();
});

eachClient(
  "an anchor click with only a request in flight re-sends it in the keepalive batch, and the unload then repeats it no more",
  async (page) => {
    const p = page(PLAIN_ANCHOR);
    p.el("r.2#button").click();
    await p.waitFor(1);
    p.el("r.5#a").click();
    await settle();
    assert.equal(p.requests.length, 2);
    assert.equal(p.requests[1]!.init.keepalive, true);
    assert.deepEqual((p.requests[1]!.body?.batch as { seq: number; msg: string }[]).map((e) => [e.seq, e.msg]), [[1, "Inc"]]);
    p.win.dispatchEvent(new p.win.Event("pagehide"));
    assert.equal(p.beacons.length, 0, "the batch carried it already");
    await p.close();
  },
);

eachClient("pagehide with nothing pending sends no beacon", async (page) => {
  const p = page(ROOT);
  p.win.dispatchEvent(new p.win.Event("pagehide"));
  assert.equal(p.beacons.length, 0);
  await p.close();
});
