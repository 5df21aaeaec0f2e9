import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import * as jose from "jose";
import { Auth, Secret } from "../../src/auth/mod.ts";
import type { ErrorCode } from "../../src/errors.ts";
import type { Result } from "../../src/result.ts";
import { b64url, NOW, SECRET_TEXT, unb64url } from "./token-helpers.ts";

const secret = Secret.fromString(SECRET_TEXT);
const keyBytes = new TextEncoder().encode(SECRET_TEXT);
const at = { now: NOW };

function sign(claims: object, expiry = 3600): string {
  const result = Auth.signToken(secret, claims, expiry, at);
  assert.ok(result.ok);
  return result.value;
}

/** Builds a token by hand from raw header and payload text, signed correctly. */
function forge(headerJson: string, payloadJson: string, key = SECRET_TEXT): string {
  const input = `${b64url(headerJson)}.${b64url(payloadJson)}`;
  return `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`;
}

function assertCode<T>(result: Result<T>, code: ErrorCode, token?: string): void {
  assert.equal(result.ok, false, `expected ${code}`);
  if (result.ok) return;
  assert.equal(result.error.code, code, result.error.message);
  if (token) {
    for (const part of token.split(".").filter((p) => p.length > 3)) {
      assert.ok(!result.error.message.includes(part), "the error message must not contain the token");
    }
  }
}

describe("signToken", () => {
  test("produces an HS256 JWT whose payload holds the claims plus iat = now (seconds), iat_ms = now (ms) and exp = now + expiry", () => {
    const token = sign({ sub: "42", role: "admin" }, 60);
    const [header, payload] = token.split(".");
    assert.deepEqual(JSON.parse(unb64url(header!)), { alg: "HS256", typ: "JWT" });
    assert.deepEqual(JSON.parse(unb64url(payload!)), { sub: "42", role: "admin", iat: NOW, iat_ms: NOW * 1000, exp: NOW + 60 });
    // A clock with milliseconds: iat stays whole seconds (what most verifiers expect), iat_ms keeps them.
    const precise = Auth.signToken(secret, { sub: "1" }, 60, { now: NOW + 0.25 });
    assert.ok(precise.ok);
    assert.deepEqual(JSON.parse(unb64url(precise.value.split(".")[1]!)), { sub: "1", iat: NOW, iat_ms: NOW * 1000 + 250, exp: NOW + 60 });
  });

  test("replaces caller-supplied iat and exp with the library's stamps", () => {
    const result = Auth.verifyToken(secret, sign({ sub: "1", exp: 1, iat: 5 }, 60), at);
    assert.ok(result.ok);
    assert.equal(result.value.exp, NOW + 60);
    assert.equal(result.value.iat, NOW);
  });

  test("carries a non-object claims value (string, number, array, null) under the val claim", () => {
    for (const value of ["hello", 42, [1, "two"], null, true]) {
      const token = Auth.signToken(secret, value, 60, at);
      assert.ok(token.ok);
      const verified = Auth.verifyToken(secret, token.value, at);
      assert.ok(verified.ok);
      assert.deepEqual(verified.value.val, value);
    }
  });

  test("refuses a non-positive or fractional expiry and claims with no JSON form", () => {
    for (const expiry of [0, -5, 1.5, Number.NaN, "60" as unknown as number]) {
      assertCode(Auth.signToken(secret, { sub: "1" }, expiry), "invalid_argument");
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assertCode(Auth.signToken(secret, cyclic as never, 60), "claims_not_json");
    assertCode(Auth.signToken(secret, { big: 10n } as never, 60), "claims_not_json");
    assertCode(Auth.signToken(secret, (() => 1) as never, 60), "claims_not_json");
  });

  test("refuses something that is not a Secret in the secret slot", () => {
    assertCode(Auth.signToken(SECRET_TEXT as unknown as Secret, { sub: "1" }, 60), "invalid_argument");
  });
});

describe("verifyToken, step by step in its fixed order", () => {
  test("accepts its own token and returns the claims as a JSON object", () => {
    const result = Auth.verifyToken(secret, sign({ sub: "42", n: [1, { x: null }] }), at);
    assert.ok(result.ok);
    assert.deepEqual(result.value, { sub: "42", n: [1, { x: null }], iat: NOW, iat_ms: NOW * 1000, exp: NOW + 3600 });
  });

  test("step 1, shape: wrong segment count, empty segments, non-base64url characters, padding and oversize are malformed", () => {
    const good = sign({ sub: "1" });
    const [h, p, s] = good.split(".") as [string, string, string];
    for (
      const token of [
        "",
        "abc",
        `${h}.${p}`,
        `${h}.${p}.${s}.x`,
        `.${p}.${s}`,
        `${h}..${s}`,
        `${h}.${p}=.${s}`,
        `${h}.${p}.${s}=`,
        `${h}+.${p}.${s}`,
        `${h}.${p}/.${s}`,
        `${h} .${p}.${s}`,
        `${h}.${p}*.${s}`,
        `${h}.${"A".repeat(9000)}.${s}`,
      ]
    ) {
      assertCode(Auth.verifyToken(secret, token, at), "token_malformed", token);
    }
  });

  test("step 1, shape: a re-encoded segment (non-zero unused trailing bits) is malformed, not a second spelling", () => {
    const good = sign({ sub: "1" });
    const [h, p, s] = good.split(".") as [string, string, string];
    // The last character of a 43-character signature carries 2 unused bits; flip one of them.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(s.at(-1)!);
    const respelled = `${h}.${p}.${s.slice(0, -1)}${alphabet[last | 1]}`;
    assert.equal(Buffer.from(respelled.split(".")[2]!, "base64url").equals(Buffer.from(s, "base64url")), true);
    assertCode(Auth.verifyToken(secret, respelled, at), "token_malformed", respelled);
  });

  test("step 2, alg: none, HS512, RS256, lowercase hs256, a missing alg, crit and a non-JSON or non-object header are refused as bad alg", () => {
    const payload = JSON.stringify({ sub: "1", exp: NOW + 60 });
    for (
      const header of [
        `{"alg":"none"}`,
        `{"alg":"HS512","typ":"JWT"}`,
        `{"alg":"RS256"}`,
        `{"alg":"hs256"}`,
        `{"typ":"JWT"}`,
        `{"alg":"HS256","crit":["b64"],"b64":false}`,
        `not json`,
        `["HS256"]`,
        `"HS256"`,
        `null`,
      ]
    ) {
      const token = forge(header, payload);
      assertCode(Auth.verifyToken(secret, token, at), "token_bad_alg", token);
    }
    const unsigned = `${b64url(`{"alg":"none"}`)}.${b64url(payload)}.`;
    assertCode(Auth.verifyToken(secret, unsigned, at), "token_bad_alg", unsigned);
  });

  test("step 2 comes before step 3: a bad alg with a bad signature is reported as bad alg", () => {
    const token = forge(`{"alg":"HS512"}`, `{"exp":${NOW + 60}}`, "another-secret-another-secret-0123456789");
    assertCode(Auth.verifyToken(secret, token, at), "token_bad_alg", token);
  });

  test("step 3, signature: another key, a changed payload, a changed, shortened or empty signature is a bad signature", () => {
    const good = sign({ sub: "1" });
    const [h, p, s] = good.split(".") as [string, string, string];
    assertCode(Auth.verifyToken(secret, `${h}.${p}.`, at), "bad_signature");
    assertCode(Auth.verifyToken(secret, `${h}.${p}.${s.slice(0, 40)}`, at), "bad_signature");
    assertCode(Auth.verifyToken(secret, `${h}.${p}.${s}AAAA`, at), "bad_signature");
    const other = Secret.fromString("another-secret-another-secret-0123456789");
    assertCode(Auth.verifyToken(other, good, at), "bad_signature", good);
    const tampered = `${h}.${b64url(JSON.stringify({ sub: "admin", iat: NOW, exp: NOW + 3600 }))}.${s}`;
    assertCode(Auth.verifyToken(secret, tampered, at), "bad_signature", tampered);
    const flipped = `${h}.${p}.${s[0] === "A" ? "B" : "A"}${s.slice(1)}`;
    assertCode(Auth.verifyToken(secret, flipped, at), "bad_signature", flipped);
  });

  test("step 3 comes before step 4: an unsigned non-object payload is a bad signature, not malformed", () => {
    const token = `${b64url(`{"alg":"HS256"}`)}.${b64url(`[1,2]`)}.${"A".repeat(43)}`;
    assertCode(Auth.verifyToken(secret, token, at), "bad_signature", token);
  });

  test("step 4, payload: a signed payload that is not a JSON object, or not UTF-8, is malformed", () => {
    for (const payload of [`[1,2]`, `"text"`, `42`, `null`, `{"exp":`]) {
      const token = forge(`{"alg":"HS256","typ":"JWT"}`, payload);
      assertCode(Auth.verifyToken(secret, token, at), "token_malformed", token);
    }
    const input = `${b64url(`{"alg":"HS256"}`)}.${Buffer.from([0xff, 0xfe, 0x7b]).toString("base64url")}`;
    const notUtf8 = `${input}.${createHmac("sha256", SECRET_TEXT).update(input).digest("base64url")}`;
    assertCode(Auth.verifyToken(secret, notUtf8, at), "token_malformed", notUtf8);
  });

  test("step 5, claims: exp must be present and numeric, and now < exp; a missing or bad exp is bad claims", () => {
    assertCode(Auth.verifyToken(secret, forge(`{"alg":"HS256"}`, `{"sub":"1"}`), at), "token_bad_claims");
    assertCode(Auth.verifyToken(secret, forge(`{"alg":"HS256"}`, `{"exp":"${NOW + 60}"}`), at), "token_bad_claims");
    const token = sign({ sub: "1" }, 60);
    assert.equal(Auth.verifyToken(secret, token, { now: NOW + 59 }).ok, true);
    assertCode(Auth.verifyToken(secret, token, { now: NOW + 60 }), "token_expired", token);
    assertCode(Auth.verifyToken(secret, token, { now: NOW + 6000 }), "token_expired", token);
  });

  test("step 5, claims: nbf is honoured when present, and a non-numeric nbf or iat is bad claims", () => {
    const token = forge(`{"alg":"HS256"}`, JSON.stringify({ nbf: NOW + 10, exp: NOW + 60 }));
    assertCode(Auth.verifyToken(secret, token, at), "token_not_yet_valid", token);
    assert.equal(Auth.verifyToken(secret, token, { now: NOW + 10 }).ok, true);
    assertCode(Auth.verifyToken(secret, forge(`{"alg":"HS256"}`, JSON.stringify({ nbf: "soon", exp: NOW + 60 })), at), "token_bad_claims");
    assertCode(Auth.verifyToken(secret, forge(`{"alg":"HS256"}`, JSON.stringify({ iat: "then", exp: NOW + 60 })), at), "token_bad_claims");
  });

  test("rotating the secret invalidates every outstanding token (docs/auth.md#secrets)", () => {
    const token = sign({ sub: "1" });
    assertCode(Auth.verifyToken(Secret.fromString(`${SECRET_TEXT}-rotated`), token, at), "bad_signature");
  });

  test("with no clock given, the system clock decides expiry", () => {
    const fresh = Auth.signToken(secret, { sub: "1" }, 60);
    assert.ok(fresh.ok);
    assert.equal(Auth.verifyToken(secret, fresh.value).ok, true);
    const old = Auth.signToken(secret, { sub: "1" }, 60, { now: 1_600_000_000 });
    assert.ok(old.ok);
    assertCode(Auth.verifyToken(secret, old.value), "token_expired");
  });
});

describe("cross-checks with jose, an independent JWT implementation", () => {
  test("tokens we sign verify under jose, with the same claims", async () => {
    const token = Auth.signToken(secret, { sub: "42", scope: ["a", "b"] }, 600);
    assert.ok(token.ok);
    const { payload, protectedHeader } = await jose.jwtVerify(token.value, keyBytes, { algorithms: ["HS256"] });
    assert.equal(protectedHeader.alg, "HS256");
    assert.equal(payload.sub, "42");
    assert.deepEqual(payload.scope, ["a", "b"]);
  });

  test("HS256 tokens jose signs verify under ours", async () => {
    const token = await new jose.SignJWT({ sub: "7", admin: true }).setProtectedHeader({ alg: "HS256" }).setIssuedAt().setExpirationTime(
      "10m",
    ).sign(keyBytes);
    const result = Auth.verifyToken(secret, token);
    assert.ok(result.ok, !result.ok ? result.error.code : "");
    assert.equal(result.value.sub, "7");
    assert.equal(result.value.admin, true);
  });

  test("a jose HS512 token is refused as bad alg, and a jose token without exp as bad claims", async () => {
    const hs512 = await new jose.SignJWT({ sub: "7" }).setProtectedHeader({ alg: "HS512" }).setExpirationTime("10m").sign(
      new Uint8Array(64).fill(1),
    );
    assertCode(Auth.verifyToken(secret, hs512), "token_bad_alg", hs512);
    const noExp = await new jose.SignJWT({ sub: "7" }).setProtectedHeader({ alg: "HS256" }).sign(keyBytes);
    assertCode(Auth.verifyToken(secret, noExp), "token_bad_claims", noExp);
  });
});
