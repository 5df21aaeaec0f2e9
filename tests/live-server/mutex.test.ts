/**
 * The session mutex (src/live/server/session/mutex.ts): one work at a time, in arrival order; a free
 * mutex runs synchronous work at once.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Mutex } from "../../src/live/server/session/mutex.ts";

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

test("a free mutex runs the work at once and resolves with its value", async () => {
  const mutex = new Mutex();
  const order: string[] = [];
  const result = mutex.run(() => {
    order.push("work");
    return 7;
  });
  order.push("after run");
  assert.deepEqual(order, ["work", "after run"]);
  assert.equal(await result, 7);
});

test("work arriving while asynchronous work holds the mutex waits for it, in arrival order", async () => {
  const mutex = new Mutex();
  const order: string[] = [];
  const first = mutex.run(async () => {
    order.push("first starts");
    await tick();
    order.push("first ends");
    return 1;
  });
  const second = mutex.run(() => {
    order.push("second");
    return 2;
  });
  const third = mutex.run(async () => {
    await tick();
    order.push("third");
    return 3;
  });
  assert.deepEqual(await Promise.all([first, second, third]), [1, 2, 3]);
  assert.deepEqual(order, ["first starts", "first ends", "second", "third"]);
  // Free again: the next work runs at once.
  let ran = false;
  const again = mutex.run(() => (ran = true));
  assert.equal(ran, true);
  await again;
});

test("work started from inside the holder waits until the holder is done", async () => {
  const mutex = new Mutex();
  const order: string[] = [];
  let inner: Promise<void> | undefined;
  await mutex.run(() => {
    order.push("outer starts");
    inner = mutex.run(() => void order.push("inner"));
    order.push("outer ends");
  });
  await inner;
  assert.deepEqual(order, ["outer starts", "outer ends", "inner"]);
});

test("work that throws or rejects is reported to its caller and frees the mutex", async () => {
  const mutex = new Mutex();
  await assert.rejects(
    mutex.run(() => {
      throw new Error("sync failure");
    }),
    /sync failure/,
  );
  await assert.rejects(
    mutex.run(async () => {
      await tick();
      throw new Error("async failure");
    }),
    /async failure/,
  );
  let ran = false;
  await mutex.run(() => (ran = true));
  assert.equal(ran, true);
});

test("a hundred works, mixed synchronous and asynchronous, never overlap and keep their order", async () => {
  const mutex = new Mutex();
  let running = 0;
  const seen: number[] = [];
  const step = (i: number) => {
    running++;
    assert.equal(running, 1, "one work at a time");
    seen.push(i);
    running--;
  };
  const works = Array.from({ length: 100 }, (_, i) =>
    i % 2 === 0 ? mutex.run(() => step(i)) : mutex.run(async () => {
      running++;
      assert.equal(running, 1, "one work at a time");
      await tick();
      running--;
      step(i);
    }));
  await Promise.all(works);
  assert.deepEqual(seen, Array.from({ length: 100 }, (_, i) => i));
});

test("runNow hands back a free mutex's synchronous value itself, throws its throw, and queues behind held work", async () => {
  const mutex = new Mutex();
  assert.equal(mutex.runNow(() => 5), 5);
  assert.throws(() =>
    mutex.runNow(() => {
      throw new Error("sync failure");
    }), /sync failure/);
  // The throw released the mutex: the next work runs at once.
  assert.equal(mutex.runNow(() => 6), 6);
  const order: string[] = [];
  const held = mutex.runNow(async () => {
    await tick();
    order.push("async");
    return 1;
  });
  assert.ok(held instanceof Promise);
  const queued = mutex.runNow(() => {
    order.push("queued");
    return 2;
  });
  assert.ok(queued instanceof Promise, "work behind held work waits: a promise");
  assert.deepEqual(await Promise.all([held, queued]), [1, 2]);
  assert.deepEqual(order, ["async", "queued"]);
  assert.equal(mutex.runNow(() => 7), 7);
  // run still always gives a promise, and rejects on a throw.
  await assert.rejects(
    mutex.run(() => {
      throw new Error("via run");
    }),
    /via run/,
  );
  assert.equal(await mutex.run(() => 8), 8);
});
