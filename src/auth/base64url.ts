/**
 * Strict base64url shape check for JWS segments (RFC 7515 §2, RFC 4648 §5): only the URL alphabet,
 * no padding, no length that cannot occur, and the unused low bits of the last character zero, so
 * that every byte string has exactly one accepted spelling and a re-encoded token is refused.
 */
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const valueOf = new Int8Array(128).fill(-1);
for (let i = 0; i < alphabet.length; i++) valueOf[alphabet.charCodeAt(i)] = i;

export function isCanonicalBase64url(segment: string): boolean {
  return isCanonicalBase64urlAt(segment, 0, segment.length);
}

/**
 * The same check on `text` from `start` to `end` (exclusive), so a token's three segments can be
 * checked in place, without cutting them out first (token verification is a hot path).
 */
export function isCanonicalBase64urlAt(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length <= 0 || length % 4 === 1) return false;
  let last = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    last = code < 128 ? valueOf[code]! : -1;
    if (last < 0) return false;
  }
  // 2 trailing chars carry 1 byte (4 unused bits); 3 carry 2 bytes (2 unused bits).
  const unusedBits = length % 4 === 2 ? 4 : length % 4 === 3 ? 2 : 0;
  return (last & ((1 << unusedBits) - 1)) === 0;
}

/** Decoded byte length of a canonical segment. */
export function decodedLength(segment: string): number {
  return Math.floor((segment.length * 3) / 4);
}
