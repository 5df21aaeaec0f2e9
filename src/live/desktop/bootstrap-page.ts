/**
 * The desktop mode's bootstrap page (docs/desktop.md#the-launch-token): what any page load of a
 * desktop app gets without the launch token. It holds no app data. Its script takes the one-time
 * launch token from the URL's fragment (which a browser never sends to a server, nor in a
 * Referer), removes it from the address at once, asks for the app's page with the token in the
 * X-Svc-Launch header, and replaces the document with the answer: a token-session page whose
 * client takes the session's token from its meta (docs/protocol.md#token-sessions).
 */
import { escapeText } from "../escape.ts";
import { LAUNCH_HEADER } from "../../protocol/mod.ts";

/** Headers of the bootstrap page and the launched page: never cached, never sent as a referrer, never framed. */
export const DESKTOP_PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy": "frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
};

/** The text the page shows when it has no launch token (a second browser, a reload, a spent token). */
const NO_TOKEN = "This window cannot open the app: start the app again to get a new window.";

/** The bootstrap page of a desktop app titled `title`. */
export function bootstrapPage(title: string): string {
  const script = `(async () => {
  const token = location.hash.slice(1);
  history.replaceState(null, "", location.pathname + location.search);
  const fail = () => { document.getElementById("svc-desktop").textContent = ${JSON.stringify(NO_TOKEN)}; };
  if (token === "") return fail();
  let resp;
  try {
    resp = await fetch(location.href, { headers: { ${
    JSON.stringify(LAUNCH_HEADER)
  }: token }, cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer" });
  } catch {
    return fail();
  }
  if (!resp.ok) return fail();
  const html = await resp.text();
  document.open();
  document.write(html);
  document.close();
})();`;
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
    `<title>${escapeText(title)}</title></head><body><p id="svc-desktop"></p>` +
    `<script>${script}</script></body></html>`;
}

/** The launch file the window opens first: it goes on to the app with the token in the fragment. */
export function launchFile(urlWithToken: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
    `<script>location.replace(${JSON.stringify(urlWithToken).replace(/</g, "\\u003c")});</script></head><body></body></html>`;
}
