// The production gate's signals (NODE_ENV beside ENV and <PREFIX>_ENV), the secret resolved when
// a builder is called, and the demo and the Hono example refusing to start in production without
// their secret, with the message that says what to set (docs/auth.md#production-gate).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Live, Secret, Server, Ui } from "../../src/mod.ts";
import { withEnv } from "../support/env.ts";

const NONE = {
  ENV: undefined,
  MYAPP_ENV: undefined,
  NODE_ENV: undefined,
  SVC_AUTH_TOKEN_SECRET: undefined,
  SVC_TEST_GATE_SECRET: undefined,
};
const GOOD = "g".repeat(40);

test("NODE_ENV=production turns the gate on; other NODE_ENV values do not; ENV and <PREFIX>_ENV win over it", async () => {
  const cases: Array<[Record<string, string | undefined>, boolean, string | undefined]> = [
    [{}, false, undefined],
    [{ NODE_ENV: "production" }, true, "NODE_ENV"],
    [{ NODE_ENV: "Production" }, true, "NODE_ENV"],
    [{ NODE_ENV: "development" }, false, "NODE_ENV"],
    [{ NODE_ENV: "test" }, false, "NODE_ENV"],
    [{ NODE_ENV: "production", ENV: "dev" }, false, "ENV"],
    [{ NODE_ENV: "development", ENV: "staging" }, true, "ENV"],
    [{ NODE_ENV: "production", ENV: "dev", MYAPP_ENV: "local" }, false, "MYAPP_ENV"],
    [{ NODE_ENV: "test", MYAPP_ENV: "prod" }, true, "MYAPP_ENV"],
  ];
  for (const [env, on, variable] of cases) {
    await withEnv({ ...NONE, ...env }, () => {
      const signal = Server.productionSignal("MYAPP");
      assert.equal(signal.on, on, JSON.stringify(env));
      assert.equal(signal.variable, variable, JSON.stringify(env));
      assert.equal(Server.productionGateOn("MYAPP"), on);
    });
  }
});

test("the start-up refusal names the signal it read and what to set", async () => {
  await withEnv({ ...NONE, NODE_ENV: "production" }, () => {
    const result = Server.checkSecretAtStart();
    assert.equal(!result.ok && result.error.code, "secret_missing");
    const message = result.ok ? "" : result.error.message;
    assert.match(message, /NODE_ENV=production/);
    assert.match(message, /set SVC_AUTH_TOKEN_SECRET to at least 32 random bytes/);
  });
});

test("slidingSession, tokenSession and withAuthSliding resolve their secret when built: missing in production throws there", async () => {
  const builders: Array<[string, () => unknown]> = [
    [
      "slidingSession",
      () => Server.slidingSession({ cookie: "s", secretEnv: "SVC_TEST_GATE_SECRET", windowSeconds: 60, maxLifetimeSeconds: 600 }),
    ],
    [
      "slidingSession",
      () =>
        Server.slidingSession({ cookie: "s", secret: Secret.fromEnv("SVC_TEST_GATE_SECRET"), windowSeconds: 60, maxLifetimeSeconds: 600 }),
    ],
    ["tokenSession", () => Server.tokenSession({ cookie: "s", secretEnv: "SVC_TEST_GATE_SECRET", lifetimeSeconds: 60 })],
    ["withAuthSliding", () => Server.withAuthSliding({ cookie: "s", secretEnv: "SVC_TEST_GATE_SECRET", sameSite: "Lax" })],
  ];
  for (const [who, build] of builders) {
    await withEnv({ ...NONE, NODE_ENV: "production" }, () => {
      assert.throws(build, (error: Error & { code?: string }) => {
        assert.equal(error.code, "secret_missing");
        assert.match(
          error.message,
          new RegExp(`${who}: SVC_TEST_GATE_SECRET is not set, and the production gate is on \\(NODE_ENV=production\\)`),
        );
        assert.match(error.message, /set SVC_TEST_GATE_SECRET to at least 32 random bytes/);
        return true;
      });
    });
    // In development a missing variable is read again at each request, so building is fine.
    await withEnv({ ...NONE }, () => assert.doesNotThrow(build));
    await withEnv({ ...NONE, NODE_ENV: "production", SVC_TEST_GATE_SECRET: GOOD }, () => assert.doesNotThrow(build));
    // A short secret is refused when built, in every mode.
    await withEnv({ ...NONE, SVC_TEST_GATE_SECRET: "short" }, () => assert.throws(build, /secret_too_short|at least 32/));
  }
});

test("Live.app resolves its secret option when built", async () => {
  const definition = { init: () => 0, update: (n: number) => n, view: () => Ui.h("p", {}, "x") };
  await withEnv({ ...NONE, NODE_ENV: "production", SVC_AUTH_TOKEN_SECRET: GOOD }, () => {
    assert.throws(
      () => Live.app(definition, { secret: Secret.fromEnv("SVC_TEST_GATE_SECRET") }),
      /Live\.app: SVC_TEST_GATE_SECRET is not set/,
    );
  });
  await withEnv({ ...NONE, NODE_ENV: "production" }, () => {
    assert.throws(() => Live.app(definition), /SVC_AUTH_TOKEN_SECRET is not set, and the production gate is on \(NODE_ENV=production\)/);
  });
});

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const runtime = "Bun" in globalThis ? "Bun" : "Deno" in globalThis ? "Deno" : "Node";

/**
 * The variables the production gate reads, passed empty (read as unset) unless a case sets them:
 * Deno's `spawnSync` adds the `env` it is given to the parent's environment instead of replacing
 * it, and earlier files of the suite set a secret in this process (tests/e2e/demo-server.ts), which
 * the child then started with, serving until the time limit.
 */
const GATE_UNSET: Record<string, string> = { SVC_AUTH_TOKEN_SECRET: "", ENV: "", NODE_ENV: "" };

/**
 * Runs an example's entry file as its own process, in `cwd`, with the environment given: under
 * Node and Bun nothing else of ours; under Deno over this process's, with the gate's variables
 * blanked (`GATE_UNSET`).
 */
function start(entry: string, cwd: string, env: Record<string, string>) {
  const file = join(REPO, entry);
  const tsx = pathToFileURL(createRequire(join(REPO, "noop.js")).resolve("tsx")).href;
  const args = runtime === "Node"
    ? ["--import", tsx, file]
    : runtime === "Bun"
    ? [`--tsconfig-override=${join(REPO, "tsconfig.json")}`, file]
    : ["run", "-A", `--config=${join(REPO, "deno.json")}`, file];
  const base: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "DENO_DIR", "XDG_CACHE_HOME"]) if (process.env[name]) base[name] = process.env[name]!;
  return spawnSync(process.execPath, args, { cwd, env: { ...base, ...GATE_UNSET, ...env }, encoding: "utf8", timeout: 60_000 });
}

test(
  "NODE_ENV=production without a secret: the demo and the Hono example refuse to start, saying what to set",
  () => {
    const empty = mkdtempSync(join(tmpdir(), "svc-gate-"));
    try {
      // The demo runs in an empty folder (no .env to load) on an in-memory database; the Hono
      // example in the checkout, whose tsconfig maps "svc-live" to the sources.
      const demo = `examples/demo/${runtime.toLowerCase()}.ts`;
      for (const [entry, cwd] of [[demo, empty], ["examples/hono-app/server.ts", REPO]] as const) {
        const result = start(entry, cwd, { NODE_ENV: "production", DATABASE_URL: ":memory:", PORT: "0" });
        assert.notEqual(result.status, 0, `${entry} exits non-zero`);
        assert.match(result.stderr, /SVC_AUTH_TOKEN_SECRET is not set, and the production gate is on \(NODE_ENV=production\)/, entry);
        assert.match(result.stderr, /set SVC_AUTH_TOKEN_SECRET to at least 32 random bytes/, entry);
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  },
);
