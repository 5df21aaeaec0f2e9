import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Auth, Secret } from "../../src/auth/mod.ts";
import { setLogSink } from "../../src/log.ts";
import { b64url, NOW, SECRET_TEXT } from "./token-helpers.ts";

const secret = Secret.fromString(SECRET_TEXT);
const at = { now: NOW };
const claims = fc.record({ sub: fc.string(), n: fc.integer(), tags: fc.array(fc.string(), { maxLength: 3 }) });

function signed(value: object): string {
  const token = Auth.signToken(secret, value, 3600, at);
  assert.ok(token.ok);
  return token.value;
}

/** Verification must refuse, and refuse as a Result: a throw fails the property. */
function refused(token: string): boolean {
  return Auth.verifyToken(secret, token, at).ok === false;
}

test("every valid token verifies (the properties below are not vacuous)", () => {
  fc.assert(fc.property(claims, (value) => Auth.verifyToken(secret, signed(value), at).ok));
});

test("claims round-trip exactly, Unicode included (ASCII payloads take a faster decoding path)", () => {
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: "grapheme" }),
    fc.string({ unit: "binary" }),
    fc.constantFrom("\u2028", "é", "😀", "\u0080", "\u00ff"),
  );
  fc.assert(
    fc.property(fc.record({ sub: text, name: text, n: fc.integer() }), (value) => {
      const verified = Auth.verifyToken(secret, signed(value), at);
      assert.ok(verified.ok);
      assert.deepEqual({ sub: verified.value.sub, name: verified.value.name, n: verified.value.n }, { ...value });
    }),
    { numRuns: 1000 },
  );
});

test("a token with any single bit flipped in any character is never accepted", () => {
  fc.assert(
    fc.property(claims, fc.nat(), fc.integer({ min: 0, max: 6 }), (value, position, bit) => {
      const token = signed(value);
      const index = position % token.length;
      const flipped = String.fromCharCode(token.charCodeAt(index) ^ (1 << bit));
      return refused(token.slice(0, index) + flipped + token.slice(index + 1));
    }),
    { numRuns: 2000 },
  );
});

test("swapped segments and headers taken from another token, re-encoded or re-ordered, are never accepted", () => {
  const headers = [
    `{"typ":"JWT","alg":"HS256"}`,
    `{"alg":"HS256"}`,
    `{"alg":"HS256","typ":"JWT","kid":"x"}`,
    `{"alg":"HS256","typ":"JWT"} `,
    `{"alg":"none","typ":"JWT"}`,
    `{"alg":"HS512","typ":"JWT"}`,
  ];
  fc.assert(
    fc.property(claims, claims, fc.constantFrom(...headers), fc.nat(5), (a, b, header, permutation) => {
      const [h, p, s] = signed(a).split(".") as [string, string, string];
      const [, p2, s2] = signed(b).split(".") as [string, string, string];
      const candidates = [
        `${b64url(header)}.${p}.${s}`,
        `${h}.${p2}.${s}`,
        `${h}.${p}.${s2}`,
        [`${p}.${h}.${s}`, `${s}.${p}.${h}`, `${h}.${s}.${p}`, `${p}.${s}.${h}`, `${s}.${h}.${p}`, `${h}.${p2}.${s}`][permutation]!,
      ];
      return candidates.every((token) => (p === p2 && token === `${h}.${p2}.${s}`) || refused(token));
    }),
  );
});

test("truncated, padded, or extended tokens and segments are never accepted", () => {
  fc.assert(
    fc.property(
      claims,
      fc.nat(),
      fc.constantFrom("=", "==", ".", "A", "AAAA", " ", "\n", "%3D", "+", "/"),
      fc.nat(2),
      (value, cut, pad, segment) => {
        const token = signed(value);
        const parts = token.split(".");
        const padded = parts.map((part, i) => (i === segment ? part + pad : part)).join(".");
        const truncated = token.slice(0, cut % token.length);
        return refused(padded) && refused(truncated) && refused(`${token}${pad}`) && refused(`${pad}${token}`);
      },
    ),
    { numRuns: 1000 },
  );
});

test("oversized segments are refused without being decoded", () => {
  fc.assert(
    fc.property(fc.integer({ min: 8200, max: 200_000 }), fc.nat(2), (size, segment) => {
      const parts = signed({ sub: "1" }).split(".");
      parts[segment] = "A".repeat(size);
      const result = Auth.verifyToken(secret, parts.join("."), at);
      return !result.ok && result.error.code === "token_malformed";
    }),
    { numRuns: 50 },
  );
});

test("random strings, including ones shaped like tokens, are never accepted and never throw", () => {
  const segment = fc.stringMatching(/^[A-Za-z0-9_-]{0,60}$/);
  fc.assert(
    fc.property(
      fc.oneof(fc.string({ unit: "binary" }), fc.tuple(segment, segment, segment).map((parts) => parts.join("."))),
      (token) => refused(token),
    ),
    { numRuns: 3000 },
  );
});

test("non-string tokens from untyped callers are an Err, never a throw", () => {
  const previous = setLogSink(() => undefined); // the boundary's audit lines are tested elsewhere
  try {
    fc.assert(fc.property(fc.anything(), (value) => typeof value === "string" || refused(value as string)));
  } finally {
    setLogSink(previous);
  }
});
