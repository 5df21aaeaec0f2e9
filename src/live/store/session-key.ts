/**
 * The key a session is stored under: the SHA-256 of its id, in hex (docs/deployment.md#several-replicas).
 * The id is the session cookie's value, a bearer secret; the store, its notifications and its
 * logs only ever hold the hash, so reading the table gives no cookie. The id is 256 random bits,
 * so a plain hash (no salt, no stretching) is enough: there is nothing to guess.
 */
const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export async function sessionKey(id: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(id)));
  let hex = "";
  for (const byte of digest) hex += HEX[byte];
  return hex;
}
