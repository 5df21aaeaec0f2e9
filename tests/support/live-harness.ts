// A browser stand-in for the live server tests: it loads the page, keeps the cookies, posts events
// with the CSRF header and reads SSE frames, all through app.fetch.
import type { LiveApp } from "../../src/live/server/app/app.ts";
import type { Frame } from "../../src/live/server/streams/sse-wire.ts";

export type Tab = {
  cookies: string;
  csrf: string;
  handle: string;
  html: string;
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  postRaw(body: BodyInit, headers?: Record<string, string>): Promise<Response>;
  subscribe(path?: string, headers?: Record<string, string>): Promise<FrameReader>;
};

export type FrameReader = {
  next(timeoutMs?: number): Promise<Frame | undefined>;
  /** Reads to the stream's end: true when it got the session-lost signal and then ended. */
  lost(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
  response: Response;
};

export function cookieHeader(resp: Response, previous = ""): string {
  const jar = new Map(
    previous.split("; ").filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  );
  for (const line of resp.headers.getSetCookie()) {
    const pair = line.split(";")[0]!;
    const name = pair.slice(0, pair.indexOf("="));
    const value = pair.slice(pair.indexOf("=") + 1);
    if (/Max-Age=0/.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

export async function openTab<M>(app: LiveApp<M>, url = "http://app.test/", cookies = ""): Promise<Tab> {
  const page = await app.fetch(new Request(url, { headers: cookies ? { Cookie: cookies } : {} }));
  const html = await page.text();
  const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1] ?? "";
  const tab: Tab = {
    cookies: cookieHeader(page, cookies),
    csrf: meta("svc-csrf"),
    handle: meta("svc-session"),
    html,
    postRaw: (body, headers = {}) =>
      Promise.resolve(
        app.fetch(
          new Request(new URL("/_svc/event", url), {
            method: "POST",
            body,
            headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, "Content-Type": "application/json", ...headers },
          }),
        ),
      ),
    post: (body, headers = {}) => tab.postRaw(JSON.stringify(body), headers),
    subscribe: async (path = "/_svc/subscribe", headers = {}) =>
      frameReader(await app.fetch(new Request(new URL(path, url), { headers: { Cookie: tab.cookies, ...headers } }))),
  };
  return tab;
}

/** Reads `event: patch` frames from an SSE response; heartbeat comments are skipped. */
export function frameReader(response: Response): FrameReader {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let sawLost = false;
  let ended = false;
  const stream: FrameReader = {
    response,
    async lost(timeoutMs = 2000) {
      while ((await stream.next(timeoutMs)) !== undefined) {
        // frames sent before the signal
      }
      return sawLost && ended;
    },
    async next(timeoutMs = 2000) {
      // A ref'd timer keeps the process alive while waiting (the server's own timers are unref'd).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
      try {
        for (;;) {
          const end = buffer.indexOf("\n\n");
          if (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split("\n").find((line) => line.startsWith("data: "));
            if (block.split("\n").includes("event: lost")) sawLost = true;
            if (block.split("\n").includes("event: patch") && data) return JSON.parse(data.slice(6)) as Frame;
            continue;
          }
          const chunk = await Promise.race([reader.read(), timeout]);
          if (chunk !== undefined && chunk.done) ended = true;
          if (chunk === undefined || chunk.done) return undefined;
          buffer += decoder.decode(chunk.value, { stream: true });
        }
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => reader.cancel(),
  };
  return stream;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `every` ms until it passes, or fails with its last assertion after `ms`. */
export async function eventually(check: () => void | Promise<void>, ms = 2000, every = 10): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await sleep(every);
    }
  }
}
