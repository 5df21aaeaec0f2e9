import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { formAppPool } from "./apps.ts";
import { heapAfterCollection } from "../support/heap.ts";
import { openTab, type Tab } from "../support/live-harness.ts";

// docs/security.md#session-bounds: sessions that never connect are bounded in number and age.
const freshApp = formAppPool(after);
const inc = (seq: number) => ({ seq, msg: "Inc", handlerId: "r.2#button" });

/** A page load with no cookie, as a flood sends it: the page is read and the session never used. */
async function bareLoad(a: ReturnType<typeof freshApp>): Promise<Response> {
  const resp = await a.fetch(new Request("http://app.test/"));
  await resp.text();
  return resp;
}

describe("session bounds", () => {
  test("a session whose page never subscribes nor sends an event ends after pendingSessionMs; a connected one stays", async () => {
    let now = 1_000_000;
    const a = freshApp({ now: () => now, pendingSessionMs: 60_000 });
    const idle = await openTab(a);
    const eventful = await openTab(a);
    const streaming = await openTab(a);
    assert.equal((await eventful.post(inc(1))).status, 200);
    const stream = await streaming.subscribe();
    assert.deepEqual(a.sessionCounts(), { live: 3, pending: 1, evicted: 0, expired: 0 });
    now += 59_999;
    a.sessions.sweep();
    assert.equal(a.sessionCounts().live, 3);
    now += 1;
    a.sessions.sweep();
    assert.deepEqual(a.sessionCounts(), { live: 2, pending: 0, evicted: 0, expired: 1 });
    assert.equal((await idle.post(inc(1))).status, 404, "the pending session is gone");
    assert.equal((await eventful.post(inc(2))).status, 200);
    assert.equal((await streaming.post(inc(1))).status, 200);
    await stream.close();
  });

  test("the app's own sweeper ends a never-connected session after pendingSessionMs, on the real clock", async () => {
    // No sweep() call and no fake clock: the sweeper timer the first session starts does it. It
    // runs every half of pendingSessionMs, but at most once a second.
    const a = freshApp({ pendingSessionMs: 100 });
    const idle = await openTab(a);
    const user = await openTab(a);
    assert.equal((await user.post(inc(1))).status, 200);
    assert.deepEqual(a.sessionCounts(), { live: 2, pending: 1, evicted: 0, expired: 0 });
    const deadline = Date.now() + 5_000;
    while (a.sessionCounts().expired === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(a.sessionCounts(), { live: 1, pending: 0, evicted: 0, expired: 1 });
    assert.equal((await idle.post(inc(1))).status, 404, "the pending session is gone");
    assert.equal((await user.post(inc(2))).status, 200, "the connected session stays");
  });

  test("beyond maxPendingSessions the oldest never-connected sessions end first", async () => {
    const a = freshApp({ maxPendingSessions: 3 });
    const tabs: Tab[] = [];
    for (let i = 0; i < 5; i++) tabs.push(await openTab(a));
    assert.deepEqual(a.sessionCounts(), { live: 3, pending: 3, evicted: 2, expired: 0 });
    const statuses = await Promise.all(tabs.map((tab) => tab.post(inc(1)).then((r) => r.status)));
    assert.deepEqual(statuses, [404, 404, 200, 200, 200]);
  });

  test("a flood of new page loads never evicts a connected session; at the cap the oldest pending ones make room", async () => {
    const a = freshApp({ maxSessions: 10 });
    const users: Tab[] = [];
    for (let i = 0; i < 6; i++) {
      const tab = await openTab(a);
      assert.equal((await tab.post(inc(1))).status, 200);
      users.push(tab);
    }
    for (let i = 0; i < 500; i++) assert.equal((await bareLoad(a)).status, 200);
    const counts = a.sessionCounts();
    assert.deepEqual(counts, { live: 10, pending: 4, evicted: 496, expired: 0 });
    for (const tab of users) assert.equal((await tab.post(inc(2))).status, 200, "every connected user carries on");
  });

  test("when every session the app may keep is connected, a new page load is refused with 503 and nobody is evicted", async () => {
    const a = freshApp({ maxSessions: 3 });
    const users: Tab[] = [];
    for (let i = 0; i < 3; i++) {
      const tab = await openTab(a);
      await tab.post(inc(1));
      users.push(tab);
    }
    const refused = await bareLoad(a);
    assert.equal(refused.status, 503);
    assert.ok(Number(refused.headers.get("Retry-After")) > 0);
    assert.deepEqual(a.sessionCounts(), { live: 3, pending: 0, evicted: 0, expired: 0 });
    for (const tab of users) assert.equal((await tab.post(inc(2))).status, 200);
    // A returning user with a cookie is served as before.
    assert.equal((await openTab(a, "http://app.test/", users[0]!.cookies)).html.includes("count 2"), true);
  });

  test("bound options that are not whole numbers of at least 1 are refused", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity, "10" as unknown as number]) {
      assert.throws(() => freshApp({ maxSessions: bad }), TypeError);
      assert.throws(() => freshApp({ maxPendingSessions: bad }), TypeError);
      assert.throws(() => freshApp({ pendingSessionMs: bad }), TypeError);
    }
  });
});

test("a flood of 20,000 page loads without a cookie keeps at most 1,000 sessions and grows the heap by less than 32 MB", async () => {
  const a = freshApp();
  const user = await openTab(a);
  assert.equal((await user.post(inc(1))).status, 200);
  for (let i = 0; i < 50; i++) await bareLoad(a);
  const before = await heapAfterCollection();
  for (let i = 0; i < 20_000; i++) await bareLoad(a);
  const afterFlood = await heapAfterCollection();
  const counts = a.sessionCounts();
  assert.equal(counts.pending, 1_000);
  assert.equal(counts.live, 1_001);
  assert.equal(counts.evicted, 19_050);
  assert.equal((await user.post(inc(2))).status, 200, "the connected user was not evicted");
  const growthMb = (afterFlood - before) / 2 ** 20;
  console.log(`heap growth after 20,000 page loads: ${growthMb.toFixed(1)} MB`);
  assert.ok(growthMb < 32, `heap grew by ${growthMb.toFixed(1)} MB`);
});
