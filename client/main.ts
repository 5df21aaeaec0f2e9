/**
 * The browser entry of the live client: reads the page's meta tags (CSRF token, the session
 * counter the page shows, the page's path within the app, the session's public handle), then starts
 * the client on the page's own Web APIs. The page loads this module through its own URL
 * (`?_svc=client.js`); the app's base, where its endpoints are, comes from the page's location
 * (docs/protocol.md#mounting).
 */
import { baseOfPage, META_BASE, META_CSRF, META_PATH, META_SEQ, META_SESSION } from "../src/protocol/mod.ts";
import { LiveClient } from "./client.ts";
import { listen } from "./events.ts";

const meta = (name: string): string => document.querySelector(`meta[name="${name}"]`)?.getAttribute("content") ?? "";

const client = new LiveClient(
  {
    doc: document,
    fetch: (url, init) => fetch(url, init),
    EventSource: typeof EventSource === "function" ? EventSource : undefined,
    beacon: (url, body) => navigator.sendBeacon(url, body),
    reload: () => location.reload(),
    FormData,
  },
  {
    csrf: meta(META_CSRF),
    seq: Number(meta(META_SEQ)) || 0,
    base: baseOfPage(location.pathname, meta(META_PATH), meta(META_BASE)),
    sessionId: meta(META_SESSION),
  },
);
listen(client, window);
client.connect();
