// A render or a stream that waits for the lock of a copy another replica takes the session from
// meanwhile (docs/deployment.md#late-notices): neither is served from the copy that moved. The
// render shows the session's latest state, and the stream gets the new owner's frames. Two apps in
// this process, on one Postgres schema, stand for two replicas; the test holds the copy's lock
// right after the request's store check, until the other replica's takeover has been heard.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Db, DbStatement as Statement } from "../../src/db/mod.ts";
import { Secret } from "../../src/auth/mod.ts";
import type { LiveApp } from "../../src/live/server/app/app.ts";
import { counterApp, type CounterModel } from "../support/counter-app.ts";
import { eventually, frameReader, openTab, type Tab } from "../support/live-harness.ts";
import { POSTGRES_SKIP } from "../support/db-targets.ts";
import { replicaSchema } from "../support/replica-schema.ts";

const skip = POSTGRES_SKIP;
if (skip !== undefined) console.log(`# tests/replicas/moved-copy skipped: ${skip}`);

const { open } = replicaSchema("moved_copy", "search_path");
const secret = Secret.fromString("moved-copy-test-secret-moved-copy-test-secret-0123456789");

/**
 * Two replicas; the first one's database calls `onOwnershipRead` once after the next ownership
 * read (the store check a render or a new stream makes of a copy it holds).
 */
function twoReplicas() {
  const db: Db = open();
  const query = db.query.bind(db);
  const hooks: { afterOwnershipRead: (() => void) | undefined } = { afterOwnershipRead: undefined };
  db.query = async (statement: Statement) => {
    const result = await query(statement);
    if (/^SELECT owner, epoch/.test(statement.sql.trim())) {
      const hook = hooks.afterOwnershipRead;
      hooks.afterOwnershipRead = undefined;
      hook?.();
    }
    return result;
  };
  return { a: counterApp({ db, secret }), b: counterApp({ db: open(), secret }), hooks };
}

/**
 * Runs `request` at replica `a` and, once its store check has read the session's ownership, holds
 * the copy's lock while replica `b` takes the session over with an event; releases it once `a` has
 * heard of the takeover. Resolves to the request's response.
 */
async function withTakeoverMeanwhile(
  { a, b, hooks }: ReturnType<typeof twoReplicas>,
  tab: Tab,
  request: () => Promise<Response>,
): Promise<Response> {
  const session = [...a.sessions.all()][0]!;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding: () => void = () => {};
  const held = new Promise<void>((resolve) => (holding = resolve));
  hooks.afterOwnershipRead = () => {
    // Queued on the copy's lock while the store check still holds it: before the request's own turn.
    void session.mutex.run(() => {
      holding();
      return released;
    });
  };
  const answer = request();
  await held;
  const inc = await postAt(b, tab, 1);
  assert.equal(inc.status, 200, "the event at the other replica is applied there");
  await inc.body?.cancel();
  await eventually(() => assert.equal(session.life, "moved", "the first replica heard of the takeover"), 5000);
  release();
  return await answer;
}

function postAt(app: LiveApp<CounterModel>, tab: Tab, seq: number): Promise<Response> {
  return Promise.resolve(app.fetch(
    new Request("http://app.test/_svc/event", {
      method: "POST",
      headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, "Content-Type": "application/json" },
      body: JSON.stringify({ seq, msg: "Inc", args: [], sessionId: tab.handle, page: "p" }),
    }),
  ));
}

test("a render that waited for the lock of a copy taken over meanwhile shows the session's latest state", { skip }, async () => {
  const replicas = twoReplicas();
  const { a, b } = replicas;
  try {
    await Promise.all([a.ready(), b.ready()]);
    const tab = await openTab(a);
    const render = await withTakeoverMeanwhile(
      replicas,
      tab,
      () =>
        Promise.resolve(a.fetch(new Request("http://app.test/_svc/render", { headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf } }))),
    );
    assert.equal(render.status, 200);
    assert.equal(render.headers.getSetCookie().length, 0, "the render leaves the cookies alone");
    assert.match(await render.text(), /count 1</, "the render has the event the other replica applied");
    assert.equal(render.headers.get("X-Svc-Seq"), "1");
  } finally {
    a.close();
    b.close();
  }
});

test("a stream that waited for the lock of a copy taken over meanwhile gets the new owner's frames", { skip }, async () => {
  const replicas = twoReplicas();
  const { a, b } = replicas;
  try {
    await Promise.all([a.ready(), b.ready()]);
    const tab = await openTab(a);
    const response = await withTakeoverMeanwhile(
      replicas,
      tab,
      () => Promise.resolve(a.fetch(new Request("http://app.test/_svc/subscribe?page=q", { headers: { Cookie: tab.cookies } }))),
    );
    assert.equal(response.status, 200);
    const stream = frameReader(response);
    // The next event, at the replica that holds the session now, reaches the stream over the bus.
    const inc = await postAt(b, tab, 2);
    assert.equal(inc.status, 200);
    const seq = ((await inc.json()) as { seq: number }).seq;
    const frame = await stream.next(5000);
    assert.equal(frame?.seq, seq, "the new owner's frame came on the stream");
    await stream.close();
  } finally {
    a.close();
    b.close();
  }
});
