/**
 * Synchronous HMAC-SHA256 with the key set up once.
 *
 * Tokens are signed and verified on every request, so this is a hot path (DESIGN.md §Measured
 * baselines): the runtime's native HMAC (node:crypto, present on Node, Bun and Deno) is 2-3x faster
 * than the portable @noble/hashes one, which stays as the fallback for other Web-standard hosts.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { runtimeName } from "./detect.ts";

/** Returns the MAC of `data` (UTF-8 text) under the key this signer was made for. */
export type HmacSigner = (data: string) => Uint8Array;

type NodeCrypto = typeof import("node:crypto");

async function loadNodeCrypto(): Promise<NodeCrypto | undefined> {
  if (runtimeName === "web") return undefined;
  try {
    return await import("node:crypto");
  } catch {
    return undefined;
  }
}

const nodeCrypto = await loadNodeCrypto();
const utf8 = new TextEncoder();

function nativeSigner(crypto: NodeCrypto, key: Uint8Array): HmacSigner {
  const keyObject = crypto.createSecretKey(key);
  return (data) => crypto.createHmac("sha256", keyObject).update(data, "utf8").digest();
}

function portableSigner(key: Uint8Array): HmacSigner {
  // The keyed state (inner and outer pads already absorbed) is built once and cloned per MAC.
  const keyed = hmac.create(sha256, key);
  return (data) => keyed.clone().update(utf8.encode(data)).digest();
}

export function hmacSha256Signer(key: Uint8Array, backend: "auto" | "portable" = "auto"): HmacSigner {
  return nodeCrypto !== undefined && backend === "auto" ? nativeSigner(nodeCrypto, key) : portableSigner(key);
}
