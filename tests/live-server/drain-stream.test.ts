// A drain closes every stream of the replica (docs/deployment.md#draining), including one that
// arrives while the drain starts: a stream that found its session before the drain stopped it, and
// waited for the session's lock meanwhile, must not join the stopped copy and stay open until the
// drain's forced close. The test holds the session's lock while the drain and the stream queue on it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { counterApp } from "../support/counter-app.ts";
import { openTab } from "../support/live-harness.ts";

/** Whether the response's body ends within `ms` (a refused stream has ended already). */
async function endsWithin(response: Response, ms: number): Promise<boolean> {
  if (response.body === null) return true;
  const reader = response.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"open">((resolve) => (timer = setTimeout(() => resolve("open"), ms)));
  try {
    for (;;) {
      const chunk = await Promise.race([reader.read(), timeout]);
      if (chunk === "open") return false;
      if (chunk.done) return true;
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
}

test("a stream that waited for its session's lock while the drain started is closed by the drain, not left open", async () => {
  const app = counterApp({ heartbeatMs: 100 });
  try {
    const tab = await openTab(app);
    const session = [...app.sessions.all()][0]!;
    let release: () => void = () => {};
    const held = session.mutex.run(() => new Promise<void>((resolve) => (release = resolve)));
    // The drain queues on the lock first, then the stream, which has found the session live.
    const drained = app.drain();
    const streaming = Promise.resolve(
      app.fetch(new Request("http://app.test/_svc/subscribe?page=q&since=0", { headers: { Cookie: tab.cookies } })),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await held;
    await drained;
    const response = await streaming;
    assert.ok(await endsWithin(response, 1000), `the stream (status ${response.status}) is still open after the drain`);
    assert.equal(session.life, "moved", "the drained session carries on elsewhere, not ended");
  } finally {
    app.close();
  }
});
