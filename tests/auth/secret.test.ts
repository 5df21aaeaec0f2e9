import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { inspect } from "node:util";
import { Secret, SECRET_PLACEHOLDER } from "../../src/auth/secret.ts";
import { Auth } from "../../src/auth/mod.ts";

const key = "k3y-that-must-never-print-0123456789abcdef";
const secret = Secret.fromString(key);
const runtime = globalThis as {
  Deno?: { inspect(v: unknown, o?: object): string; execPath(): string };
  Bun?: { inspect(v: unknown): string };
};

test("String(), template literals, concatenation and JSON.stringify print only the placeholder", () => {
  assert.equal(String(secret), SECRET_PLACEHOLDER);
  assert.equal(`${secret}`, SECRET_PLACEHOLDER);
  assert.equal("" + secret, SECRET_PLACEHOLDER);
  assert.equal(JSON.stringify(secret), JSON.stringify(SECRET_PLACEHOLDER));
  assert.equal(JSON.stringify({ secret }), JSON.stringify({ secret: SECRET_PLACEHOLDER }));
  assert.equal(Object.prototype.toString.call(secret), "[object Secret]");
});

test("util.inspect prints only the placeholder, however deep and with hidden fields shown", () => {
  for (
    const text of [inspect(secret), inspect({ a: [secret] }, { depth: 10, showHidden: true }), inspect(secret, { customInspect: true })]
  ) {
    assert.ok(text.includes(SECRET_PLACEHOLDER), text);
    assert.ok(!text.includes(key), text);
  }
});

test("the runtime's own inspector (Deno.inspect or Bun.inspect) prints only the placeholder", {
  skip: !runtime.Deno && !runtime.Bun && "Node has no inspector of its own beyond util.inspect (tested above)",
}, () => {
  const text = runtime.Deno ? runtime.Deno.inspect({ s: secret }, { depth: 10, showHidden: true }) : runtime.Bun!.inspect({ s: secret });
  assert.ok(text.includes(SECRET_PLACEHOLDER), text);
  assert.ok(!text.includes(key), text);
});

test("no own property, key listing or structured clone exposes the key", () => {
  assert.deepEqual(Object.keys(secret), ["source"]);
  assert.ok(!JSON.stringify(Object.getOwnPropertyDescriptors(secret)).includes(key));
  assert.ok(!JSON.stringify({ ...secret }).includes(key));
  const cloned = structuredClone(secret) as unknown;
  assert.ok(!JSON.stringify(cloned).includes(key));
  assert.ok(Object.isFrozen(secret));
});

test("console.log, console.error, console.dir and console.table on this runtime never print the key", () => {
  const fixture = new URL("./fixtures/print-secret.ts", import.meta.url).pathname;
  const args = runtime.Deno
    ? [runtime.Deno.execPath(), ["run", "-A", fixture, key]]
    : runtime.Bun
    ? [process.execPath, [fixture, key]]
    : [process.execPath, ["--import", "tsx", fixture, key]];
  const output = execFileSync(args[0] as string, args[1] as string[], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  assert.ok(output.includes(SECRET_PLACEHOLDER), output);
  assert.ok(!output.includes(key), output);
  assert.ok(!output.includes("k3y"), output);
});

test("Secret.fromEnv reads the variable when called, not when the module loads", () => {
  const name = "SVC_TEST_SECRET_FROM_ENV";
  delete process.env[name];
  const before = Secret.fromEnv(name);
  process.env[name] = "x".repeat(40);
  const after = Secret.fromEnv(name);
  delete process.env[name];
  const unset = Auth.signToken(before, { sub: "1" }, 60);
  assert.equal(unset.ok, false);
  assert.equal(!unset.ok && unset.error.code, "secret_missing");
  assert.ok(!unset.ok && unset.error.message.includes(name), "the error names the variable");
  assert.equal(Auth.signToken(after, { sub: "1" }, 60).ok, true);
  assert.equal(after.source, `env ${name}`);
});

test("Secret.fromEnv on an unset or empty variable is secret_missing for signing and verifying; a set but short one is secret_too_short", () => {
  const name = "SVC_TEST_SECRET_MISSING";
  delete process.env[name];
  const missing = Secret.fromEnv(name);
  process.env[name] = "";
  const empty = Secret.fromEnv(name);
  process.env[name] = "short";
  const short = Secret.fromEnv(name);
  delete process.env[name];
  for (const secret of [missing, empty]) {
    for (
      const result of [
        Auth.signToken(secret, { sub: "1" }, 60),
        Auth.verifyToken(secret, "a.b.c"),
        Auth.signSlidingToken(secret, { sub: "1" }, { windowSeconds: 60, maxLifetimeSeconds: 600 }),
      ]
    ) {
      assert.equal(!result.ok && result.error.code, "secret_missing");
    }
  }
  const result = Auth.signToken(short, { sub: "1" }, 60);
  assert.equal(!result.ok && result.error.code, "secret_too_short");
});

test("a secret under 32 bytes of UTF-8 is refused by signToken and signSlidingToken; 32 bytes is enough", () => {
  const short = Secret.fromString("x".repeat(31));
  // 11 three-byte characters are 33 bytes of UTF-8 but only 11 UTF-16 units.
  const multibyte = Secret.fromString("€".repeat(11));
  for (
    const result of [
      Auth.signToken(short, { sub: "1" }, 60),
      Auth.signSlidingToken(short, { sub: "1" }, { windowSeconds: 60, maxLifetimeSeconds: 600 }),
      Auth.verifyToken(short, "a.b.c"),
    ]
  ) {
    assert.equal(!result.ok && result.error.code, "secret_too_short");
    assert.ok(!result.ok && !result.error.message.includes("x".repeat(31)));
  }
  assert.equal(Auth.signToken(Secret.fromString("x".repeat(32)), { sub: "1" }, 60).ok, true);
  assert.equal(Auth.signToken(multibyte, { sub: "1" }, 60).ok, true);
  assert.equal(Auth.signToken(Secret.fromString("€".repeat(10)), { sub: "1" }, 60).ok, false);
});
