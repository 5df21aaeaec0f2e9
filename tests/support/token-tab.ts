// A split client's stand-in for token-session tests (docs/protocol.md#token-sessions): it loads the
// page, keeps the token from its meta in memory, and sends it in X-Svc-Session on every event,
// render, stream and end, all through app.fetch. No cookie is ever kept.
import { type FrameReader, frameReader } from "./live-harness.ts";

/** What answers a Request: a live app's fetch, or another replica's. */
export type Fetcher = { fetch(req: Request): Response | Promise<Response> };

export type TokenTab = {
  token: string;
  handle: string;
  html: string;
  page: Response;
  /** POST /_svc/event with the tab's token, at `via` (another replica) when given. */
  post(body: unknown, options?: { headers?: Record<string, string>; via?: Fetcher }): Promise<Response>;
  subscribe(options?: { query?: string; via?: Fetcher }): Promise<FrameReader>;
  render(via?: Fetcher): Promise<Response>;
  end(via?: Fetcher): Promise<Response>;
};

export const metaOf = (html: string, name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1];

export async function openTokenTab(app: Fetcher, url = "http://app.test/"): Promise<TokenTab> {
  const page = await app.fetch(new Request(url));
  const html = await page.text();
  const request = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("X-Svc-Session", tab.token);
    return new Request(new URL(path, url), { ...init, headers });
  };
  const tab: TokenTab = {
    token: metaOf(html, "svc-session-token") ?? "",
    handle: metaOf(html, "svc-session") ?? "",
    html,
    page,
    post: async (body, options = {}) => {
      const resp = await (options.via ?? app).fetch(
        request("/_svc/event", {
          method: "POST",
          body: JSON.stringify(body),
          headers: { "Content-Type": "application/json", ...options.headers },
        }),
      );
      // The client replaces its Session field with a token the reply hands it.
      const next = resp.headers.get("X-Svc-Session");
      if (next !== null) tab.token = next;
      tab.handle = resp.headers.get("X-Svc-Sid") ?? tab.handle;
      return resp;
    },
    subscribe: async (options = {}) => frameReader(await (options.via ?? app).fetch(request(`/_svc/subscribe${options.query ?? ""}`))),
    render: async (via) => await (via ?? app).fetch(request("/_svc/render")),
    end: async (via) => await (via ?? app).fetch(request("/_svc/end", { method: "POST" })),
  };
  return tab;
}
