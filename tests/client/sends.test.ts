// Event requests: delegation, seq, inputState, headers, debounce, the send queue, submit, keydown,
// change (docs/protocol.md#event-request, docs/protocol.md#input-state, docs/protocol.md#client-rules).
import { test } from "node:test";
import assert from "node:assert/strict";
import { eachClient, json, page, pageOf, ROOT, settle, sleep, TITLE } from "./support.ts";

const noPatches = (seq: number, extra: Record<string, unknown> = {}) => json({ seq, patches: [], ...extra });

test("a click on a handler posts seq 1 with the message, handler id, session id, CSRF header and same-origin credentials", async () => {
  const p = page(ROOT, { base: "/app" });
  p.el("r.2#button").click();
  const req = await p.waitFor(1);
  assert.equal(req.url, "/app/_svc/event");
  assert.equal(req.method, "POST");
  assert.equal(req.headers["X-Svc-Csrf"], "tok");
  assert.equal(req.init.credentials, "same-origin");
  assert.deepEqual(req.body, {
    seq: 1,
    msg: "Inc",
    args: [],
    handlerId: "r.2#button",
    lastAppliedSeq: 0,
    sessionId: "h1",
    page: pageOf(req.body),
  });
  await p.close();
});

test("the client seq rises by one per event and only one request is in flight at a time", async () => {
  const p = page(ROOT);
  p.el("r.2#button").click();
  p.el("r.2#button").click();
  const first = await p.waitFor(1);
  await settle();
  assert.equal(p.requests.length, 1, "the second click waits for the first reply");
  first.respond(noPatches(1));
  const second = await p.waitFor(2);
  assert.equal(second.body?.seq, 2);
  await p.close();
});

test("keystrokes within the debounce become one input send carrying the final value, reported dirty in inputState", async () => {
  // A debounce well above the few event-loop turns of settle(), even on a loaded machine.
  const p = page(ROOT, { options: { debounceMs: 300 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "abc");
  await settle();
  assert.equal(p.requests.length, 0, "nothing is sent while the debounce is pending");
  const req = await p.waitFor(1);
  assert.deepEqual(req.body, {
    seq: 1,
    msg: "SetTitle",
    args: ["abc"],
    handlerId: TITLE,
    lastAppliedSeq: 0,
    sessionId: "h1",
    page: pageOf(req.body),
    inputState: { [TITLE]: { value: "abc", seq: 1 } },
  });
  await p.close();
});

test("data-svc-debounce overrides the default debounce per element", async () => {
  const p = page(ROOT.replace('name="title">', 'name="title" data-svc-debounce="0">'));
  p.type(p.el<HTMLInputElement>(TITLE), "x");
  await settle();
  assert.equal(p.requests.length, 1);
  assert.deepEqual(p.requests[0]?.body?.args, ["x"]);
  await p.close();
});

test("a click flushes the pending debounced input first, so the server sees the typed value before the message", async () => {
  const p = page(ROOT, { auto: (req) => noPatches(Number(req.body?.seq)) });
  p.type(p.el<HTMLInputElement>(TITLE), "hi");
  p.el("r.2#button").click();
  await p.waitFor(2);
  assert.deepEqual(p.requests.map((r) => [r.body?.seq, r.body?.msg, r.body?.args]), [[1, "SetTitle", ["hi"]], [2, "Inc", []]]);
  await p.close();
});

test("while a request is in flight, a newer input send of the same handler replaces the queued one and reads the latest value", async () => {
  const p = page(ROOT, { options: { debounceMs: 0 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.el("r.2#button").click();
  const first = await p.waitFor(1);
  p.type(title, "abcd");
  await settle();
  first.respond(noPatches(1));
  const second = await p.waitFor(2);
  second.respond(noPatches(2));
  await settle();
  assert.equal(p.requests.length, 2);
  assert.deepEqual(second.body?.args, ["abcd"]);
  assert.deepEqual(second.body?.inputState, { [TITLE]: { value: "abcd", seq: 2 } });
  await p.close();
});

test("a blur sends the pending debounced value at once", async () => {
  const p = page(ROOT, { options: { debounceMs: 10_000 } });
  const title = p.el<HTMLInputElement>(TITLE);
  title.focus();
  p.type(title, "q");
  title.blur();
  const req = await p.waitFor(1);
  assert.deepEqual(req.body?.args, ["q"]);
  await p.close();
});

test("a checkbox change appends its checked state and reports it as checked in inputState", async () => {
  const p = page(ROOT);
  const box = p.el<HTMLInputElement>("r.#input:done");
  box.click();
  const req = await p.waitFor(1);
  assert.deepEqual(req.body?.args, [7, true]);
  assert.deepEqual(req.body?.inputState, { "r.#input:done": { value: "checked", seq: 1 } });
  await p.close();
});

test("a select change appends the selected value", async () => {
  const p = page(ROOT);
  const select = p.el<HTMLSelectElement>("r.#select:size");
  select.value = "m";
  p.fire(select, "change");
  const req = await p.waitFor(1);
  assert.deepEqual([req.body?.msg, req.body?.args], ["SetSize", ["m"]]);
  await p.close();
});

eachClient("changes made while a request is in flight are posted as the user made them, each in its turn", async (page) => {
  const p = page(ROOT);
  p.el("r.2#button").click();
  const first = await p.waitFor(1);
  // Two choices of the select and a tick and untick of the checkbox, all waiting for the first reply.
  const select = p.el<HTMLSelectElement>("r.#select:size");
  select.value = "m";
  p.fire(select, "change");
  select.value = "s";
  p.fire(select, "change");
  const box = p.el<HTMLInputElement>("r.#input:done");
  box.click();
  box.click();
  await settle();
  first.respond(noPatches(1));
  for (let seq = 2; seq <= 5; seq++) (await p.waitFor(seq)).respond(noPatches(seq));
  await settle();
  assert.deepEqual(p.requests.map((r) => [r.body?.msg, r.body?.args]), [
    ["Inc", []],
    ["SetSize", ["m"]],
    ["SetSize", ["s"]],
    ["Toggle", [7, true]],
    ["Toggle", [7, false]],
  ]);
  // Each input is reported as the page shows it, under the seq of the send that carries that
  // value (no ack came): the select's "s" with its second change (3), not its first (2), and the
  // checkbox's untick with the send that carries it (5), so neither is clean before then.
  assert.deepEqual((p.requests[2]?.body?.inputState as Record<string, unknown> | undefined)?.["r.#select:size"], { value: "s", seq: 3 });
  assert.deepEqual(p.requests[4]?.body?.inputState, { "r.#select:size": { value: "s", seq: 3 }, "r.#input:done": { value: "", seq: 5 } });
  await p.close();
});

test("a submit is prevented and sends the handler's args followed by the form's fields as strings", async () => {
  const p = page(ROOT);
  const note = p.el<HTMLInputElement>("r.#form:f.#input:note");
  note.value = "remember";
  const allowed = p.fire(p.el("r.#form:f"), "submit");
  assert.equal(allowed, false, "the default submission is prevented");
  const req = await p.waitFor(1);
  assert.deepEqual([req.body?.msg, req.body?.args, req.body?.handlerId], ["Add", [1, { note: "remember" }], "r.#form:f"]);
  await p.close();
});

test("a filtered keydown handler sends only for its key", async () => {
  const p = page(ROOT);
  const input = p.el("r.6#input");
  p.fire(input, "keydown", { key: "a" });
  p.fire(input, "keydown", { key: "Enter" });
  const req = await p.waitFor(1);
  await settle();
  assert.equal(p.requests.length, 1);
  assert.deepEqual([req.body?.msg, req.body?.handlerId], ["Send", "r.6#input"]);
  await p.close();
});

test("events outside the root and on elements without a handler send nothing", async () => {
  const p = page(`<div id="outside"><button data-svc-hid="x" data-svc-on="click" data-svc-click="Inc">x</button></div>` + ROOT);
  (p.doc.querySelector("#outside button") as HTMLElement).click();
  p.el("r.0#p").click();
  await sleep(30);
  assert.equal(p.requests.length, 0);
  await p.close();
});

test("an input without an input handler is tracked for protection but sends nothing", async () => {
  const p = page(ROOT);
  const free = p.el<HTMLInputElement>("r.#input:free");
  free.focus();
  p.type(free, "zz");
  await sleep(40);
  assert.equal(p.requests.length, 0);
  assert.equal(p.client.inputs.of(free)?.typed, true);
  assert.equal(p.client.inputs.dirty(p.client.inputs.of(free)!), true);
  await p.close();
});

test("a reply's frame is applied and the in-flight request's inputs are acked from it", async () => {
  const p = page(ROOT, { options: { debounceMs: 0 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "a");
  const req = await p.waitFor(1);
  const entry = p.client.inputs.of(title)!;
  assert.equal(entry.lastSentSeq, 1);
  assert.equal(p.client.inputs.dirty(entry), true, "sent but not acked is dirty");
  req.respond(json({ seq: 1, ackInputs: { [TITLE]: 1 }, respondingTo: 1, patches: [{ id: "r.0#p", text: "count 1" }] }));
  await settle();
  assert.equal(entry.lastAckedSeq, 1);
  assert.equal(p.client.inputs.dirty(entry), false);
  assert.equal(p.el("r.0#p").textContent, "count 1");
  assert.equal(p.client.order.lastAppliedSeq, 1);
  await p.close();
});
