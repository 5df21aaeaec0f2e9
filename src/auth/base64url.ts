/**
 * Strict base64url shape check for JWS segments (RFC 7515 §2, RFC 4648 §5): only the URL alphabet,
 * no padding, no length that cannot occur, and the unused low bits of the last character zero, so
 * that every byte string has exactly one accepted spelling and a re-encoded token is refused.
 */
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const valueOf = new Int8Array(128).fill(-1);
for (let i = 0; i < alphabet.length; i++) valueOf[alphabet.charCodeAt(i)] = i;

/** Three segments of URL-alphabet chars, the last one possibly empty: a compact JWS's characters. */
const COMPACT_JWS_CHARS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Whether `token` is three dot-separated runs of URL-alphabet chars (the first two non-empty).
 * One native regex pass over the whole token instead of a char loop per segment: token
 * verification is a hot path (bench/auth.bench.ts). Each segment's length and last char are
 * then checked with hasCanonicalEnd.
 */
export function hasCompactJwsChars(token: string): boolean {
  return COMPACT_JWS_CHARS.test(token);
}

/**
 * For a run of URL-alphabet chars from `start` to `end` (hasCompactJwsChars holds): whether its
 * length can occur and the unused low bits of its last char are zero.
 */
export function hasCanonicalEnd(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length <= 0 || length % 4 === 1) return false;
  const unusedBits = length % 4 === 2 ? 4 : length % 4 === 3 ? 2 : 0;
  return (valueOf[text.charCodeAt(end - 1) & 127]! & ((1 << unusedBits) - 1)) === 0;
}

/** URL-alphabet chars from `lastIndex` on: a sticky regex runs natively, without a match object. */
const URL_ALPHABET_RUN = /[A-Za-z0-9_-]*/y;

/**
 * Whether every char from `start` to `end` is in the URL alphabet, where `end` is a "." or the
 * end of `text` (so the run of alphabet chars from `start` cannot go past it): one segment of a
 * token checked in place, for the header we sign, whose own segment needs no check.
 */
export function hasUrlAlphabetAt(text: string, start: number, end: number): boolean {
  URL_ALPHABET_RUN.lastIndex = start;
  URL_ALPHABET_RUN.test(text);
  return URL_ALPHABET_RUN.lastIndex === end;
}
