import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { replyHold } from "../../src/live/server/reply-batch.ts";
import { atTurnEnd } from "../../src/runtime/turn.ts";
import { buttonId, formAppPool } from "./apps.ts";
import { openTab } from "./harness.ts";

// src/live/server/reply-batch.ts: a busy server's event replies go out at the end of the turn.
const freshApp = formAppPool(after);

const turnEnd = () => new Promise<void>((resolve) => atTurnEnd(resolve));

/** Ends holding: a turn with a single reply (held or not), then its end. */
async function settle(): Promise<void> {
  const held = replyHold();
  await turnEnd();
  if (held !== undefined) await held;
}

/** Which of `holds` have resolved so far, after the pending microtasks ran. */
async function resolvedOf(holds: Promise<void>[]): Promise<boolean[]> {
  const done = holds.map(() => false);
  holds.forEach((hold, i) => void hold.then(() => (done[i] = true)));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe("reply batching", () => {
  test("a lone event's reply goes out at once, turn after turn", async () => {
    await settle();
    for (let turn = 0; turn < 5; turn++) {
      assert.equal(replyHold(), undefined, `turn ${turn}`);
      await turnEnd();
    }
  });

  test("after a turn that answered two events, the next turn's replies wait for its end and go out together", async () => {
    await settle();
    assert.equal(replyHold(), undefined);
    assert.equal(replyHold(), undefined, "the busy turn itself is not held: it is seen only at its end");
    await turnEnd();

    const holds = [replyHold(), replyHold(), replyHold()];
    assert.ok(holds.every((hold) => hold instanceof Promise));
    assert.deepEqual(await resolvedOf(holds as Promise<void>[]), [false, false, false], "nothing goes out before the turn ends");
    await turnEnd();
    assert.deepEqual(await resolvedOf(holds as Promise<void>[]), [true, true, true]);
  });

  test("a turn with one reply ends the holding", async () => {
    await settle();
    replyHold();
    replyHold();
    await turnEnd();
    const lone = replyHold();
    assert.ok(lone instanceof Promise, "still holding after the busy turn");
    await turnEnd();
    await lone;
    assert.equal(replyHold(), undefined, "the quiet turn ended the holding");
    await turnEnd();
  });

  test("bursts of concurrent events on many sessions are all answered, each session's seqs in order", async () => {
    const a = freshApp();
    const tabs = await Promise.all(Array.from({ length: 20 }, () => openTab(a)));
    const inc = buttonId(tabs[0]!.html, "\\+");
    for (let burst = 1; burst <= 4; burst++) {
      const replies = await Promise.all(tabs.map((tab) => tab.post({ seq: burst, msg: "Inc", handlerId: inc })));
      for (const reply of replies) {
        assert.equal(reply.status, 200);
        const frame = (await reply.json()) as { seq: number; respondingTo: number; patches: unknown[] };
        assert.deepEqual(frame, { seq: burst, respondingTo: burst, patches: [{ id: "r.0#p", text: `count ${burst}` }] });
      }
    }
    for (const session of a.sessions.all()) assert.equal(session.model.count, 4);
  });
});
