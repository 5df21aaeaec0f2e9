/**
 * The browser entry of the split client (docs/protocol.md#the-split-client): the live client's
 * send queue, transport, recovery and event rules, writing the page through the split applier,
 * which keeps the session's page as its own tree (client/split/apply.ts). With the meta
 * `svc-session-token` the session is a token session: the token is held in the Session field
 * (client/split/session.ts) and sent on every request, the stream is read with fetch, and the
 * unload batch goes as a keepalive fetch (a beacon cannot carry the header). Without it, the
 * session is the cookie session, exactly as for the live client.
 *
 * The module exports `endSession`, for the page's own scripts: it clears the Session field, stops
 * the client and tells the server the session ended.
 */
import { baseOfPage, META_BASE, META_CSRF, META_PATH, META_SEQ, META_SESSION, META_SESSION_TOKEN } from "../../src/protocol/mod.ts";
import { LiveClient } from "../client.ts";
import { listen } from "../events.ts";
import { SplitApplier } from "./apply.ts";
import { fetchEventSource } from "./fetch-stream.ts";
import { type Fetch, SessionField } from "./session.ts";

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
  {
    csrf: meta(META_CSRF),
    seq: Number(meta(META_SEQ)) || 0,
    base,
    sessionId: meta(META_SESSION),
  },
  {},
  (doc, inputs) => new SplitApplier(doc, inputs),
);
listen(client, window);
client.connect();

/**
 * Ends the page's token session: clears the Session field, stops the client (nothing more is sent
 * or applied) and POSTs <base>/_svc/end with the token. Resolves to whether the server answered;
 * if the request is lost, the session ends at its idle timeout. On a cookie session it only stops
 * the client (the session ends as the app ends it, `Live.endSession`) and resolves to false.
 */
export function endSession(): Promise<boolean> {
  client.stop();
  return field.end(network, base);
}
