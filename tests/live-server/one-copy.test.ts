/**
 * One copy of each frame per tab (docs/protocol.md#sse-stream): a stream that names its page gets
 * every frame of the session except the replies to that page's own events, which the page gets in
 * the reply; other tabs' streams get them; a stream that names no page gets every frame.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { buttonId, formAppPool } from "./apps.ts";
import { openTab } from "../support/live-harness.ts";

const freshApp = formAppPool(after);

test("a page's own replies do not come again on its stream; another page's stream gets them once", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const inc = buttonId(tab.html, "\\+");
  const own = await tab.subscribe("/_svc/subscribe?page=one");
  const other = await tab.subscribe("/_svc/subscribe?page=two");
  const unnamed = await tab.subscribe();
  const mine = (await (await tab.post({ page: "one", seq: 1, msg: "Inc", handlerId: inc })).json()) as {
    seq: number;
    respondingTo: number;
  };
  assert.deepEqual([mine.seq, mine.respondingTo], [1, 1]);
  const theirs = (await (await tab.post({ page: "two", seq: 1, msg: "Inc", handlerId: inc })).json()) as { seq: number };
  assert.equal(theirs.seq, 2);
  assert.deepEqual((await own.next())?.seq, 2, "page one's stream skips its own reply (seq 1) and gets page two's frame");
  assert.deepEqual((await other.next())?.seq, 1, "page two's stream gets page one's frame");
  assert.equal(await other.next(300), undefined, "and not its own reply");
  assert.deepEqual([(await unnamed.next())?.seq, (await unnamed.next())?.seq], [1, 2], "a stream without a page gets every frame");
  await Promise.all([own.close(), other.close(), unnamed.close()]);
});

test("a batch's frames, which no reply carries, still reach the stream of the page that sent it", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const inc = buttonId(tab.html, "\\+");
  const own = await tab.subscribe("/_svc/subscribe?page=one");
  const resp = await tab.post({ page: "one", batch: [{ seq: 1, msg: "Inc", handlerId: inc }, { seq: 2, msg: "Inc", handlerId: inc }] });
  assert.equal(resp.status, 204);
  assert.deepEqual([(await own.next())?.seq, (await own.next())?.seq], [1, 2]);
  await own.close();
});

test("a batch's frames carry the values it reported, for the pages that do not show them: the next page load, whose render the browser took before the unload beacon", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const title = "r.#input:title";
  const next = await tab.subscribe("/_svc/subscribe?page=two");
  // The user typed "ABC" (the value the app keeps, normalised) and reloaded: the beacon carries it.
  const resp = await tab.post({
    page: "one",
    batch: [{ seq: 1, msg: "SetTitle", args: ["ABC"], handlerId: title }],
    inputState: { [title]: { value: "ABC", seq: 1 } },
  });
  assert.equal(resp.status, 204);
  const frame = (await next.next()) as { seq: number; patches: unknown[]; ackInputs: Record<string, number> };
  assert.deepEqual([frame.seq, frame.patches, frame.ackInputs], [1, [{ id: title, attrs: { value: "ABC" } }], { [title]: 1 }]);
  await next.close();
});

test("a page's own stream carries its reply's id alone, so that a reconnect names it in Last-Event-ID", async () => {
  const a = freshApp();
  const tab = await openTab(a);
  const inc = buttonId(tab.html, "\\+");
  const resp = await a.fetch(new Request("http://app.test/_svc/subscribe?page=one", { headers: { Cookie: tab.cookies } }));
  const reader = resp.body!.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await tab.post({ page: "one", seq: 1, msg: "Inc", handlerId: inc })).status, 200);
  let text = "";
  while (!text.includes("\n\nid: 1\n\n") && !text.startsWith("id: 1\n\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  assert.match(text, /(^|\n\n)id: 1\n\n/, "the id, with no event and no data");
  assert.doesNotMatch(text, /data: \{"seq":1/, "not the frame itself");
  await reader.cancel();
});
