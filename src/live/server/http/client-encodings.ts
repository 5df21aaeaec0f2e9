/**
 * The browser clients compressed, once per process (docs/protocol.md#the-client-script): brotli
 * where the runtime has it, gzip everywhere (src/runtime/compress.ts). The bundles are constants
 * of this module, so each coding of each bundle is made at most once, on the first request that
 * accepts it, and then only read; a request never waits on more than that one compression.
 */
import { availableCodings, compress, type ContentCoding } from "../../../runtime/compress.ts";

/** The coding to send for an `Accept-Encoding` header: the best one it accepts, or none (identity). */
export function chooseCoding(acceptEncoding: string | null): ContentCoding | undefined {
  if (acceptEncoding === null) return undefined;
  const weights = acceptedWeights(acceptEncoding);
  let best: ContentCoding | undefined;
  let bestWeight = 0;
  for (const coding of availableCodings()) {
    const weight = weights.get(coding) ?? (coding === "gzip" ? weights.get("x-gzip") : undefined) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) [best, bestWeight] = [coding, weight];
  }
  return best;
}

/** Each coding an `Accept-Encoding` header names, with its weight (RFC 9110 §12.5.3; no q is 1). */
function acceptedWeights(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const item of header.split(",")) {
    const [name, ...params] = item.split(";").map((part) => part.trim());
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const match = /^q\s*=\s*([0-9.]+)$/i.exec(param);
      if (match) weight = Number(match[1]);
    }
    weights.set(name.toLowerCase(), Number.isFinite(weight) ? weight : 0);
  }
  return weights;
}

/** What a cache of compressed bundles is keyed by: the bundle's digest and the coding. */
type EncodedKey = `${string}:${ContentCoding}`;

/** Compressions made or under way; a failed one is kept as undefined so it is not tried again. */
const encoded = new Map<EncodedKey, Promise<Uint8Array | undefined>>();

/**
 * `text` (the bundle whose digest is `version`) in `coding`, made on first use and shared after;
 * undefined when this runtime failed to compress it, and the caller sends it as it is.
 */
export function encodedBundle(text: string, version: string, coding: ContentCoding): Promise<Uint8Array | undefined> {
  const key: EncodedKey = `${version}:${coding}`;
  let made = encoded.get(key);
  if (made === undefined) {
    made = compress(new TextEncoder().encode(text), coding).catch(() => undefined);
    encoded.set(key, made);
  }
  return made;
}
