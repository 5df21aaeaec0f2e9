import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { hmacSha256Key } from "../../src/runtime/hmac.ts";

// The HMAC behind every token comes from the platform where it has one, and @noble/hashes
// elsewhere (src/runtime/hmac.ts); both must agree with node:crypto bit for bit (RFC 2104).
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed ${SEED} (FC_SEED=${SEED} to replay)`);
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const reference = (key: Uint8Array, data: string) => createHmac("sha256", key).update(data, "utf8").digest();

test("RFC 4231 test case 2 (key 'Jefe')", () => {
  for (const backend of ["auto", "portable"] as const) {
    const mac = hmacSha256Key(new TextEncoder().encode("Jefe"), backend).sign("what do ya want for nothing?");
    assert.equal(
      Buffer.from(mac, "base64url").toString("hex"),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
      backend,
    );
  }
});

test("property: MACs equal node:crypto's for random keys and ASCII or Unicode messages of every block boundary", () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 0, maxLength: 150 }),
      fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.string({ unit: "grapheme", maxLength: 120 }),
        fc.integer({ min: 0, max: 200 }).map((n) => "a".repeat(n)),
      ),
      (key, data) => {
        const expected = reference(key, data);
        assert.equal(hmacSha256Key(key).sign(data), expected.toString("base64url"));
        assert.equal(hmacSha256Key(key, "portable").sign(data), expected.toString("base64url"));
        // verify reads the signing input and the signature in place, as a token holds them.
        for (const backend of ["auto", "portable"] as const) {
          const verifier = hmacSha256Key(key, backend);
          const token = `${data}.${expected.toString("base64url")}`;
          assert.equal(verifier.verify(token, data.length, data.length + 1), true);
          assert.equal(verifier.verify(`${token}A`, data.length, data.length + 1), false);
          assert.equal(verifier.verify(token.slice(0, -1), data.length, data.length + 1), false);
          // The last char carries 2 unused bits: a second spelling of the same bytes must not match.
          const respelled = token.slice(0, -1) + ALPHABET[ALPHABET.indexOf(token.at(-1)!) ^ 1];
          assert.equal(verifier.verify(respelled, data.length, data.length + 1), false);
        }
      },
    ),
    { numRuns: 1500, seed: SEED },
  );
});

test("a signer keeps no state between MACs: the same input always gives the same MAC", () => {
  const sign = hmacSha256Key(new Uint8Array(40).fill(7)).sign;
  const first = sign("header.payload");
  for (const other of ["x", "é".repeat(100), "a".repeat(64), ""]) sign(other);
  assert.equal(sign("header.payload"), first);
});
