/**
 * The split client's script as the app serves it (`<base>/_svc/split.js`, `?_svc=split.js`, the
 * `svc-live/split.js` file): starts the client when the page loads it (client/split/start.ts is
 * the module, which starts nothing on import).
 *
 * The module exports `endSession`, for the page's own scripts: importing the page's script URL
 * gives the running instance (docs/protocol.md#the-session-field).
 */
import { startSplitClient } from "./start.ts";

const client = startSplitClient();

/** Ends the page's token session: clears the Session field, stops the client and POSTs <base>/_svc/end. */
export function endSession(): Promise<boolean> {
  return client.endSession();
}
