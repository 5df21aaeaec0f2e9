/**
 * A session past the tree budget stays correct (docs/deployment.md#memory): its tree given up
 * before every event, it renders the tree again from its model, with a memo that starts empty, and
 * answers every event exactly as a session that kept its tree does. Tested where that is hardest:
 * the shifting app (tests/support/shifting-app.ts), whose log and rows above the inputs rename
 * every input's id as they grow, shrink and reorder, under random sequences of clicks, typing with
 * input reports (some of them stale) and removals.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { LiveSession } from "../../src/live/server/session/session.ts";
import { forEachElement } from "../../src/live/tree.ts";
import { shiftingApp, type ShiftModel } from "../support/shifting-app.ts";
import { openTab } from "../support/live-harness.ts";

const made: ReturnType<typeof shiftingApp>[] = [];
after(() => made.forEach((a) => a.live.close()));
function fresh(options: Parameters<typeof shiftingApp>[0] = {}) {
  const a = shiftingApp(options);
  made.push(a);
  return a;
}

/** The app's sessions in the order they were opened. */
const sessionsOf = (a: ReturnType<typeof shiftingApp>) => [...a.live.sessions.all()] as LiveSession<ShiftModel>[];

/** The id of the element of `session`'s current tree whose handler of `kind` dispatches `msg` (with `arg`, if given). */
function handlerId(session: LiveSession<ShiftModel>, kind: string, msg: string, arg?: unknown): string | undefined {
  let found: string | undefined;
  forEachElement(session.currentTree(), (el, id) => {
    const record = (el.handlers as Record<string, { msg: string; args: readonly unknown[] } | undefined> | undefined)?.[kind];
    if (found === undefined && record?.msg === msg && (arg === undefined || record.args[0] === arg)) found = id;
  });
  return found;
}

/** The rows the session's model shows, for a removal to pick from. */
const rowsOf = (session: LiveSession<ShiftModel>) => session.state.model.rows;

const FIELDS = ["SetText", "SetUpper", "SetArea", "SetChat"] as const;

const commandArb = fc.oneof(
  fc.record({ kind: fc.constant("click" as const), msg: fc.constantFrom("Add", "Shuffle") }),
  fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant("type" as const),
    field: fc.constantFrom(...FIELDS),
    value: fc.string({ maxLength: 5 }),
    // Also report another field's value, with a seq that may be older than one already reported.
    other: fc.option(fc.record({ field: fc.constantFrom(...FIELDS), value: fc.string({ maxLength: 3 }), back: fc.nat({ max: 3 }) }), {
      nil: undefined,
    }),
  }),
  fc.record({ kind: fc.constant("send" as const) }),
  fc.record({ kind: fc.constant("check" as const), on: fc.boolean() }),
  fc.record({ kind: fc.constant("size" as const), value: fc.constantFrom("", "s", "m", "l") }),
);

type Command = typeof commandArb extends fc.Arbitrary<infer C> ? C : never;

/** The event body of `command` for the tab's `seq`th event, its ids read from `session`'s tree; undefined when it has no target. */
function bodyOf(command: Command, session: LiveSession<ShiftModel>, seq: number): Record<string, unknown> | undefined {
  switch (command.kind) {
    case "click": {
      const id = handlerId(session, "click", command.msg);
      return id === undefined ? undefined : { seq, msg: command.msg, args: [], handlerId: id };
    }
    case "remove": {
      const rows = rowsOf(session);
      if (rows.length === 0) return undefined;
      const row = rows[command.pick % rows.length]!;
      const id = handlerId(session, "click", "Remove", row);
      return id === undefined ? undefined : { seq, msg: "Remove", args: [row], handlerId: id };
    }
    case "type": {
      const id = handlerId(session, "input", command.field)!;
      const inputState: Record<string, { value: string; seq: number }> = { [id]: { value: command.value, seq } };
      const other = command.other;
      if (other !== undefined && other.field !== command.field) {
        inputState[handlerId(session, "input", other.field)!] = { value: other.value, seq: Math.max(1, seq - other.back) };
      }
      return { seq, msg: command.field, args: [command.value], handlerId: id, inputState };
    }
    case "send":
      return { seq, msg: "Send", args: [], handlerId: handlerId(session, "keydown", "Send")! };
    case "check":
      return { seq, msg: "SetDone", args: [command.on], handlerId: handlerId(session, "change", "SetDone")! };
    case "size":
      return { seq, msg: "SetSize", args: [command.value], handlerId: handlerId(session, "change", "SetSize")! };
  }
}

test("a session that gives its tree up before every event, and a session of the page written with Ui.lazy parts, answer each event as a session that keeps its tree", async () => {
  // What the runs covered: events compared, and replies that renamed ids (a `keep` entry).
  let compared = 0;
  let renaming = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(commandArb, { minLength: 1, maxLength: 20 }), fc.boolean(), async (commands, releasedLazy) => {
      const kept = fresh();
      // The released session's page is written with Ui.lazy parts in half the runs; a third app
      // keeps its tree of Ui.lazy parts (src/live/render-state/lazy-part.ts). Every reply must be the plain page's.
      const released = fresh({ maxTreeBytes: 1, lazy: releasedLazy });
      const keptLazy = fresh({ lazy: true });
      const keptTab = await openTab(kept.live);
      const releasedTab = await openTab(released.live);
      const keptLazyTab = await openTab(keptLazy.live);
      // A second session of the released app, whose events make the first give its tree up.
      const other = await openTab(released.live);
      const [keptSession] = sessionsOf(kept);
      const [releasedSession, otherSession] = sessionsOf(released);
      let seq = 0;
      let otherSeq = 0;
      for (const command of commands) {
        const body = bodyOf(command, keptSession!, seq + 1);
        if (body === undefined) continue;
        seq++;
        const otherBody = { seq: ++otherSeq, msg: "Shuffle", args: [], handlerId: handlerId(otherSession!, "click", "Shuffle") };
        assert.equal((await other.post(otherBody)).status, 200);
        assert.equal(releasedSession!.hasTree, false, "the other session's event took this session's tree");

        const keptReply = await keptTab.post(body);
        const releasedReply = await releasedTab.post(body);
        const keptLazyReply = await keptLazyTab.post(body);
        assert.equal(releasedReply.status, keptReply.status, JSON.stringify(body));
        assert.equal(keptLazyReply.status, keptReply.status, JSON.stringify(body));
        const reply: unknown = await keptReply.json();
        assert.deepEqual(await releasedReply.json(), reply, `the reply to ${JSON.stringify(body)}`);
        assert.deepEqual(await keptLazyReply.json(), reply, `the Ui.lazy page's reply to ${JSON.stringify(body)}`);
        compared++;
        if (JSON.stringify(reply).includes('"keep":')) renaming++;
      }
      assert.deepEqual(releasedSession!.state.model, keptSession!.state.model);
      assert.equal(releasedSession!.state.inputSeqs.size, keptSession!.state.inputSeqs.size);
      const [keptLazySession] = sessionsOf(keptLazy);
      assert.deepEqual(keptLazySession!.state.model, keptSession!.state.model);
      assert.equal(keptLazySession!.state.inputSeqs.size, keptSession!.state.inputSeqs.size);
      kept.live.close();
      released.live.close();
      keptLazy.live.close();
    }),
    { numRuns: 60 },
  );
  assert.ok(compared >= 100, `${compared} events compared`);
  assert.ok(renaming >= 10, `${renaming} of them renamed ids under the inputs`);
});
