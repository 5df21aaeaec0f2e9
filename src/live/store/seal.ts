/**
 * Sealing for the few secrets the shared store must hold (docs/deployment.md#several-replicas): the
 * ids a session rotated away from and the id it rotated to, which another replica needs to honour
 * a rotation's grace period (docs/protocol.md#session-rotation). They are sealed with AES-GCM under
 * a key derived from the app's secret, which every replica has and the database does not, so
 * reading the table still gives no cookie. WebCrypto only.
 */
import { decodeBytes, encodeBytes } from "../../runtime/base64url.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const IV_BYTES = 12;

export class Sealer {
  private readonly key: Promise<CryptoKey>;

  /** `material`: at least 32 bytes of key derived from the app's secret, for this use only. */
  constructor(material: Uint8Array) {
    this.key = crypto.subtle.digest("SHA-256", new Uint8Array(material)).then((bytes) =>
      crypto.subtle.importKey("raw", bytes, { name: "AES-GCM" }, false, ["encrypt", "decrypt"])
    );
  }

  /** The text sealed: base64url of a random IV and the ciphertext with its tag. */
  async seal(text: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await this.key, encoder.encode(text)));
    const out = new Uint8Array(IV_BYTES + sealed.length);
    out.set(iv);
    out.set(sealed, IV_BYTES);
    return encodeBytes(out);
  }

  /** The text back; undefined when it was not sealed with this key (or was changed). */
  async unseal(sealed: string): Promise<string | undefined> {
    try {
      const bytes = decodeBytes(sealed);
      if (bytes.length <= IV_BYTES) return undefined;
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, IV_BYTES) }, await this.key, bytes.slice(IV_BYTES));
      return decoder.decode(plain);
    } catch {
      return undefined;
    }
  }
}
