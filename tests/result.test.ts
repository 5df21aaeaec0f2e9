import { test } from "node:test";
import assert from "node:assert/strict";
import { andThen, andThenResult, err, map, ok, unwrapOr } from "../src/result.ts";
import { Result, Task } from "../src/result-namespaces.ts";
import { SvcError } from "../src/errors.ts";

test("ok and err build the two Result shapes, err carrying a SvcError with a stable code", () => {
  assert.deepEqual(ok(3), { ok: true, value: 3 });
  const failure = err("bad_email", "email is malformed");
  assert.equal(failure.ok, false);
  assert.ok(failure.error instanceof SvcError);
  assert.ok(failure.error instanceof Error);
  assert.equal(failure.error.code, "bad_email");
  assert.equal(failure.error.message, "email is malformed");
});

test("map and andThen transform an Ok and pass an Err through untouched", () => {
  const failure = err("db_error", "down");
  assert.deepEqual(map(ok(2), (n) => n * 10), ok(20));
  assert.equal(map(failure, (n: number) => n * 10), failure);
  assert.deepEqual(andThen(ok(2), (n) => (n > 1 ? ok(`big ${n}`) : err("invalid_argument", "small"))), ok("big 2"));
  assert.equal(andThen(ok(0), (n) => (n > 1 ? ok(n) : err("invalid_argument", "small"))).ok, false);
  assert.equal(andThen(failure, () => ok(1)), failure);
  assert.equal(unwrapOr(failure, 7), 7);
  assert.equal(Result.unwrapOr(ok(1), 7), 1);
});

test("andThenResult chains a Result step after a Task step (the spec's Task.andThenResult)", async () => {
  const parsed = await andThenResult(Promise.resolve(ok("42")), (text) => ok(Number(text)));
  assert.deepEqual(parsed, ok(42));
  const failed = err("db_error", "down");
  let called = false;
  const skipped = await Task.andThenResult(Promise.resolve(failed), () => {
    called = true;
    return ok(1);
  });
  assert.equal(skipped, failed);
  assert.equal(called, false);
  const chained = await Task.andThen(Promise.resolve(ok(1)), async (n) => ok(n + 1));
  assert.deepEqual(chained, ok(2));
});
