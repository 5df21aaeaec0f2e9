/**
 * Synchronous HMAC-SHA256 (RFC 2104 over FIPS 180-4) with the key set up once.
 *
 * Tokens are signed and verified on every request, so this is a hot path (DESIGN.md §Measured
 * baselines). What is fastest differs per runtime, measured on each (bench/auth.bench.ts, a
 * 119-character signing input):
 *   - Bun: its native keyed hasher, copied per MAC, ~3.9M MACs/s (node:crypto there: ~1.5M).
 *   - Node and Deno: the SHA-256 below, in plain JS, ~1M MACs/s. node:crypto reaches only
 *     ~0.35M on Node and ~0.2M on Deno: for a short message its per-call cost (a new HMAC
 *     context that hashes both key pads again, and crossing into native code) outweighs the
 *     hashing. Here the two key pads are absorbed once, at key set-up, so a MAC costs only the
 *     message's own blocks plus one outer block, and ASCII input is read without encoding it.
 * @noble/hashes stays as the reference ("portable" backend) that the fast path is checked against.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeBytes } from "./base64url.ts";

/** Returns the MAC of `data` (UTF-8 text) under the key this signer was made for. */
export type HmacSigner = (data: string) => Uint8Array;
/** The same MAC, as unpadded base64url (RFC 4648 §5): the JWS signature segment. */
export type HmacBase64urlSigner = (data: string) => string;

/** An HMAC key set up once, for JWS signatures (RFC 7515 §A.1). */
export type HmacBase64urlKey = {
  /** The MAC of `data`, as unpadded base64url. */
  readonly sign: HmacBase64urlSigner;
  /**
   * Whether `text`, from `signatureStart` to its end, is the base64url MAC of its first `dataEnd`
   * chars: a token's signature checked against its signing input in place, without cutting either
   * out. Constant time in the signature's content; only the canonical spelling matches.
   */
  readonly verify: (text: string, dataEnd: number, signatureStart: number) => boolean;
};

const utf8 = new TextEncoder();
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** A 32-byte MAC in unpadded base64url is always 43 characters. */
const MAC_BASE64URL_LENGTH = 43;

// ---------------------------------------------------------------------------------------------
// SHA-256 compression (FIPS 180-4 §6.2.2), on 32-bit words kept as signed int32 with `| 0`.

/** FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Int32Array(64);
/** FIPS 180-4 §5.3.3: the same for the square roots of the first 8 primes. */
const INITIAL = new Int32Array(8);
{
  const primes: number[] = [];
  for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
  const fraction32 = (x: number) => Math.floor((x - Math.floor(x)) * 2 ** 32) | 0;
  primes.forEach((p, i) => (K[i] = fraction32(Math.cbrt(p))));
  for (let i = 0; i < 8; i++) INITIAL[i] = fraction32(Math.sqrt(primes[i]!));
}

/** The message schedule; the block being hashed is written into W[0..15] before compress(). */
const W = new Int32Array(64);

/**
 * One block. The schedule is extended inside the round loop, and Ch and Maj use their forms with
 * one operation fewer (g ^ (e & (f ^ g)), (a & b) | (c & (a | b))): ~15% faster than a separate
 * schedule loop on V8 (bench/auth.bench.ts); unrolling rounds measured slower.
 */
function compress(state: Int32Array): void {
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!;
  let e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let t = 0; t < 64; t++) {
    let word: number;
    if (t < 16) {
      word = W[t]!;
    } else {
      const x = W[t - 15]!;
      const y = W[t - 2]!;
      const sigma0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const sigma1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      word = W[t] = (W[t - 16]! + sigma0 + W[t - 7]! + sigma1) | 0;
    }
    const sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + sum1 + (g ^ (e & (f ^ g))) + K[t]! + word) | 0;
    const sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (sum0 + ((a & b) | (c & (a | b)))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/**
 * Hashes the first `length` chars of `message` onto `state`, which has already absorbed
 * `prefixBytes` bytes (the 64-byte key pad), and pads it (FIPS 180-4 §5.1.1), taking each char as
 * one byte. Returns the OR of every char: above 0x7f, the text was not ASCII, the state is not its
 * hash, and the caller hashes its UTF-8 bytes instead. Checking while hashing saves a second pass
 * over the (usually ASCII) input.
 */
function absorbFinal(state: Int32Array, message: string, length: number, prefixBytes: number): number {
  let seen = 0;
  let offset = 0;
  for (; offset + 64 <= length; offset += 64) {
    for (let w = 0, p = offset; w < 16; w++, p += 4) {
      const c0 = message.charCodeAt(p), c1 = message.charCodeAt(p + 1), c2 = message.charCodeAt(p + 2), c3 = message.charCodeAt(p + 3);
      seen |= c0 | c1 | c2 | c3;
      W[w] = (c0 << 24) | (c1 << 16) | (c2 << 8) | c3;
    }
    compress(state);
  }
  // The tail, the 0x80 marker, zeros and the 64-bit bit length: one block, or two if the tail
  // leaves fewer than 9 bytes of room.
  const tail = length - offset;
  const wholeWords = tail >> 2;
  let w = 0;
  for (let p = offset; w < wholeWords; w++, p += 4) {
    const c0 = message.charCodeAt(p), c1 = message.charCodeAt(p + 1), c2 = message.charCodeAt(p + 2), c3 = message.charCodeAt(p + 3);
    seen |= c0 | c1 | c2 | c3;
    W[w] = (c0 << 24) | (c1 << 16) | (c2 << 8) | c3;
  }
  let last = 0x80 << (24 - 8 * (tail & 3));
  for (let p = offset + 4 * wholeWords, shift = 24; p < length; p++, shift -= 8) {
    const c = message.charCodeAt(p);
    seen |= c;
    last |= c << shift;
  }
  W[w++] = last;
  for (; w < 16; w++) W[w] = 0;
  if (tail >= 56) {
    compress(state);
    for (w = 0; w < 14; w++) W[w] = 0;
  }
  const bits = (prefixBytes + length) * 8;
  W[14] = Math.floor(bits / 2 ** 32) | 0;
  W[15] = bits | 0;
  compress(state);
  return seen;
}

/** The UTF-8 bytes of `data` as a string of byte-valued chars. */
function utf8ByteString(data: string): string {
  const bytes = utf8.encode(data);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return binary;
}

/** Two states that have absorbed the key XOR ipad and XOR opad (RFC 2104 §2). */
function keyedStates(key: Uint8Array): { inner: Int32Array; outer: Int32Array } {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const padded = (pad: number) => {
    const state = INITIAL.slice();
    for (let w = 0; w < 16; w++) {
      const p = 4 * w;
      W[w] = ((block[p]! ^ pad) << 24) | ((block[p + 1]! ^ pad) << 16) | ((block[p + 2]! ^ pad) << 8) | (block[p + 3]! ^ pad);
    }
    compress(state);
    return state;
  };
  return { inner: padded(0x36), outer: padded(0x5c) };
}

/** Big-endian byte `i` (0..31) of a digest held as eight words. */
function digestByte(words: Int32Array, i: number): number {
  return (words[i >> 2]! >>> (24 - 8 * (i & 3))) & 0xff;
}

/**
 * The MAC of the first `length` chars of `data` as eight big-endian words, written into `out`.
 * Plain loops: no allocation per MAC, and a token's signing input is read in place.
 */
function portableMacWords(key: Uint8Array): (data: string, length: number, out: Int32Array) => void {
  const { inner, outer } = keyedStates(key);
  return (data, length, out) => {
    for (let w = 0; w < 8; w++) out[w] = inner[w]!;
    if (absorbFinal(out, data, length, 64) > 0x7f) {
      const bytes = utf8ByteString(data.slice(0, length));
      for (let w = 0; w < 8; w++) out[w] = inner[w]!;
      absorbFinal(out, bytes, bytes.length, 64);
    }
    // The outer hash: the opad block (already absorbed), then the 32-byte inner digest.
    for (let w = 0; w < 8; w++) {
      W[w] = out[w]!;
      out[w] = outer[w]!;
    }
    W[8] = 0x80000000;
    for (let w = 9; w < 15; w++) W[w] = 0;
    W[15] = (64 + 32) * 8;
    compress(out);
  };
}

function wordsToBytes(words: Int32Array): Uint8Array {
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = digestByte(words, i);
  return bytes;
}

const alphabetCodes = Array.from(BASE64URL, (char) => char.charCodeAt(0));
/** Each base64url char's 6-bit value by char code; -1 for every other code below 128. */
const sextets = new Int8Array(128).fill(-1);
alphabetCodes.forEach((code, value) => (sextets[code] = value));
/** Reused char codes of one encoded MAC; one String.fromCharCode call builds a flat string. */
const encodedCodes: number[] = new Array<number>(MAC_BASE64URL_LENGTH).fill(0);

/** 32 bytes in unpadded base64url: ten 3-byte groups of 4 chars, then 2 bytes as 3 chars. */
function wordsToBase64url(words: Int32Array): string {
  let k = 0;
  for (let i = 0; i < 30; i += 3) {
    const group = (digestByte(words, i) << 16) | (digestByte(words, i + 1) << 8) | digestByte(words, i + 2);
    encodedCodes[k++] = alphabetCodes[group >>> 18]!;
    encodedCodes[k++] = alphabetCodes[(group >>> 12) & 63]!;
    encodedCodes[k++] = alphabetCodes[(group >>> 6) & 63]!;
    encodedCodes[k++] = alphabetCodes[group & 63]!;
  }
  const last = (digestByte(words, 30) << 8) | digestByte(words, 31);
  encodedCodes[40] = alphabetCodes[last >>> 10]!;
  encodedCodes[41] = alphabetCodes[(last >>> 4) & 63]!;
  encodedCodes[42] = alphabetCodes[(last << 2) & 63]!;
  return String.fromCharCode.apply(null, encodedCodes);
}

/** The 6-bit value of a base64url char code, -1 for any other char. */
function sextetOf(code: number): number {
  return code < 128 ? sextets[code]! : -1;
}

/**
 * Whether the 43 chars of `text` at `start` are the base64url of the digest in `words`. Every char
 * is compared whatever the others hold (constant time); comparing 6-bit values, not decoded bytes,
 * means a non-canonical spelling of the right bytes does not match.
 */
function spellsDigest(text: string, start: number, words: Int32Array): boolean {
  let difference = 0;
  let k = start;
  for (let i = 0; i < 30; i += 3, k += 4) {
    const group = (digestByte(words, i) << 16) | (digestByte(words, i + 1) << 8) | digestByte(words, i + 2);
    difference |=
      (sextetOf(text.charCodeAt(k)) ^ (group >>> 18)) |
      (sextetOf(text.charCodeAt(k + 1)) ^ ((group >>> 12) & 63)) |
      (sextetOf(text.charCodeAt(k + 2)) ^ ((group >>> 6) & 63)) |
      (sextetOf(text.charCodeAt(k + 3)) ^ (group & 63));
  }
  const last = (digestByte(words, 30) << 8) | digestByte(words, 31);
  difference |=
    (sextetOf(text.charCodeAt(k)) ^ (last >>> 10)) | (sextetOf(text.charCodeAt(k + 1)) ^ ((last >>> 4) & 63)) | (sextetOf(text.charCodeAt(k + 2)) ^ ((last << 2) & 63));
  return difference === 0;
}

/** Whether `text` from `start` to its end equals `expected`, in time that depends only on lengths. */
function equalAt(expected: string, text: string, start: number): boolean {
  if (text.length - start !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ text.charCodeAt(start + i);
  return difference === 0;
}

/** A key around a signer that can only make whole MACs: verify cuts the signing input out. */
function keyOfSigner(sign: HmacBase64urlSigner): HmacBase64urlKey {
  return { sign, verify: (text, dataEnd, signatureStart) => equalAt(sign(text.slice(0, dataEnd)), text, signatureStart) };
}

// ---------------------------------------------------------------------------------------------
// Bun's native keyed hasher.

type BunHasher = { copy(): BunHasher; update(data: string): BunHasher; digest(): Uint8Array; digest(encoding: "base64url"): string };
type BunHasherClass = new (algorithm: "sha256", key: Uint8Array) => BunHasher;
const BunCryptoHasher = (globalThis as unknown as { Bun?: { CryptoHasher?: BunHasherClass } }).Bun?.CryptoHasher;

function bunKey(key: Uint8Array): HmacBase64urlKey {
  const keyed = new BunCryptoHasher!("sha256", key);
  return keyOfSigner((data) => keyed.copy().update(data).digest("base64url"));
}

// ---------------------------------------------------------------------------------------------

function nobleSigner(key: Uint8Array): HmacSigner {
  const keyed = hmac.create(sha256, key);
  return (data) => keyed.clone().update(utf8.encode(data)).digest();
}

function nobleKey(key: Uint8Array): HmacBase64urlKey {
  const sign = nobleSigner(key);
  return keyOfSigner((data) => encodeBytes(sign(data)));
}

function portableKey(key: Uint8Array): HmacBase64urlKey {
  const mac = portableMacWords(key);
  const words = new Int32Array(8);
  return {
    sign(data) {
      mac(data, data.length, words);
      return wordsToBase64url(words);
    },
    verify(text, dataEnd, signatureStart) {
      if (text.length - signatureStart !== MAC_BASE64URL_LENGTH) return false;
      mac(text, dataEnd, words);
      return spellsDigest(text, signatureStart, words);
    },
  };
}

/**
 * RFC 4231 §4.3 (test case 2) checked once at load, both ways: a fast path that ever disagreed
 * with the standard would sign tokens nobody else can verify, so it is then not used.
 */
function knownAnswer(makeKey: (key: Uint8Array) => HmacBase64urlKey): boolean {
  const data = "what do ya want for nothing?";
  const mac = "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM";
  try {
    const key = makeKey(utf8.encode("Jefe"));
    const token = `${data}.${mac}`;
    return key.sign(data) === mac && key.verify(token, data.length, data.length + 1) && !key.verify(`${token.slice(0, -1)}N`, data.length, data.length + 1);
  } catch {
    return false;
  }
}

const fastKey: ((key: Uint8Array) => HmacBase64urlKey) | undefined =
  BunCryptoHasher !== undefined && knownAnswer(bunKey) ? bunKey : knownAnswer(portableKey) ? portableKey : undefined;

/** HMAC-SHA256 under `key`, as raw bytes. "portable" forces the @noble/hashes reference. */
export function hmacSha256Signer(key: Uint8Array, backend: "auto" | "portable" = "auto"): HmacSigner {
  if (backend === "portable" || fastKey === undefined) return nobleSigner(key);
  if (fastKey === bunKey) {
    const keyed = new BunCryptoHasher!("sha256", key);
    return (data) => keyed.copy().update(data).digest();
  }
  const mac = portableMacWords(key);
  return (data) => {
    const words = new Int32Array(8);
    mac(data, data.length, words);
    return wordsToBytes(words);
  };
}

/** HMAC-SHA256 under `key`, signing and checking the unpadded base64url a JWS signature carries. */
export function hmacSha256Key(key: Uint8Array, backend: "auto" | "portable" = "auto"): HmacBase64urlKey {
  return backend === "portable" || fastKey === undefined ? nobleKey(key) : fastKey(key);
}
