// A session's ordered store writes (src/live/server/replicas/store-writes.ts; docs/deployment.md#rotation-on-any-replica):
// in order, a failed one seen only by a strict save, and a refused rotation move tried again
// before the next save and before the reply, its failure over once it goes through.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SessionWrites } from "../../src/live/server/replicas/store-writes.ts";

const session = () => ({});
const refused = () => Promise.reject(new Error("store down (test)"));
const quiet = <T>(promise: Promise<T>) => promise.catch(() => undefined);

test("writes of one session run one after another, in the order they were asked for", async () => {
  const writes = new SessionWrites<object>();
  const s = session();
  const order: string[] = [];
  let release = () => {};
  const first = writes.then(s, () => new Promise<void>((resolve) => (release = () => (order.push("first"), resolve()))));
  const second = writes.then(s, async () => void order.push("second"));
  assert.equal(writes.busy(s), true);
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(order, [], "the second waits for the first");
  release();
  await Promise.all([first, second]);
  assert.deepEqual(order, ["first", "second"]);
  assert.equal(writes.busy(s), false);
});

test("a failed write holds up only a strict save", async () => {
  const writes = new SessionWrites<object>();
  const s = session();
  await quiet(writes.then(s, refused));
  await writes.before(s); // an event's save goes on (the store fences it)
  await assert.rejects(writes.before(s, { strict: true }), /store down/); // a page load's does not
  assert.equal(await writes.settled(s), undefined);
});

test("a refused move is tried again before the next save and the reply; refused again, both fail; once through, the failure is over", async () => {
  const writes = new SessionWrites<object>();
  const s = session();
  let storeUp = false;
  let moves = 0;
  const move = async () => {
    moves++;
    if (!storeUp) throw new Error("store down (test)");
  };
  await quiet(writes.move(s, move));
  assert.equal(moves, 1);
  await assert.rejects(writes.before(s), /store down/, "no save while the move is refused");
  await assert.rejects(writes.settled(s)!, /store down/, "no reply with the new id while it is refused");
  assert.equal(moves, 3);
  storeUp = true;
  await writes.before(s, { strict: true });
  assert.equal(moves, 4, "tried once more, and through");
  await writes.before(s, { strict: true }); // a strict save: the refused move's failure is over
  await writes.settled(s);
  assert.equal(moves, 4, "not tried again once through");
});
