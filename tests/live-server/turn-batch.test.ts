import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { eventHold } from "../../src/live/server/http/turn-batch.ts";
import { atTurnEnd } from "../../src/runtime/turn.ts";
import { buttonId, formAppPool } from "./apps.ts";
import { openTab } from "../support/live-harness.ts";

// src/live/server/http/turn-batch.ts: a busy server processes the events of a turn together, at its end.
const freshApp = formAppPool(after);

const turnEnd = () => new Promise<void>((resolve) => atTurnEnd(resolve));

/** Ends holding: a turn with a single event (held or not), then its end. */
async function settle(): Promise<void> {
  const held = eventHold();
  await turnEnd();
  if (held !== undefined) await held;
}

/**
 * An app with two tabs just after a busy turn (each tab sent its seq 1 in it, processed at once:
 * a turn is seen busy only at its end), so that the events of the next turn are held.
 */
async function busyServer() {
  const a = freshApp();
  const [one, two] = await Promise.all([openTab(a), openTab(a)]);
  const inc = buttonId(one!.html, "\\+");
  await settle();
  const busy = await Promise.all([one!.post({ seq: 1, msg: "Inc", handlerId: inc }), two!.post({ seq: 1, msg: "Inc", handlerId: inc })]);
  assert.deepEqual(busy.map((r) => r.status), [200, 200]);
  await turnEnd();
  return { a, one: one!, inc };
}

/** Which of `holds` have resolved so far, after the pending microtasks ran. */
async function resolvedOf(holds: Promise<void>[]): Promise<boolean[]> {
  const done = holds.map(() => false);
  holds.forEach((hold, i) => void hold.then(() => (done[i] = true)));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe("event batching by turn", () => {
  test("a lone event is processed at once, turn after turn", async () => {
    await settle();
    for (let turn = 0; turn < 5; turn++) {
      assert.equal(eventHold(), undefined, `turn ${turn}`);
      await turnEnd();
    }
  });

  test("after a turn that received two events, the next turn's events wait for its end and are released together", async () => {
    await settle();
    assert.equal(eventHold(), undefined);
    assert.equal(eventHold(), undefined, "the busy turn itself is not held: it is seen only at its end");
    await turnEnd();

    const holds = [eventHold(), eventHold(), eventHold()];
    assert.ok(holds.every((hold) => hold instanceof Promise));
    assert.deepEqual(await resolvedOf(holds as Promise<void>[]), [false, false, false], "nothing is released before the turn ends");
    await turnEnd();
    assert.deepEqual(await resolvedOf(holds as Promise<void>[]), [true, true, true]);
  });

  test("a turn with one event ends the holding", async () => {
    await settle();
    eventHold();
    eventHold();
    await turnEnd();
    const lone = eventHold();
    assert.ok(lone instanceof Promise, "still holding after the busy turn");
    await turnEnd();
    await lone;
    assert.equal(eventHold(), undefined, "the quiet turn ended the holding");
    await turnEnd();
  });

  test("through the app: on a busy server an event is processed when its turn ends, not before", async () => {
    const { a, one, inc } = await busyServer();
    const reply = one.post({ seq: 2, msg: "Inc", handlerId: inc });
    for (let i = 0; i < 20; i++) await Promise.resolve();
    assert.deepEqual([...a.sessions.all()].map((s) => s.model.count), [1, 1], "held until the turn ends");
    const frame = (await (await reply).json()) as { seq: number; patches: unknown[] };
    assert.deepEqual(frame, { seq: 2, respondingTo: 2, patches: [{ id: "r.0#p", text: "count 2" }] });
    await settle();
  });

  test("held events of one session are processed in arrival order", async () => {
    const { one, inc } = await busyServer();
    // Held together in this turn: seqs 2 to 6 of one tab, in the order they were sent.
    const replies = await Promise.all([2, 3, 4, 5, 6].map((seq) => one.post({ seq, msg: "Inc", handlerId: inc })));
    const frames = (await Promise.all(replies.map((r) => r.json()))) as {
      seq: number;
      respondingTo: number;
      patches: { text: string }[];
    }[];
    assert.deepEqual(
      frames.map((f) => [f.respondingTo, f.seq, f.patches[0]!.text]),
      [2, 3, 4, 5, 6].map((seq) => [seq, seq, `count ${seq}`]),
    );
    await settle();
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
