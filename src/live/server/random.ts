/** Unguessable tokens for session ids, CSRF tokens and rotation tickets: 32 random bytes, base64url. */
import { encodeBytes } from "../../runtime/base64url.ts";

export function randomToken(): string {
  return encodeBytes(crypto.getRandomValues(new Uint8Array(32)));
}
