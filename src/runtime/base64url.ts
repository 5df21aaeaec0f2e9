/**
 * base64url (RFC 4648 §5, no padding) for token segments. Node, Bun and Deno all ship Buffer,
 * whose codec is native; other Web-standard hosts get btoa/atob. Callers check strictness first
 * (src/auth/base64url.ts): these functions assume canonical input.
 */
type BufferLike = {
  from(data: string | Uint8Array, encoding?: string): Uint8Array & { toString(encoding: string): string };
  byteLength(data: string, encoding: string): number;
};
const NativeBuffer = (globalThis as unknown as { Buffer?: BufferLike }).Buffer;
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

function bytesToBinary(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return binary;
}

function toUrlAlphabet(base64: string): string {
  return base64.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

export function encodeBytes(bytes: Uint8Array): string {
  if (NativeBuffer) return NativeBuffer.from(bytes).toString("base64url");
  return toUrlAlphabet(btoa(bytesToBinary(bytes)));
}

export function encodeText(text: string): string {
  if (NativeBuffer) return NativeBuffer.from(text, "utf8").toString("base64url");
  return encodeBytes(utf8Encoder.encode(text));
}

export function decodeBytes(segment: string): Uint8Array {
  if (NativeBuffer) return NativeBuffer.from(segment, "base64url");
  const binary = atob(segment.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const sextet = new Int8Array(128).fill(0);
for (let i = 0; i < alphabet.length; i++) sextet[alphabet.charCodeAt(i)] = i;
const asciiCodes: number[] = [];

/**
 * A token payload is nearly always ASCII JSON, and decoding it in JS straight to a string beats
 * Deno's Buffer (a JS layer over its codec) by ~2.5x (bench/auth.bench.ts): undefined when the
 * bytes are not all ASCII, for the caller's general UTF-8 path. Short segments only, so the codes
 * fit in one String.fromCharCode call.
 */
function decodeAscii(segment: string): string | undefined {
  const length = segment.length;
  const codes = asciiCodes;
  let k = 0;
  let high = 0;
  let i = 0;
  for (; i + 4 <= length; i += 4) {
    const group =
      (sextet[segment.charCodeAt(i)]! << 18) | (sextet[segment.charCodeAt(i + 1)]! << 12) | (sextet[segment.charCodeAt(i + 2)]! << 6) | sextet[segment.charCodeAt(i + 3)]!;
    high |= group;
    codes[k++] = group >>> 16;
    codes[k++] = (group >>> 8) & 0xff;
    codes[k++] = group & 0xff;
  }
  if (length - i === 2) {
    const group = (sextet[segment.charCodeAt(i)]! << 6) | sextet[segment.charCodeAt(i + 1)]!;
    high |= group << 12;
    codes[k++] = group >>> 4;
  } else if (length - i === 3) {
    const group = (sextet[segment.charCodeAt(i)]! << 12) | (sextet[segment.charCodeAt(i + 1)]! << 6) | sextet[segment.charCodeAt(i + 2)]!;
    high |= group << 6;
    codes[k++] = group >>> 10;
    codes[k++] = (group >>> 2) & 0xff;
  }
  // A byte above 0x7f sets bit 7 of its byte position in some group.
  if ((high & 0x808080) !== 0) return undefined;
  codes.length = k;
  return String.fromCharCode.apply(null, codes);
}

const preferJsDecode = NativeBuffer === undefined || (globalThis as { Deno?: unknown }).Deno !== undefined;

/** Decodes to UTF-8 text; undefined when the bytes are not valid UTF-8. */
export function decodeText(segment: string): string | undefined {
  if (preferJsDecode && segment.length <= 4096) {
    const ascii = decodeAscii(segment);
    if (ascii !== undefined) return ascii;
  }
  try {
    return utf8Decoder.decode(decodeBytes(segment));
  } catch {
    return undefined;
  }
}
