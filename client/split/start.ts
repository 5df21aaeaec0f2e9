/**
 * The split client as a module (docs/protocol.md#the-split-client), the `svc-live/split` export:
 * importing it starts nothing and touches no browser global, so a page's own bundle, a test
 * runner or a server-side import can load it. `startSplitClient()` reads the page's meta tags
 * and starts the client on the page's own Web APIs: the live client's send queue, transport,
 * recovery and event rules, writing the page through the split applier, which keeps the
 * session's page as its own tree. With the meta `svc-session-token` the session is a token
 * session: the token is held in the Session field (docs/protocol.md#the-session-field) and sent
 * on every request, the stream is read with fetch, and the unload batch goes as a keepalive fetch
 * (a beacon cannot carry the header). Without it, the session is the cookie session, exactly as
 * for the live client.
 *
 * The script the app serves (`?_svc=split.js`, the file `svc-live/split.js`) is this module
 * started at load.
 */
import { baseOfPage, META_BASE, META_CSRF, META_PATH, META_SEQ, META_SESSION, META_SESSION_TOKEN } from "../../src/protocol/mod.ts";
import { LiveClient } from "../client.ts";
import { listen } from "../events.ts";
import { SplitApplier } from "./apply.ts";
import { fetchEventSource } from "./fetch-stream.ts";
import { type Fetch, SessionField } from "./session.ts";

/** A running split client: what the page's own script may do with it. */
export interface SplitClient {
  /**
   * Ends the page's token session: clears the Session field, stops the client (nothing more is
   * sent or applied) and POSTs <base>/_svc/end with the token. Resolves to whether the server
   * answered; if the request is lost, the session ends at its idle timeout. On a cookie session it
   * only stops the client (the session ends as the app ends it, `Live.endSession`) and resolves to
   * false.
   *
   * @example
   * ```ts
   * import { startSplitClient } from "svc-live/split";
   *
   * const client = startSplitClient();
   * document.querySelector("#sign-out")?.addEventListener("click", async () => {
   *   if (!(await client.endSession())) console.warn("the session ends at its idle timeout");
   * });
   * ```
   */
  endSession(): Promise<boolean>;
}

/**
 * Starts the split client on the page it runs in (its meta tags, `document`, `fetch`,
 * `location`), for a page whose own script loads the client instead of the app's
 * `?_svc=split.js`. Call it once per page.
 *
 * @example
 * ```ts
 * import { startSplitClient } from "svc-live/split";
 *
 * const client = startSplitClient(); // connects the page to its live session
 * document.querySelector("#sign-out")?.addEventListener("click", () => void client.endSession());
 * ```
 */
export function startSplitClient(): SplitClient {
  const meta = (name: string): string => document.querySelector(`meta[name="${name}"]`)?.getAttribute("content") ?? "";
  const field = new SessionField(meta(META_SESSION_TOKEN) || undefined);
  const network: Fetch = (url, init) => fetch(url, init);
  const withSession = field.wrap(network);
  const base = baseOfPage(location.pathname, meta(META_PATH), meta(META_BASE));
  /** The unload batch of a token session: a keepalive fetch, which outlives the page as a beacon does. */
  const keepaliveBeacon = (url: string, body: string): boolean => {
    withSession(url, { method: "POST", headers: { "Content-Type": "application/json" }, body, keepalive: true }).catch(() => {});
    return true;
  };
  const client = new LiveClient(
    {
      doc: document,
      fetch: withSession,
      EventSource: field.isToken ? fetchEventSource(withSession) : typeof EventSource === "function" ? EventSource : undefined,
      beacon: field.isToken ? keepaliveBeacon : (url, body) => navigator.sendBeacon(url, body),
      reload: () => location.reload(),
      FormData,
    },
    { csrf: meta(META_CSRF), seq: Number(meta(META_SEQ)) || 0, base, sessionId: meta(META_SESSION) },
    {},
    (doc, inputs) => new SplitApplier(doc, inputs),
  );
  listen(client, window);
  client.connect();
  return {
    endSession: () => {
      client.stop();
      return field.end(network, base);
    },
  };
}
