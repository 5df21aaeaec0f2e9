// The resend queue (docs/protocol.md#resend): an event that gets no answer (a network error, a
// timeout, 502, 503, 504) goes again with the same body, so the same (page, seq), in order, later
// events waiting behind it; the waits grow up to a cap with jitter; the reconnecting state shows
// while it fails and clears when it is answered.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { backoffMs, resendable, resendDelayMs } from "../../client/resend.ts";
import { RECONNECTING_CLASS, RECONNECTING_REGION_ID, RECONNECTING_TEXT } from "../../client/reconnecting.ts";
import { json, page, ROOT, settle, sleep, status, TITLE } from "./support.ts";

const seed = Number(process.env["FC_SEED"] ?? Date.now() % 2 ** 31);
console.log(`resend property: fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

const noPatches = (seq: number) => json({ seq, patches: [] });
const DELAYS = { retryMs: 100, retryCapMs: 5_000, timeoutMs: 10_000 };

/** Waits until `check` holds (a state the client reaches after timers), failing after `ms`. */
async function until(check: () => boolean, what: string, ms = 2_000): Promise<void> {
  for (const start = Date.now(); !check(); await sleep(2)) if (Date.now() - start > ms) assert.fail(`never: ${what}`);
}

test("a click whose request fails by network error is sent again with the same body, and the click behind it waits", async () => {
  const p = page(ROOT);
  p.el("r.2#button").click();
  p.el("r.#input:done").click();
  const first = await p.waitFor(1);
  await settle();
  assert.equal(p.requests.length, 1, "the change waits behind the click");
  first.fail(new TypeError("Failed to fetch"));
  const again = await p.waitFor(2);
  assert.deepEqual(again.body, first.body, "the same seq, page, message and input state");
  assert.equal(again.body?.seq, 1);
  await settle();
  assert.equal(p.requests.length, 2, "still nothing behind it");
  again.respond(noPatches(1));
  const next = await p.waitFor(3);
  assert.deepEqual([next.body?.seq, next.body?.msg], [2, "Toggle"]);
  assert.equal(next.body?.page, first.body?.page);
  await p.close();
});

test("502, 503 from a draining replica, and 504 are sent again until answered; the order of events is kept", async () => {
  const answers = [status(502), status(503, "draining", { "Retry-After": "1" }), status(504)];
  const p = page(ROOT, {
    auto: (req) => answers.shift() ?? noPatches(Number(req.body?.seq)),
  });
  p.el("r.2#button").click();
  p.fire(p.el("r.6#input"), "keydown", { key: "Enter" });
  const form = p.el<HTMLFormElement>("r.#form:f");
  form.requestSubmit();
  await p.waitFor(6);
  await settle();
  const sent = p.events().map((r) => [r.body?.seq, r.body?.msg]);
  assert.deepEqual(sent, [[1, "Inc"], [1, "Inc"], [1, "Inc"], [1, "Inc"], [2, "Send"], [3, "Add"]]);
  await p.close();
});

test("a 400 or a 500 is an answer: the event is not sent again", async () => {
  const p = page(ROOT, { auto: () => status(400) });
  p.el("r.2#button").click();
  await p.waitFor(1);
  await sleep(30);
  assert.equal(p.requests.length, 1);
  await p.close();
});

test("an attempt without an answer within timeoutMs is abandoned and sent again", async () => {
  const p = page(ROOT, { options: { timeoutMs: 40 } });
  p.el("r.2#button").click();
  const first = await p.waitFor(1);
  const again = await p.waitFor(2);
  assert.deepEqual(again.body, first.body);
  assert.equal((first.init.signal as AbortSignal | undefined)?.aborted, true, "the abandoned attempt was aborted");
  again.respond(noPatches(1));
  await p.close();
});

test("a resend answered 204 (its first copy was applied, its reply lost) is not applied again: the page waits for that frame and resyncs", async () => {
  const p = page(ROOT, { options: { debounceMs: 0 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "h");
  const first = await p.waitFor(1);
  assert.deepEqual(first.body?.inputState, { [TITLE]: { value: "h", seq: 1 } });
  first.respond(status(502));
  const again = await p.waitFor(2);
  assert.deepEqual(again.body, first.body, "the typed value goes again under its first seq");
  again.respond(status(204, undefined, { "X-Svc-Seq": "1" }));
  // Frame 1 answered the first copy and never came: a gap, filled by a render with the acks.
  const render = await p.waitFor(3);
  assert.match(render.url, /\/_svc\/render\?since=0$/);
  render.respond(
    new Response(`<main svc-id="r"><p svc-id="r.0#p">count 0</p></main>`, {
      headers: { "X-Svc-Seq": "1", "X-Svc-Ack-Inputs": JSON.stringify({ [TITLE]: 1 }) },
    }),
  );
  await settle();
  assert.equal(p.client.order.lastAppliedSeq, 1);
  assert.equal(p.events().length, 2, "sent twice, under one seq, and nothing more");
  await p.close();
});

test("typing while an input send is being resent loses nothing: the newer value goes next, under the next seq", async () => {
  const p = page(ROOT, { options: { debounceMs: 0 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "a");
  const first = await p.waitFor(1);
  first.fail(new TypeError("network"));
  const again = await p.waitFor(2);
  p.type(title, "bc");
  await settle();
  assert.equal(p.requests.length, 2, "the newer value waits");
  again.respond(json({ seq: 1, patches: [], ackInputs: { [TITLE]: 1 } }));
  const next = await p.waitFor(3);
  assert.deepEqual([next.body?.seq, next.body?.args], [2, ["abc"]]);
  assert.deepEqual(next.body?.inputState, { [TITLE]: { value: "abc", seq: 2 } });
  await p.close();
});

test("after failing for reconnectingMs the page shows the reconnecting state, and an answer clears it", async () => {
  const p = page(ROOT, { options: { reconnectingMs: 30 } });
  const html = p.doc.documentElement;
  p.el("r.2#button").click();
  (await p.waitFor(1)).respond(status(502));
  await until(() => html.classList.contains(RECONNECTING_CLASS), "the class is set");
  const region = p.doc.getElementById(RECONNECTING_REGION_ID);
  assert.equal(region?.getAttribute("aria-live"), "polite");
  assert.equal(region?.textContent, RECONNECTING_TEXT);
  assert.equal(p.doc.querySelector('[svc-id="r"]')?.contains(region ?? null), false, "outside the app's root");
  const last = p.requests[p.requests.length - 1]!;
  await settle();
  // Answer whichever attempt is in flight now.
  const pending = p.requests.length;
  (p.requests[pending - 1] ?? last).respond(noPatches(1));
  await until(() => !html.classList.contains(RECONNECTING_CLASS), "the class is cleared");
  assert.equal(p.doc.getElementById(RECONNECTING_REGION_ID)?.textContent, "");
  await p.close();
});

test("a request answered at once never shows the reconnecting state", async () => {
  const p = page(ROOT, { options: { reconnectingMs: 5 }, auto: (req) => noPatches(Number(req.body?.seq)) });
  p.el("r.2#button").click();
  await p.waitFor(1);
  await sleep(30);
  assert.equal(p.doc.documentElement.classList.contains(RECONNECTING_CLASS), false);
  assert.equal(p.doc.getElementById(RECONNECTING_REGION_ID), null, "no live region until something fails");
  await p.close();
});

test("the navigation batch is sent again unchanged while it gets 502", async () => {
  let failures = 2;
  const p = page(ROOT, { auto: (req) => (req.body !== undefined && "batch" in req.body && failures-- > 0 ? status(502) : undefined) });
  p.type(p.el<HTMLInputElement>(TITLE), "go");
  p.el("r.5#a").click();
  await p.waitFor(3);
  const batches = p.requests.filter((r) => r.body !== undefined && "batch" in r.body);
  assert.equal(batches.length, 3);
  assert.deepEqual(batches[1]?.body, batches[0]?.body);
  assert.deepEqual(batches[2]?.body, batches[0]?.body);
  assert.equal(batches[0]?.init.keepalive, true);
  await p.close();
});

test("backoff: each wait is between half of and the whole capped exponential step", () => {
  fc.assert(
    fc.property(fc.nat(60), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
      const step = Math.min(DELAYS.retryCapMs, DELAYS.retryMs * 2 ** attempt);
      const wait = backoffMs(attempt, DELAYS, () => r);
      return wait >= step / 2 && wait <= step && wait <= DELAYS.retryCapMs;
    }),
    { seed },
  );
  assert.deepEqual([0, 1, 2, 3].map((a) => backoffMs(a, DELAYS, () => 0)), [50, 100, 200, 400], "doubles from retryMs");
  assert.equal(backoffMs(40, DELAYS, () => 0.999999), DELAYS.retryCapMs * (0.5 + 0.5 * 0.999999), "capped");
});

test("resendDelayMs: the app's own 503 waits its Retry-After (capped), a draining replica's and a proxy's take the backoff", () => {
  const fixed = () => 0;
  const gate = status(503, "gate-unavailable", { "Retry-After": "2" });
  assert.equal(resendDelayMs(gate, 0, DELAYS, fixed), 2_000);
  assert.equal(resendDelayMs(status(503, "gate-unavailable", { "Retry-After": "60" }), 0, DELAYS, fixed), DELAYS.retryCapMs);
  assert.equal(resendDelayMs(status(503, "draining", { "Retry-After": "1" }), 0, DELAYS, fixed), 50);
  assert.equal(resendDelayMs(status(502), 2, DELAYS, fixed), 200);
  assert.equal(resendDelayMs(undefined, 1, DELAYS, fixed), 100);
  assert.deepEqual([200, 204, 400, 404, 409, 410, 500, 502, 503, 504].filter(resendable), [502, 503, 504]);
});

test("a resync whose render gets no answer (502, network errors) keeps trying past MAX_RETRIES instead of reloading; a refusal still ends it", async () => {
  let failures = 12;
  const p = page(ROOT, {
    options: { retryMs: 1 },
    auto: (req) => {
      if (!req.url.includes("/_svc/render")) return undefined;
      if (failures-- > 0) return failures % 2 === 0 ? status(502) : status(504);
      return new Response(`<main svc-id="r"><p svc-id="r.0#p">count 5</p></main>`, { headers: { "X-Svc-Seq": "5" } });
    },
  });
  await p.client.resync();
  assert.equal(p.reloads, 0, "not reloaded");
  assert.equal(p.requests.filter((r) => r.url.includes("/_svc/render")).length, 13);
  assert.equal(p.client.order.lastAppliedSeq, 5);
  await p.close();

  const refused = page(ROOT, { options: { retryMs: 1 }, auto: (req) => (req.url.includes("/_svc/render") ? status(500) : undefined) });
  await refused.client.resync();
  assert.equal(refused.reloads, 1, "a render refused every time ends in a reload, as before");
  await refused.close();
});
