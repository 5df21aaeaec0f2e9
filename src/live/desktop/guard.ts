/**
 * The front of a desktop app's server (docs/desktop.md#who-can-act): every request passes here
 * before the live app. Only the window the app opened can act:
 *
 * - the Host must be the loopback address and port the app listens on (a page of another site that
 *   points its own name at 127.0.0.1, DNS rebinding, sends its own name): 403 otherwise;
 * - a request from another origin (Origin, or Sec-Fetch-Site other than same-origin) is refused
 *   with 403, a page navigation excepted, which gets only the bootstrap page;
 * - a page load without a session token gets the bootstrap page, which holds no app data; the
 *   launch token, presented once in X-Svc-Launch, gets the app's page, a new token session's;
 * - every other request is the live app's, which refuses one without a valid X-Svc-Session
 *   (404 session-lost).
 *
 * It also learns the session's current token from the replies (a sign-in rotates it), so that the
 * desktop can end the session when the window closes, and counts the window's open streams: the
 * stream closing is the window closing (or reloading, which also ends a desktop app's session).
 */
import { constantTimeEqual } from "../../auth/constant-time.ts";
import {
  CLIENT_QUERY_NAME,
  CLIENT_QUERY_VALUE,
  END_PATH,
  LAUNCH_HEADER,
  SESSION_HEADER,
  SPLIT_CLIENT_QUERY_VALUE,
} from "../../protocol/mod.ts";
import { SSE_ALIAS_PATH, SUBSCRIBE_PATH } from "../../protocol/mod.ts";
import { bootstrapPage, DESKTOP_PAGE_HEADERS } from "./bootstrap-page.ts";

/** What the front passes requests on to: the live app. */
export type FetchTarget = { fetch(req: Request): Response | Promise<Response> };

export type DesktopGuardOptions = {
  readonly app: FetchTarget;
  /** The one-time launch token handed to the window in the URL's fragment. */
  readonly launchToken: string;
  /** The page's title, for the bootstrap page. */
  readonly title: string;
  /** Called when the number of the window's open streams changes. */
  readonly onStreams?: (open: number) => void;
  /** Called once, when the launch token has been spent. */
  readonly onLaunch?: () => void;
};

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export class DesktopGuard {
  /** The address the app listens on, `127.0.0.1:<port>`: set once listening. */
  host = "";
  private launched = false;
  /** The session's current token, learnt from the launched page and from replies. */
  private token: string | undefined;
  private streams = 0;

  constructor(private readonly options: DesktopGuardOptions) {}

  /** Whether the launch token has been spent. */
  get hasLaunched(): boolean {
    return this.launched;
  }

  /** The guarded handler. */
  readonly fetch = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const hostHeader = req.headers.get("Host");
    if (this.host === "" || url.host !== this.host || (hostHeader !== null && hostHeader !== this.host)) {
      return text(403, "host not allowed");
    }
    const navigation = req.method === "GET" && req.headers.get("Sec-Fetch-Mode") === "navigate";
    if (!this.sameOrigin(req) && !navigation) return text(403, "cross-origin request refused");
    const launch = req.headers.get(LAUNCH_HEADER);
    if (launch !== null) return await this.launch(req, launch);
    if (this.isPage(req, url)) {
      return new Response(bootstrapPage(this.options.title), {
        headers: { "Content-Type": "text/html; charset=utf-8", ...DESKTOP_PAGE_HEADERS },
      });
    }
    return this.learn(url, await this.options.app.fetch(req));
  };

  /**
   * Ends the window's session (POST /_svc/end with its token), as its client would. Resolves when
   * the app has answered; nothing to do before the launch.
   */
  async endSession(): Promise<void> {
    if (this.token === undefined) return;
    const resp = await this.options.app.fetch(
      new Request(`http://${this.host}${END_PATH}`, { method: "POST", headers: { [SESSION_HEADER]: this.token } }),
    );
    await resp.body?.cancel();
    this.token = undefined;
  }

  private sameOrigin(req: Request): boolean {
    const origin = req.headers.get("Origin");
    if (origin !== null) return origin === `http://${this.host}`;
    const site = req.headers.get("Sec-Fetch-Site");
    return site === null || site === "same-origin" || site === "none";
  }

  /** A page load without a session token: a GET that is not a live route or the client script. */
  private isPage(req: Request, url: URL): boolean {
    if (req.method !== "GET" || req.headers.has(SESSION_HEADER) || url.pathname.startsWith("/_svc/")) return false;
    const script = url.searchParams.get(CLIENT_QUERY_NAME);
    return script !== CLIENT_QUERY_VALUE && script !== SPLIT_CLIENT_QUERY_VALUE;
  }

  /** The launch token, once: the app's page, for a new session; then never again (403). */
  private async launch(req: Request, presented: string): Promise<Response> {
    const url = new URL(req.url);
    if (
      this.launched || req.method !== "GET" || url.pathname.startsWith("/_svc/") || !constantTimeEqual(presented, this.options.launchToken)
    ) {
      return text(403, "launch token refused");
    }
    this.launched = true;
    this.options.onLaunch?.();
    const headers = new Headers(req.headers);
    headers.delete(LAUNCH_HEADER);
    headers.delete(SESSION_HEADER);
    const page = await this.options.app.fetch(new Request(req.url, { method: "GET", headers }));
    this.token = page.headers.get(SESSION_HEADER) ?? undefined;
    for (const [name, value] of Object.entries(DESKTOP_PAGE_HEADERS)) page.headers.set(name, value);
    return page;
  }

  /** A reply of the app: a new token it hands the window is the session's from now on; a stream is counted. */
  private learn(url: URL, resp: Response): Response {
    const token = resp.headers.get(SESSION_HEADER);
    if (token !== null) this.token = token;
    const stream = url.pathname === SUBSCRIBE_PATH || url.pathname === SSE_ALIAS_PATH;
    if (!stream || resp.status !== 200 || resp.body === null) return resp;
    return new Response(this.counted(resp.body), { status: resp.status, headers: resp.headers });
  }

  /** The stream's body, counted open until it ends or the window stops reading it. */
  private counted(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    let open = true;
    const closed = () => {
      if (!open) return;
      open = false;
      this.options.onStreams?.(--this.streams);
    };
    this.options.onStreams?.(++this.streams);
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (chunk.done) {
          closed();
          controller.close();
        } else controller.enqueue(chunk.value);
      },
      cancel(reason) {
        closed();
        return reader.cancel(reason);
      },
    });
  }
}
