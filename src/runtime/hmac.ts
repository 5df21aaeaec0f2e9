/**
 * HMAC-SHA256 for JWS signatures, from the platform: node:crypto's `createHmac` where the runtime
 * has it (Node 20.16+, Bun and Deno all do, loaded synchronously through
 * `process.getBuiltinModule`), and @noble/hashes, an audited pure-JS implementation, anywhere
 * else. Nothing here implements SHA-256 itself.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeBytes } from "./base64url.ts";

/** An HMAC key set up once, for JWS signatures (RFC 7515 §A.1). */
export type HmacBase64urlKey = {
  /** The MAC of `data` (UTF-8 text), as unpadded base64url (RFC 4648 §5): the JWS signature segment. */
  readonly sign: (data: string) => string;
  /**
   * Whether `text`, from `signatureStart` to its end, is the base64url MAC of its first `dataEnd`
   * chars: a token's signature checked against its signing input. Constant time in the
   * signature's content; only the canonical spelling matches.
   */
  readonly verify: (text: string, dataEnd: number, signatureStart: number) => boolean;
};

/** Which implementation: the platform's where there is one ("auto"), or @noble/hashes ("portable"). */
export type HmacBackend = "auto" | "portable";

type NodeHmac = { update(data: string, encoding: "utf8"): NodeHmac; digest(encoding: "base64url"): string };
type NodeCrypto = { createHmac(algorithm: "sha256", key: Uint8Array): NodeHmac };
type ProcessLike = { getBuiltinModule?: (id: string) => unknown };

const nodeCrypto = (globalThis as { process?: ProcessLike }).process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
const utf8 = new TextEncoder();

function platformSigner(key: Uint8Array): (data: string) => string {
  const crypto = nodeCrypto!;
  // A copy: the caller's bytes may change after the key is made.
  const bytes = key.slice();
  return (data) => crypto.createHmac("sha256", bytes).update(data, "utf8").digest("base64url");
}

function nobleSigner(key: Uint8Array): (data: string) => string {
  const keyed = hmac.create(sha256, key);
  return (data) => encodeBytes(keyed.clone().update(utf8.encode(data)).digest());
}

/**
 * Whether `text` from `start` to its end equals `expected`, in time that depends only on the
 * lengths: a base64url string is compared char by char, so a non-canonical spelling of the same
 * bytes does not match.
 */
function equalAt(expected: string, text: string, start: number): boolean {
  if (text.length - start !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ text.charCodeAt(start + i);
  return difference === 0;
}

/** HMAC-SHA256 under `key`, signing and checking the unpadded base64url a JWS signature carries. */
export function hmacSha256Key(key: Uint8Array, backend: HmacBackend = "auto"): HmacBase64urlKey {
  const sign = backend === "auto" && nodeCrypto !== undefined ? platformSigner(key) : nobleSigner(key);
  return { sign, verify: (text, dataEnd, signatureStart) => equalAt(sign(text.slice(0, dataEnd)), text, signatureStart) };
}
