import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Auth, Db, Secret } from "../../src/mod.ts";
import { issuedAtOf } from "../../src/auth/claims.ts";

// docs/auth.md#revocation-and-suspension: a login after a revoke works, even in the same second, while a
// token issued before the revoke in that second stays revoked. Tokens carry iat (whole seconds,
// for other verifiers) and iat_ms; the checks read iat_ms.
const T0 = 1_800_000_000;
let nowMs = T0 * 1000;
const db = Db.open(":memory:", { clock: () => nowMs });
const secret = Secret.fromString("same-second-secret-same-second-0123456789");
after(async () => {
  await db.close();
  Auth.closePasswordWorkers();
});

test("a token minted before the revoke in the same second is revoked; one minted after it is not", async () => {
  const id = await Auth.register(db, "same@example.com", "pw-pw-pw", { cost: 4 });
  assert.ok(id.ok);
  const before = Auth.signSlidingToken(secret, { sub: String(id.value) }, { windowSeconds: 900, maxLifetimeSeconds: 3600 }, {
    now: T0 + 0.1,
  });
  nowMs = T0 * 1000 + 400;
  assert.ok((await Auth.revokeUser(db, String(id.value))).ok);
  nowMs = T0 * 1000 + 700;
  assert.ok((await Auth.login(db, "same@example.com", "pw-pw-pw")).ok, "the login itself works");
  const after = Auth.signSlidingToken(secret, { sub: String(id.value) }, { windowSeconds: 900, maxLifetimeSeconds: 3600 }, {
    now: T0 + 0.7,
  });
  assert.ok(before.ok && after.ok);
  const claimsBefore = Auth.verifySlidingToken(secret, before.value, { now: T0 + 1 });
  const claimsAfter = Auth.verifySlidingToken(secret, after.value, { now: T0 + 1 });
  assert.ok(claimsBefore.ok && claimsAfter.ok);
  assert.equal(claimsBefore.value.iat, claimsAfter.value.iat, "both carry the same whole-second iat");
  assert.deepEqual(await Auth.isRevoked(db, String(id.value), issuedAtOf(claimsBefore.value)!), { ok: true, value: true });
  assert.deepEqual(await Auth.isRevoked(db, String(id.value), issuedAtOf(claimsAfter.value)!), { ok: true, value: false });
});
