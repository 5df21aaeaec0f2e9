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
  const binary = atob(toStandardAlphabet(segment));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** For atob. The searches first: replaceAll has a cost even when it finds nothing. */
function toStandardAlphabet(segment: string): string {
  if (segment.indexOf("-") < 0 && segment.indexOf("_") < 0) return segment;
  return segment.replaceAll("-", "+").replaceAll("_", "/");
}

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Decodes to UTF-8 text; undefined when the bytes are not valid UTF-8. A token payload is nearly
 * always ASCII JSON, and then atob's byte string is the text itself: atob is native in every
 * runtime and decodes a token's payload faster than Buffer or a JS loop (bench/auth.bench.ts, figures in bench/RESULTS.md).
 */
export function decodeText(segment: string): string | undefined {
  try {
    const binary = atob(toStandardAlphabet(segment));
    if (!NON_ASCII.test(binary)) return binary;
    return utf8Decoder.decode(decodeBytes(segment));
  } catch {
    return undefined;
  }
}
