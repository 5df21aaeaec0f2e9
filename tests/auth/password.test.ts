import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { Auth, DEFAULT_COST } from "../../src/auth/mod.ts";

after(() => Auth.closePasswordWorkers());

// Classic OpenBSD / jBCrypt test vectors ($2a$, cost 6): password and expected hash.
const vectors: Array<[string, string]> = [
  ["", "$2a$06$DCq7YPn5Rq63x1Lad4cll.TV4S6ytwfsfvkgY8jIucDrjc8deX1s."],
  ["a", "$2a$06$m0CrhHm10qJ3lXRY.5zDGO3rS2KdeeWLuGmsfGlMfOxih58VYVfxe"],
  ["abc", "$2a$06$If6bvum7DFjUnE9p2uDeDu0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i"],
  ["abcdefghijklmnopqrstuvwxyz", "$2a$06$.rCVZVOThsIa97pEDOxvGuRRgzG64bvtJ0938xuqzv18d3ZpQhstC"],
  ["~!@#$%^&*()      ~!@#$%^&*()PNBFRD", "$2a$06$fPIsBO8qRqkjj273rfaOI.HtSV9jLDpTbZn782DC6/t7qT67P6FfO"],
];

/** The native bcrypt addon, an independent implementation; undefined where it cannot load. */
function loadNative(): { hashSync(p: string, c: number): string; compareSync(p: string, h: string): boolean } | undefined {
  try {
    return createRequire(import.meta.url)("bcrypt");
  } catch {
    return undefined;
  }
}
const native = loadNative();

describe("hashing and verifying", () => {
  test("the classic OpenBSD vectors verify, as $2a$, $2b$ and $2y$, sync and off-thread", async () => {
    for (const [password, hash] of vectors) {
      for (const variant of ["$2a$", "$2b$", "$2y$"]) {
        const spelled = variant + hash.slice(4);
        assert.deepEqual(Auth.verifyPasswordSync(password, spelled), { ok: true, value: true }, `${variant} ${password}`);
        assert.deepEqual(await Auth.verifyPassword(password, spelled), { ok: true, value: true }, `${variant} ${password}`);
        assert.deepEqual(await Auth.verifyPassword(`${password}!`, spelled), { ok: true, value: false });
      }
    }
  });

  test("a fresh hash is a standard $2b$ hash at the requested cost with a random salt", async () => {
    const first = await Auth.hashPasswordCost("correct horse", 5);
    const second = await Auth.hashPasswordCost("correct horse", 5);
    assert.ok(first.ok && second.ok);
    assert.match(first.value, /^\$2b\$05\$[./A-Za-z0-9]{53}$/);
    assert.notEqual(first.value, second.value);
    assert.deepEqual(await Auth.verifyPassword("correct horse", first.value), { ok: true, value: true });
    assert.deepEqual(await Auth.verifyPassword("correct horsf", first.value), { ok: true, value: false });
    const sync = Auth.hashPasswordCostSync("pässwörd ✓", 4);
    assert.ok(sync.ok);
    assert.deepEqual(Auth.verifyPasswordSync("pässwörd ✓", sync.value), { ok: true, value: true });
  });

  test("hashPassword uses the default cost of 12", async () => {
    const hash = await Auth.hashPassword("default cost");
    assert.ok(hash.ok);
    assert.equal(hash.value.slice(0, 7), "$2b$12$");
    assert.equal(DEFAULT_COST, 12);
  });

  test("hashes we make verify with the native bcrypt package, and its hashes verify with ours", {
    skip: !native && "the native bcrypt addon does not load on this runtime",
  }, async () => {
    for (const password of ["", "a", "hunter2", "pässwörd ✓", "x".repeat(72)]) {
      const ours = await Auth.hashPasswordCost(password, 4);
      assert.ok(ours.ok);
      assert.equal(native!.compareSync(password, ours.value), true, password);
      assert.deepEqual(Auth.verifyPasswordSync(password, native!.hashSync(password, 4)), { ok: true, value: true });
    }
    for (const [password, hash] of vectors) assert.equal(native!.compareSync(password, hash), true);
  });

  test("many hashes at once all complete, on the worker pool or the runtime's bcrypt", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => Auth.hashPasswordCost(`pw${i}`, 4)));
    for (const [i, result] of results.entries()) {
      assert.ok(result.ok);
      assert.deepEqual(Auth.verifyPasswordSync(`pw${i}`, result.value), { ok: true, value: true });
    }
  });
});

describe("refusals", () => {
  test("a password over 72 bytes is refused by hashing and never matches on verify", async () => {
    const long = "é".repeat(37); // 74 bytes in UTF-8, 37 UTF-16 units
    for (
      const result of [
        await Auth.hashPassword(long),
        await Auth.hashPasswordCost(long, 4),
        Auth.hashPasswordSync(long),
        Auth.hashPasswordCostSync(long, 4),
      ]
    ) {
      assert.equal(!result.ok && result.error.code, "password_too_long");
    }
    const hash = Auth.hashPasswordCostSync("x".repeat(72), 4);
    assert.ok(hash.ok);
    assert.deepEqual(await Auth.verifyPassword("x".repeat(73), hash.value), { ok: true, value: false });
    assert.deepEqual(Auth.verifyPasswordSync("x".repeat(73), hash.value), { ok: true, value: false });
    assert.deepEqual(Auth.verifyPasswordSync("x".repeat(72), hash.value), { ok: true, value: true });
  });

  test("a cost outside 4..31 or not a whole number is refused", async () => {
    for (const cost of [3, 32, 0, -1, 10.5, Number.NaN, "12" as unknown as number]) {
      const result = await Auth.hashPasswordCost("pw", cost);
      assert.equal(!result.ok && result.error.code, "bad_cost", String(cost));
      const sync = Auth.hashPasswordCostSync("pw", cost);
      assert.equal(!sync.ok && sync.error.code, "bad_cost");
    }
  });

  test("a malformed hash is an Err, not Ok(false)", async () => {
    const valid = vectors[1]![1];
    for (
      const hash of [
        "",
        "garbage",
        "$2a$06$short",
        "$2x$06$" + valid.slice(7),
        "$2a$03$" + valid.slice(7),
        "$2a$32$" + valid.slice(7),
        valid + "x",
        valid.slice(0, -1) + "!",
      ]
    ) {
      const result = await Auth.verifyPassword("a", hash);
      assert.equal(!result.ok && result.error.code, "bad_hash", hash);
      const sync = Auth.verifyPasswordSync("a", hash);
      assert.equal(!sync.ok && sync.error.code, "bad_hash");
    }
  });
});
