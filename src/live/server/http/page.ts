/**
 * The full HTML page of the first render: the root element, the client script and the values the
 * client starts from (CSRF token, the session's counter, the app's base path, its public handle).
 */
import { escapeAttr } from "../../escape.ts";
import { type ClientKind, clientScriptQuery } from "./client-script.ts";
import { META_BASE, META_CSRF, META_PATH, META_SEQ, META_SESSION, META_SESSION_TOKEN } from "../../../protocol/mod.ts";

export type PageParts = {
  readonly title: string;
  readonly head: string;
  /** Where the app is mounted, as far as the server can tell (see META_BASE). */
  readonly basePath: string;
  /** The page's path within the app. */
  readonly appPath: string;
  readonly csrf: string;
  readonly seq: number;
  readonly handle: string;
  readonly body: string;
  /** The browser client the page loads (default the live client). */
  readonly client?: ClientKind;
  /** A token session's first token (docs/protocol.md#token-sessions), for the split client. */
  readonly sessionToken?: string;
};

export function pageHtml(parts: PageParts): string {
  const meta = (name: string, content: string) => `<meta name="${name}" content="${escapeAttr(content)}">`;
  return (
    `<!doctype html><html><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeAttr(parts.title)}</title>` +
    meta(META_CSRF, parts.csrf) +
    meta(META_SEQ, String(parts.seq)) +
    meta(META_BASE, parts.basePath) +
    meta(META_PATH, parts.appPath) +
    meta(META_SESSION, parts.handle) +
    (parts.sessionToken === undefined ? "" : meta(META_SESSION_TOKEN, parts.sessionToken)) +
    // Through the page's own URL, so it reaches the app however it was mounted (docs/protocol.md#mounting).
    `<script type="module" src="?${escapeAttr(clientScriptQuery(parts.client ?? "live"))}"></script>` +
    parts.head +
    `</head><body>${parts.body}</body></html>`
  );
}
