/**
 * The session's edge (src/live/server/session/session.ts, src/live/server/streams/session-frames.ts): frames stamped with the
 * next outSeq and fanned out to streams, replayed to a stream that reconnects, and a session
 * restored in another process from the snapshot its host persisted, carrying on where it was.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Frame, FrameSink } from "../../src/live/server/streams/sse-wire.ts";
import { LiveSession, type SessionHost } from "../../src/live/server/session/session.ts";
import { SessionFrames } from "../../src/live/server/streams/session-frames.ts";
import { initialState, snapshotOf, stateFromSnapshot } from "../../src/live/server/session/state.ts";
import type { SessionSnapshot } from "../../src/live/server/registry/snapshot-store.ts";
import { forEachElement } from "../../src/live/tree.ts";
import { type FormModel, formUpdate, formView, initialForm } from "./apps.ts";

const definition = { init: () => initialForm, update: formUpdate, view: formView };

/** A step's outcome, which one process (nothing to wait for before sending) has at once. */
function sync<T>(value: T | Promise<T>): T {
  assert.ok(!(value instanceof Promise), "one process steps without waiting");
  return value as T;
}

/** A host that records what the session asks of it. */
function recordingHost() {
  const saved: SessionSnapshot[] = [];
  let used = 0;
  const host: SessionHost<FormModel> = {
    persist: (session) => void saved.push(snapshotOf(session.id, session.state, 0)),
    rotate: () => {},
    bind: (session, userId) => session.bindUser(userId, session.boundAt),
    end: (session) => session.stop(),
    usedTree: () => void used++,
    durable: () => true,
    moved: () => {},
    redeliver: () => {},
  };
  return { host, saved, used: () => used };
}

function sessionOf(host: SessionHost<FormModel>, state = initialState<FormModel>(initialForm, 0)) {
  return new LiveSession<FormModel>(definition, host, { id: "sid", now: 0, extraMessages: new Set(), state });
}

function recordingSink(): FrameSink & { frames: Frame[]; closed: boolean } {
  const sink = {
    frames: [] as Frame[],
    closed: false,
    send: (frame: Frame) => void sink.frames.push(frame),
    close: () => void (sink.closed = true),
  };
  return sink;
}

function idOf(session: LiveSession<FormModel>, tag: string, msg?: string): string {
  let found: string | undefined;
  forEachElement(session.currentTree(), (el, id) => {
    if (found === undefined && el.tag === tag && (msg === undefined || Object.values(el.handlers ?? {}).some((h) => h?.msg === msg))) {
      found = id;
    }
  });
  return found!;
}

test("every frame takes the next outSeq, reaches every open stream, and a reconnecting stream gets the ones after its last", () => {
  const { host } = recordingHost();
  const session = sessionOf(host);
  const first = recordingSink();
  session.frames.open(first);
  const inc = idOf(session, "button", "Inc");
  const replies = [1, 2, 3].map((seq) =>
    sync(session.step({ entry: { seq, msg: "Inc", args: [], handlerId: inc }, inputs: new Map(), page: "page" }, { reply: true }))
  );
  assert.deepEqual(replies.map((r) => r.kind === "frame" && r.frame.seq), [1, 2, 3]);
  assert.deepEqual(replies.map((r) => r.kind === "frame" && r.frame.respondingTo), [1, 2, 3]);
  assert.deepEqual(first.frames.map((f) => f.seq), [1, 2, 3], "the stream got every frame");
  assert.equal(session.outSeq, 3);

  const again = recordingSink();
  const catchUp = session.frames.catchUp("1", session.outSeq, () => "<main></main>");
  assert.deepEqual(eventIds(catchUp), ["2", "3"], "the frames after seq 1 are replayed");
  session.frames.open(again);
  session.frames.closed(first);
  assert.deepEqual([...session.streams], [again]);
  session.stop();
  assert.equal(again.closed, true, "an ended session closes its streams");
  assert.equal(session.streams.size, 0);
  assert.deepEqual(
    sync(session.step({ entry: { seq: 4, msg: "Inc", args: [], handlerId: inc }, inputs: new Map(), page: "page" }, { reply: true })),
    { kind: "ended" },
  );
});

test("a stream resuming from before the kept frames, or after they were forgotten, gets a full render instead", () => {
  const frames = new SessionFrames();
  for (let seq = 1; seq <= 20; seq++) frames.send({ seq, patches: [] });
  const render = () => "<main></main>";
  assert.deepEqual(eventIds(frames.catchUp("4", 20, render)), [
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "11",
    "12",
    "13",
    "14",
    "15",
    "16",
    "17",
    "18",
    "19",
    "20",
  ]);
  assert.match(frames.catchUp("3", 20, render), /^id: 20\nevent: render\ndata: \{"seq":20,"html":"<main><\/main>"\}\n\n$/);
  frames.forgetRecent();
  assert.match(frames.catchUp("19", 20, render), /^id: 20\nevent: render\n/);
  assert.equal(frames.catchUp("20", 20, render), "", "nothing missed");
});

/** The `id:` fields of SSE text, in order. */
function eventIds(text: string): string[] {
  return [...text.matchAll(/^id: (\d+)$/gm)].map((m) => m[1]!);
}

test("a session restored from its persisted snapshot carries on: the next outSeq, the input seqs, and a re-sent entry recognised", () => {
  const a = recordingHost();
  const session = sessionOf(a.host);
  const title = idOf(session, "input");
  const setTitle = { seq: 1, msg: "SetTitle", args: ["hello"], handlerId: title };
  const reply = sync(
    session.step({ entry: setTitle, inputs: new Map([[title, { value: "hello", seq: 9 }]]), page: "page-1" }, { reply: true }),
  );
  assert.equal(reply.kind, "frame");
  assert.deepEqual(reply.kind === "frame" && reply.frame.ackInputs, { [title]: 9 });
  const snapshot = JSON.parse(JSON.stringify(a.saved.at(-1)));

  // Another process: a new session value from the stored record, the same app.
  const b = recordingHost();
  const restored = sessionOf(b.host, stateFromSnapshot<FormModel>(snapshot));
  assert.equal(restored.model.title, "HELLO");
  assert.equal(restored.hasTree, false, "the tree is not stored: it is rendered on demand");
  assert.deepEqual(
    sync(restored.step({ entry: setTitle, inputs: new Map(), page: "page-1" }, { reply: true })),
    { kind: "duplicate", outSeq: 1 },
    "the entry the first process processed is not processed again",
  );
  const next = sync(
    restored.step({
      entry: { seq: 2, msg: "SetTitle", args: ["hello"], handlerId: title },
      inputs: new Map([[title, { value: "hello", seq: 3 }]]),
      page: "page-1",
    }, { reply: true }),
  );
  assert.equal(next.kind === "frame" && next.frame.seq, 2, "the outSeq goes on from the snapshot's");
  assert.deepEqual(next.kind === "frame" && next.frame.ackInputs, { [title]: 9 }, "the stored seq of the input still rules");
  assert.equal(b.used(), 2, "rendering the tree and keeping the step's tree are both reported to the host");
});

test("a released tree is rendered again from the model on the next event, with the same patches", () => {
  const kept = sessionOf(recordingHost().host);
  const released = sessionOf(recordingHost().host);
  const inc = idOf(kept, "button", "Inc");
  released.currentTree();
  released.releaseTree();
  assert.equal(released.hasTree, false);
  const a = sync(kept.step({ entry: { seq: 1, msg: "Inc", args: [], handlerId: inc }, inputs: new Map() }, { reply: true }));
  const b = sync(released.step({ entry: { seq: 1, msg: "Inc", args: [], handlerId: inc }, inputs: new Map() }, { reply: true }));
  assert.deepEqual(b, a);
  assert.equal(released.hasTree, true);
});

test("a bind and a new page replace the state value; the old value is left as it was", () => {
  const session = sessionOf(recordingHost().host);
  const title = idOf(session, "input");
  sync(
    session.step(
      { entry: { seq: 1, msg: "SetTitle", args: ["x"], handlerId: title }, inputs: new Map([[title, { value: "x", seq: 2 }]]) },
      { reply: true },
    ),
  );
  const before = session.state;
  session.bindUser("42", 77);
  assert.deepEqual([session.user, session.boundAt], ["42", 77]);
  assert.deepEqual([before.user, before.boundAt], [undefined, 0]);
  session.startPage();
  assert.equal(session.inputSeqs.size, 0, "a new page's client counts input seqs afresh");
  assert.equal(before.inputSeqs.get(title), 2);
});
