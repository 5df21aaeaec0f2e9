// A stream that leaves a draining replica resumes at another with every frame after its
// Last-Event-ID, or with a render; never with a gap (docs/deployment.md#draining,
// docs/protocol.md#resume). Two apps in this process, on one Postgres schema, stand for two
// replicas. Several tabs hold a stream at the first one, each behind by a seeded number of frames
// (the last id it read), some also with a stream at the second replica listening over the bus;
// events go on while the first replica drains. Each tab then reconnects at the second replica with
// its last id, and the test checks what it gets there. The seed is printed; SVC_TEST_SEED replays it.
import assert from "node:assert/strict";
import { test } from "node:test";
import process from "node:process";
import { Secret } from "../../src/auth/mod.ts";
import type { LiveApp } from "../../src/live/server/app/app.ts";
import { counterApp, type CounterModel } from "../support/counter-app.ts";
import { openTab, sleep, type Tab } from "../support/live-harness.ts";
import { POSTGRES_SKIP } from "../support/db-targets.ts";
import { replicaSchema } from "../support/replica-schema.ts";
import { seeded } from "../support/seeded.ts";

const skip = POSTGRES_SKIP;
if (skip !== undefined) console.log(`# tests/replicas/drain-resume skipped: ${skip}`);

const { open } = replicaSchema("drain_resume", "search_path");
const secret = Secret.fromString("drain-resume-test-secret-drain-resume-test-secret-012345");
const TABS = 6;

type SseEvent = { readonly event: string; readonly seq: number };

/** Reads SSE events (patch, render, sync) until `enough` says so or the stream is quiet for `quietMs`. */
async function readEvents(resp: Response, enough: (got: readonly SseEvent[]) => boolean, quietMs = 1500): Promise<SseEvent[]> {
  const reader = resp.body!.getReader();
  const decoder = new TextDecoder();
  const got: SseEvent[] = [];
  let buffer = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    while (!enough(got)) {
      const quiet = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), quietMs)));
      const chunk = await Promise.race([reader.read(), quiet]);
      clearTimeout(timer);
      if (chunk === undefined || chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const lines = buffer.slice(0, end).split("\n");
        buffer = buffer.slice(end + 2);
        const event = lines.find((line) => line.startsWith("event: "))?.slice(7);
        const data = lines.find((line) => line.startsWith("data: "))?.slice(6);
        if (event !== undefined && data !== undefined) got.push({ event, seq: (JSON.parse(data) as { seq: number }).seq });
      }
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
  return got;
}

/** Posts the tab's next Inc at `app`, sending it again on 503 (the session moving) as the client does; the acknowledged frame's seq. */
async function inc(app: LiveApp<CounterModel>, tab: Tab & { seq: number }, fallback: LiveApp<CounterModel>): Promise<number | undefined> {
  const seq = ++tab.seq;
  let at = app;
  for (let attempt = 0; attempt < 10; attempt++) {
    const resp = await at.fetch(
      new Request("http://app.test/_svc/event", {
        method: "POST",
        headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, "Content-Type": "application/json" },
        body: JSON.stringify({ seq, msg: "Inc", args: [], sessionId: tab.handle, page: "p" }),
      }),
    );
    if (resp.status === 200) return ((await resp.json()) as { seq: number }).seq;
    await resp.body?.cancel();
    if (resp.status === 204) return undefined;
    assert.equal(resp.status, 503, `event ${seq}: status ${resp.status}`);
    at = fallback; // a draining replica refuses: the retry goes to the other one
    await sleep(20);
  }
  assert.fail(`event ${seq} was never applied`);
}

test("streams behind at a draining replica resume at another with every frame after their last id, or a render", { skip }, async () => {
  const seed = Number(process.env.SVC_TEST_SEED ?? Date.now() % 1_000_000);
  console.log(`# drain-resume seed ${seed}`);
  const random = seeded(seed);
  const a = counterApp({ db: open(), secret, heartbeatMs: 200 });
  const b = counterApp({ db: open(), secret, heartbeatMs: 200 });
  try {
    await Promise.all([a.ready(), b.ready()]);
    const tabs = await Promise.all(Array.from({ length: TABS }, async () => Object.assign(await openTab(a), { seq: 0 })));
    const last = tabs.map(() => 0);
    const acked = tabs.map(() => 0);
    const streams: Response[] = [];
    for (const tab of tabs) {
      streams.push(await a.fetch(new Request("http://app.test/_svc/subscribe?page=s&since=0", { headers: { Cookie: tab.cookies } })));
      // Some tabs also have a stream at the other replica, listening there over the bus.
      if (random() < 0.5) {
        streams.push(await b.fetch(new Request("http://app.test/_svc/subscribe?page=t", { headers: { Cookie: tab.cookies } })));
      }
    }
    // Events before the drain; each tab's stream read up to a seeded frame: that tab is behind.
    for (const [i, tab] of tabs.entries()) {
      const count = 1 + Math.floor(random() * 8);
      for (let n = 0; n < count; n++) acked[i] = (await inc(a, tab, b)) ?? acked[i]!;
      last[i] = Math.floor(random() * (acked[i]! + 1));
    }
    // Events go on while the first replica drains.
    const during = Promise.all(tabs.map(async (tab, i) => {
      await sleep(random() * 30);
      acked[i] = (await inc(a, tab, b)) ?? acked[i]!;
    }));
    await sleep(random() * 20);
    await a.drain();
    await during;
    for (const stream of streams) await stream.body?.cancel().catch(() => {});
    // Each tab reconnects at the other replica with the last id it read.
    for (const [i, tab] of tabs.entries()) {
      const resumed = await b.fetch(
        new Request("http://app.test/_svc/subscribe?page=s&since=0", {
          headers: { Cookie: tab.cookies, "Last-Event-ID": String(last[i]) },
        }),
      );
      assert.equal(resumed.status, 200, `tab ${i} (seed ${seed})`);
      const target = acked[i]!;
      const caughtUp = (got: readonly SseEvent[]) =>
        got.some((e) => e.event === "render" && e.seq >= target) || got.filter((e) => e.event === "patch").some((e) => e.seq >= target);
      const got = await readEvents(resumed, caughtUp);
      const render = got.find((e) => e.event === "render");
      if (render !== undefined) {
        assert.ok(render.seq >= target, `tab ${i}: a render at ${render.seq}, below its acknowledged ${target} (seed ${seed})`);
        continue;
      }
      const patches = got.filter((e) => e.event === "patch").map((e) => e.seq);
      const expected = Array.from({ length: target - last[i]! }, (_, k) => last[i]! + 1 + k);
      assert.deepEqual(
        patches.slice(0, expected.length),
        expected,
        `tab ${i} resumed from ${last[i]} got ${JSON.stringify(got)}: every frame to ${target} or a render (seed ${seed})`,
      );
    }
  } finally {
    a.close();
    b.close();
  }
});
