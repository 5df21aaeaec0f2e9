import { test } from "node:test";
import assert from "node:assert/strict";
import { Server } from "../../src/server/mod.ts";
import { withEnv } from "../support/env.ts";

const SHORT = "s".repeat(31);
const GOOD = "g".repeat(32);

test("a set SVC_AUTH_TOKEN_SECRET under 32 bytes refuses to start, with or without the production gate", async () => {
  for (const ENV of [undefined, "dev", "production"]) {
    await withEnv({ SVC_AUTH_TOKEN_SECRET: SHORT, ENV }, () => {
      const result = Server.checkSecretAtStart();
      assert.equal(!result.ok && result.error.code, "secret_too_short", String(ENV));
      assert.ok(!result.ok && result.error.message.includes("SVC_AUTH_TOKEN_SECRET"), "the error names the variable");
      assert.ok(!result.ok && !result.error.message.includes(SHORT), "the error never prints the value");
    });
  }
});

test("a missing secret refuses to start only when the production gate is on", async () => {
  await withEnv({ SVC_AUTH_TOKEN_SECRET: undefined, ENV: "production" }, () => {
    const result = Server.checkSecretAtStart();
    assert.equal(!result.ok && result.error.code, "secret_missing");
    assert.ok(!result.ok && result.error.message.includes("SVC_AUTH_TOKEN_SECRET"));
  });
  await withEnv({ SVC_AUTH_TOKEN_SECRET: undefined, ENV: undefined, MYAPP_ENV: "live" }, () => {
    assert.equal(Server.checkSecretAtStart("MYAPP").ok, false);
    assert.equal(Server.checkSecretAtStart().ok, true, "without the prefix, MYAPP_ENV is not this app's gate");
  });
  for (const ENV of [undefined, "dev", "development", "local"]) {
    await withEnv({ SVC_AUTH_TOKEN_SECRET: undefined, ENV }, () => assert.equal(Server.checkSecretAtStart().ok, true, String(ENV)));
  }
});

test("a secret of 32 bytes or more starts in every mode, counting UTF-8 bytes", async () => {
  for (const secret of [GOOD, "€".repeat(11)]) {
    for (const ENV of [undefined, "production"]) {
      await withEnv({ SVC_AUTH_TOKEN_SECRET: secret, ENV }, () => assert.equal(Server.checkSecretAtStart().ok, true));
    }
  }
  await withEnv({ SVC_AUTH_TOKEN_SECRET: "€".repeat(10) }, () => assert.equal(Server.checkSecretAtStart().ok, false));
});
