import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Auth, Secret } from "../../src/auth/mod.ts";
import { setLogSink } from "../../src/log.ts";
import type { Result } from "../../src/result.ts";
import { SECRET_TEXT } from "./token-helpers.ts";

after(() => Auth.closePasswordWorkers());

const secret = Secret.fromString(SECRET_TEXT);
const hash = "$2a$06$m0CrhHm10qJ3lXRY.5zDGO3rS2KdeeWLuGmsfGlMfOxih58VYVfxe";
const wrongValues: Array<[unknown, string]> = [
  [42, "number"],
  [null, "null"],
  [undefined, "undefined"],
  [{ toString: () => "pw" }, "object"],
  [["pw"], "array"],
  [true, "boolean"],
  [Symbol("s"), "symbol"],
  [10n, "bigint"],
];

// Untyped JavaScript reaching each String slot of the Layer 1 kernels (docs/auth.md#boundary-checks).
const kernels: Array<[string, (value: never) => Result<unknown> | Promise<Result<unknown>>]> = [
  ["hashPassword", (v) => Auth.hashPassword(v)],
  ["hashPassword", (v) => Auth.hashPasswordSync(v)],
  ["hashPasswordCost", (v) => Auth.hashPasswordCost(v, 4)],
  ["hashPasswordCost", (v) => Auth.hashPasswordCostSync(v, 4)],
  ["verifyPassword", (v) => Auth.verifyPassword(v, hash)],
  ["verifyPassword", (v) => Auth.verifyPassword("a", v)],
  ["verifyPassword", (v) => Auth.verifyPasswordSync(v, hash)],
  ["passwordStrength", (v) => Auth.passwordStrength(v)],
  ["verifyToken", (v) => Auth.verifyToken(secret, v)],
];

test("a non-string in any String slot returns Err '<kernel>: expected String' and logs one audit line with the JS type", async () => {
  for (const [kernel, call] of kernels) {
    for (const [value, jsType] of wrongValues) {
      const lines: string[] = [];
      const previous = setLogSink((level, line) => lines.push(`[${level}] ${line}`));
      let result: Result<unknown>;
      try {
        result = await call(value as never);
      } finally {
        setLogSink(previous);
      }
      assert.equal(result.ok, false);
      if (result.ok) continue;
      assert.equal(result.error.code, "expected_string");
      assert.equal(result.error.message, `${kernel}: expected String`);
      assert.ok(!result.error.message.includes(jsType) || kernel.toLowerCase().includes(jsType), "the type never reaches the caller");
      assert.deepEqual(lines, [`[WARN] auth.boundary kernel=${kernel} jsType=${jsType} reason=non-string-arg`]);
    }
  }
});

test("a string argument produces no audit line", async () => {
  const lines: string[] = [];
  const previous = setLogSink((_level, line) => lines.push(line));
  try {
    assert.equal(Auth.passwordStrength("hunter2").ok, true);
    assert.equal((await Auth.verifyPassword("a", hash)).ok, true);
    assert.equal(Auth.verifyToken(secret, "x.y.z").ok, false);
  } finally {
    setLogSink(previous);
  }
  assert.deepEqual(lines, []);
});
