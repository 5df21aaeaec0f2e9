import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Auth, Secret } from "../../src/auth/mod.ts";
import { NOW, SECRET_TEXT } from "./token-helpers.ts";

const secret = Secret.fromString(SECRET_TEXT);
const params = { windowSeconds: 900, maxLifetimeSeconds: 86_400 };

function issue(now = NOW, p = params): string {
  const token = Auth.signSlidingToken(secret, { sub: "42" }, p, { now });
  assert.ok(token.ok);
  return token.value;
}

function claimsOf(token: string, now: number) {
  const verified = Auth.verifySlidingToken(secret, token, { now });
  assert.ok(verified.ok, !verified.ok ? verified.error.code : "");
  return verified.value;
}

test("signSlidingToken stamps iat, exp = iat + window, aexp = iat + max and w beside the caller's claims", () => {
  assert.deepEqual(claimsOf(issue(), NOW), { sub: "42", iat: NOW, iat_ms: NOW * 1000, exp: NOW + 900, aexp: NOW + 86_400, w: 900 });
});

test("a window longer than the maximum lifetime is an Err; equal is allowed", () => {
  const tooLong = Auth.signSlidingToken(secret, { sub: "1" }, { windowSeconds: 601, maxLifetimeSeconds: 600 });
  assert.equal(!tooLong.ok && tooLong.error.code, "sliding_window_too_long");
  assert.equal(Auth.signSlidingToken(secret, { sub: "1" }, { windowSeconds: 600, maxLifetimeSeconds: 600 }).ok, true);
  for (const bad of [{ windowSeconds: 0, maxLifetimeSeconds: 10 }, { windowSeconds: 5, maxLifetimeSeconds: 1.5 }, {} as never]) {
    const result = Auth.signSlidingToken(secret, { sub: "1" }, bad);
    assert.equal(!result.ok && result.error.code, "invalid_argument");
  }
});

test("a re-issue moves exp to now + w and keeps iat, aexp, w and the caller's claims unchanged", () => {
  const reissued = Auth.reissueSlidingToken(secret, claimsOf(issue(), NOW + 600), { now: NOW + 600 });
  assert.ok(reissued.ok);
  assert.deepEqual(claimsOf(reissued.value, NOW + 600), {
    sub: "42",
    iat: NOW,
    iat_ms: NOW * 1000,
    exp: NOW + 1500,
    aexp: NOW + 86_400,
    w: 900,
  });
});

test("a re-issue near the cap stops exp at aexp, and at or after aexp the re-issue is refused", () => {
  const short = { windowSeconds: 900, maxLifetimeSeconds: 1000 };
  const first = issue(NOW, short);
  const near = Auth.reissueSlidingToken(secret, claimsOf(first, NOW + 800), { now: NOW + 800 });
  assert.ok(near.ok);
  assert.equal(claimsOf(near.value, NOW + 800).exp, NOW + 1000);
  const atCap = Auth.reissueSlidingToken(secret, { ...claimsOf(near.value, NOW + 999) }, { now: NOW + 1000 });
  assert.equal(!atCap.ok && atCap.error.code, "sliding_cap_reached");
  // And the token itself lapses at aexp: sliding never carries it past the absolute cap.
  const lapsed = Auth.verifySlidingToken(secret, near.value, { now: NOW + 1000 });
  assert.equal(!lapsed.ok && lapsed.error.code, "token_expired");
});

test("a lapsed token cannot be re-issued, and a fixed token is not a sliding token", () => {
  const claims = claimsOf(issue(), NOW);
  const lapsed = Auth.reissueSlidingToken(secret, claims, { now: NOW + 900 });
  assert.equal(!lapsed.ok && lapsed.error.code, "token_expired");
  const fixed = Auth.signToken(secret, { sub: "1" }, 60, { now: NOW });
  assert.ok(fixed.ok);
  const asSliding = Auth.verifySlidingToken(secret, fixed.value, { now: NOW });
  assert.equal(!asSliding.ok && asSliding.error.code, "token_bad_claims");
});

test("property: however often and whenever it slides, iat never moves and exp never passes aexp", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 3600 }),
      fc.integer({ min: 0, max: 20_000 }),
      fc.array(fc.integer({ min: 1, max: 4000 }), { minLength: 1, maxLength: 30 }),
      (window, extra, gaps) => {
        const p = { windowSeconds: window, maxLifetimeSeconds: window + extra };
        let token = issue(NOW, p);
        let now = NOW;
        for (const gap of gaps) {
          now += gap;
          const verified = Auth.verifySlidingToken(secret, token, { now });
          if (!verified.ok) return verified.error.code === "token_expired" && now >= (claimsOf(token, NOW).exp as number);
          const next = Auth.reissueSlidingToken(secret, verified.value, { now });
          if (!next.ok) return next.error.code === "sliding_cap_reached" && now >= NOW + p.maxLifetimeSeconds;
          const claims = claimsOf(next.value, now);
          if (claims.iat !== NOW || claims.aexp !== NOW + p.maxLifetimeSeconds || claims.w !== window) return false;
          if ((claims.exp as number) > NOW + p.maxLifetimeSeconds || claims.exp !== Math.min(now + window, NOW + p.maxLifetimeSeconds)) {
            return false;
          }
          token = next.value;
        }
        return true;
      },
    ),
    { numRuns: 300 },
  );
});
