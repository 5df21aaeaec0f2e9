import { test } from "node:test";
import assert from "node:assert/strict";
import { Auth } from "../../src/auth/mod.ts";
import { labelForScore } from "../../src/auth/strength.ts";

test("common and guessable passwords are weak, however many character classes they mix", () => {
  for (
    const password of [
      "",
      "a",
      "password",
      "password123",
      "Password1!",
      "qwerty123",
      "hunter2",
      "letmein",
      "12345678",
      "iloveyou",
      "P@ssw0rd",
    ]
  ) {
    assert.deepEqual(Auth.passwordStrength(password), { ok: true, value: "weak" }, password);
  }
});

test("long random passphrases and random strings are strong", () => {
  for (
    const password of [
      "correct horse battery staple",
      "vivid-Orbit-tundra-57-maple",
      "kx9-Vq2p!mZ7",
      "gLx2$8wQp#Zr",
      "a reasonably long sentence nobody has used",
    ]
  ) {
    assert.deepEqual(Auth.passwordStrength(password), { ok: true, value: "strong" }, password);
  }
});

test("passwords between the two are fair", () => {
  for (const password of ["tundra-maple", "Summer-Bicycle", "mango7orbit"]) {
    assert.deepEqual(Auth.passwordStrength(password), { ok: true, value: "fair" }, password);
  }
});

test("the score mapping is 0-1 weak, 2-3 fair, 4 strong", () => {
  assert.deepEqual([0, 1, 2, 3, 4].map(labelForScore), ["weak", "weak", "fair", "fair", "strong"]);
});

test("a very long password is rated from its analysed prefix", () => {
  const result = Auth.passwordStrength("ab1!".repeat(10_000));
  assert.ok(result.ok);
  assert.ok(["weak", "fair", "strong"].includes(result.value));
});
