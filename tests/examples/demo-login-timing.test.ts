/**
 * The demo's login verifies an unknown email against a dummy hash at the cost it registers with
 * (docs/security.md#login-timing), from the first request on a handle that has never seen a hash.
 * bcrypt's time doubles with each step of cost, so the dummy's cost shows in the time: at cost 4 an
 * unknown email takes a few ms, at the default cost 12 some hundreds.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { Auth, Db } from "../../src/mod.ts";
import { createDemo } from "../../examples/demo/app.ts";
import { withEnv } from "../support/env.ts";

const handles: Db[] = [];
after(async () => {
  for (const db of handles) await db.close();
  Auth.closePasswordWorkers();
});

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

test("with bcryptCost 4, the demo's login of an unknown email on a fresh handle runs the dummy hash at cost 4, not the default 12", async () => {
  await withEnv({ SVC_AUTH_TOKEN_SECRET: "demo-login-timing-secret-0123456789abcdef" }, async () => {
    const db = Db.open(":memory:");
    handles.push(db);
    const demo = createDemo({ db, bcryptCost: 4, rateLimit: { limit: 1000, windowMs: 60_000 } });
    try {
      const login = async () => {
        const body = new URLSearchParams({ email: `nobody.${Math.random()}@example.com`, password: "wrong" });
        const resp = await demo.fetch(new Request("http://demo.test/login", { method: "POST", body }));
        assert.equal(resp.status, 303);
        await resp.body?.cancel();
      };
      await login(); // the schema, the worker and the JIT warm up
      const demoMs = Math.min(await timed(login), await timed(login), await timed(login));
      // The same unknown-email login without a cost on another fresh handle: the dummy at cost 12.
      const other = Db.open(":memory:");
      handles.push(other);
      await Auth.login(other, "warm@example.com", "wrong", { cost: 4 });
      const defaultMs = await timed(() => Auth.login(other, "nobody@example.com", "wrong"));
      assert.ok(demoMs * 8 < defaultMs, `demo login ${demoMs.toFixed(1)} ms, cost-12 dummy ${defaultMs.toFixed(1)} ms`);
    } finally {
      demo.close();
    }
  });
});
