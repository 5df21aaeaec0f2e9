import { after, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Auth, Secret } from "../../src/auth/mod.ts";
import { Db } from "../../src/db/mod.ts";
import { NOW, SECRET_TEXT } from "./token-helpers.ts";

// Every numeric option of the auth API refuses what is not a number of its kind with an Err: a
// clock that is NaN, an infinity or not a number at all must never make an expired token pass.
const secret = Secret.fromString(SECRET_TEXT);
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed ${seed} (FC_SEED=${seed} to replay)`);
const runs = { seed, numRuns: 300 };
const db = Db.open(":memory:");
after(async () => {
  await db.close();
  Auth.closePasswordWorkers();
});

/** Values that are not a finite number: what a caller's bug or hostile input could pass. */
const notFinite = fc.oneof(
  fc.constantFrom<unknown>(
    Number.NaN,
    Infinity,
    -Infinity,
    null,
    true,
    false,
    "",
    "1800000000",
    [],
    [NOW],
    {},
    { valueOf: () => NOW },
    10n,
  ),
  fc.string(),
  fc.object(),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 2 }),
);

const expiredToken = (() => {
  const token = Auth.signToken(secret, { sub: 1 }, 60, { now: NOW - 3600 });
  assert.ok(token.ok);
  return token.value;
})();
const expiredSliding = (() => {
  const token = Auth.signSlidingToken(secret, { sub: 1 }, { windowSeconds: 60, maxLifetimeSeconds: 600 }, { now: NOW - 3600 });
  assert.ok(token.ok);
  return token.value;
})();

function refusedAsInvalid(result: { ok: boolean; error?: { code: string } }): boolean {
  return result.ok === false && result.error?.code === "invalid_argument";
}

test("verifyToken with a now that is not a finite number is an Err, for an expired token and a fresh one", () => {
  const fresh = Auth.signToken(secret, { sub: 1 }, 3600, { now: NOW });
  assert.ok(fresh.ok);
  fc.assert(
    fc.property(notFinite, (now) => {
      const options = { now } as unknown as { now: number };
      return refusedAsInvalid(Auth.verifyToken(secret, expiredToken, options)) &&
        refusedAsInvalid(Auth.verifyToken(secret, fresh.value, options)) &&
        refusedAsInvalid(Auth.verifySlidingToken(secret, expiredSliding, options));
    }),
    runs,
  );
  // The clock the tests use does work (the property above is not vacuous).
  assert.equal(Auth.verifyToken(secret, expiredToken, { now: NOW }).ok, false);
  assert.equal((Auth.verifyToken(secret, expiredToken, { now: NOW }) as { error: { code: string } }).error.code, "token_expired");
  assert.ok(Auth.verifyToken(secret, fresh.value, { now: NOW }).ok);
});

test("signing and re-issuing with a now that is not a finite number is an Err", () => {
  const verified = Auth.verifySlidingToken(secret, expiredSliding, { now: NOW - 3600 });
  assert.ok(verified.ok);
  fc.assert(
    fc.property(notFinite, (now) => {
      const options = { now } as unknown as { now: number };
      return refusedAsInvalid(Auth.signToken(secret, { sub: 1 }, 60, options)) &&
        refusedAsInvalid(Auth.signSlidingToken(secret, { sub: 1 }, { windowSeconds: 60, maxLifetimeSeconds: 600 }, options)) &&
        refusedAsInvalid(Auth.reissueSlidingToken(secret, verified.value, options));
    }),
    runs,
  );
});

test("durations that are not positive whole seconds are an Err", () => {
  const badDuration = fc.oneof(notFinite, fc.constantFrom<unknown>(0, -1, 1.5, -Infinity, 2 ** 60));
  fc.assert(
    fc.property(badDuration, (value) => {
      const n = value as number;
      return refusedAsInvalid(Auth.signToken(secret, { sub: 1 }, n, { now: NOW })) &&
        refusedAsInvalid(Auth.signSlidingToken(secret, { sub: 1 }, { windowSeconds: n, maxLifetimeSeconds: 600 }, { now: NOW })) &&
        refusedAsInvalid(Auth.signSlidingToken(secret, { sub: 1 }, { windowSeconds: 60, maxLifetimeSeconds: n }, { now: NOW }));
    }),
    runs,
  );
});

test("a bcrypt cost that is not a whole number in 4..31 is an Err (bad_cost), for hashing and for register", async () => {
  const badCost = fc.oneof(notFinite.filter((v) => v !== null), fc.constantFrom<unknown>(3, 32, 10.5, -12, 0));
  await fc.assert(
    fc.asyncProperty(badCost, async (value) => {
      const cost = value as number;
      const hashed = Auth.hashPasswordCostSync("pw", cost);
      const registered = await Auth.register(db, "cost@example.com", "pw", { cost });
      return !hashed.ok && hashed.error.code === "bad_cost" && !registered.ok && registered.error.code === "bad_cost";
    }),
    { ...runs, numRuns: 100 },
  );
});

test("an issue time that is not a finite, non-negative number of seconds is an Err for the revocation checks", async () => {
  const id = await Auth.register(db, "iat@example.com", "pw", { cost: 4 });
  assert.ok(id.ok);
  await fc.assert(
    fc.asyncProperty(fc.oneof(notFinite, fc.constantFrom<unknown>(-1)), async (value) => {
      const state = await Auth.userAccessState(db, String(id.value), value as number);
      const revoked = await Auth.isRevoked(db, id.value, value as number);
      return refusedAsInvalid(state) && refusedAsInvalid(revoked);
    }),
    { ...runs, numRuns: 100 },
  );
});

test("a revocation cache TTL that is not a whole number of seconds, 0 or more, is an Err (bad_config)", () => {
  fc.assert(
    fc.property(fc.oneof(notFinite, fc.constantFrom<unknown>(-1, 1.5)), (ttl) => {
      const opened = Db.tryOpen(":memory:", { revocationCacheTtl: ttl as number });
      return !opened.ok && opened.error.code === "bad_config";
    }),
    runs,
  );
});

test("the sliding middleware with a clock that is not a finite number verifies no token (fail closed)", async () => {
  const { Hono } = await import("hono");
  const { Server } = await import("../../src/server/mod.ts");
  process.env.SVC_TEST_SLIDING_SECRET = SECRET_TEXT;
  try {
    const token = Auth.signSlidingToken(secret, { sub: "7" }, { windowSeconds: 60, maxLifetimeSeconds: 600 }, { now: NOW - 3600 });
    assert.ok(token.ok);
    for (const now of [Number.NaN, -Infinity, Infinity]) {
      const app = new Hono<{ Variables: { svcAuth: unknown } }>();
      app.use(Server.withAuthSliding({ cookie: "sid", secretEnv: "SVC_TEST_SLIDING_SECRET", sameSite: "Lax", now: () => now }));
      app.get("/", (c) => c.json({ auth: c.get("svcAuth") ?? null }));
      const resp = await app.fetch(new Request("http://app.test/", { headers: { Cookie: `sid=${token.value}` } }));
      assert.deepEqual(await resp.json(), { auth: null }, String(now));
    }
  } finally {
    delete process.env.SVC_TEST_SLIDING_SECRET;
  }
});
