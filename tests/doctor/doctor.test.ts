import { after, test } from "node:test";
import assert from "node:assert/strict";
import { doctor, type Finding } from "../../src/cli/doctor.ts";
import { Db, Live, Ui } from "../../src/mod.ts";
import { withEnv } from "../support/env.ts";

const definition = { init: () => 0, update: (n: number) => n + 1, view: (n: number) => Ui.h("p", {}, String(n)) };
const db = Db.open(":memory:");
const apps = [
  Live.app(definition),
  Live.app(definition).withRevocation(db),
  Live.app(definition).withAuthSliding({ cookie: "s", secretEnv: "X", sameSite: "Lax" }).withRevocation(db),
];
after(async () => {
  apps.forEach((a) => a.close());
  await db.close();
});

const levelOf = (findings: Finding[], check: string) => findings.filter((f) => f.check === check).map((f) => f.level);

test("a short secret is an error in every mode, naming the variable and never the value", async () => {
  await withEnv({ SVC_AUTH_TOKEN_SECRET: "short-secret", ENV: undefined }, () => {
    const findings = doctor({ exports: {}, source: "" });
    const secret = findings.find((f) => f.check === "secret")!;
    assert.equal(secret.level, "error");
    assert.match(secret.message, /SVC_AUTH_TOKEN_SECRET/);
    assert.ok(!secret.message.includes("short-secret"));
  });
});

test("a missing secret is an error only with the production gate on, and the gate's state is reported", async () => {
  await withEnv({ SVC_AUTH_TOKEN_SECRET: undefined, ENV: "production" }, () => {
    const findings = doctor({ exports: {}, source: "" });
    assert.deepEqual(levelOf(findings, "secret"), ["error"]);
    assert.match(findings.find((f) => f.check === "production")!.message, /is on/);
  });
  await withEnv({ SVC_AUTH_TOKEN_SECRET: undefined, ENV: undefined }, () => {
    assert.deepEqual(levelOf(doctor({ exports: {}, source: "" }), "secret"), ["ok"]);
  });
});

test("the gate lint: off is a warning where sessions have users and ok where none has; on with nothing that binds sessions is an error; bound by code or by sliding is ok", async () => {
  await withEnv({ SVC_AUTH_TOKEN_SECRET: "x".repeat(40), ENV: undefined }, () => {
    // An app with no users: nothing for the gate to end, so no warning.
    assert.deepEqual(levelOf(doctor({ exports: { default: apps[0] }, source: "" }), "gate"), ["ok"]);
    assert.deepEqual(levelOf(doctor({ exports: { default: apps[0] }, source: "return [m, Live.bindSessionUser(id)];" }), "gate"), ["warn"]);
    assert.deepEqual(levelOf(doctor({ exports: { default: apps[0] }, source: "live.withAuth(session);" }), "gate"), ["warn"]);
    assert.deepEqual(levelOf(doctor({ exports: { default: apps[1] }, source: "export default app;" }), "gate"), ["error"]);
    assert.deepEqual(levelOf(doctor({ exports: { default: apps[1] }, source: "return [m, Live.bindSessionUser(id)];" }), "gate"), ["ok"]);
    assert.deepEqual(levelOf(doctor({ exports: { live: apps[2] }, source: "" }), "gate"), ["ok"]);
    assert.deepEqual(levelOf(doctor({ exports: { default: { app: apps[1], fetch: () => 0 } }, source: "" }), "gate"), ["error"]);
    assert.deepEqual(levelOf(doctor({ exports: {}, source: "" }), "gate"), ["warn"]);
  });
});
