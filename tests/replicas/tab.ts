/**
 * A browser tab stand-in over real HTTP (fetch), for the multi-replica tests: it loads the page,
 * keeps its cookies, posts events one at a time with seq, page id and CSRF header as the browser
 * client does, and holds an SSE stream that records every frame's seq and the session-lost signal.
 */
import { cookieHeader, eventually as eventuallyWithin, sleep } from "../support/live-harness.ts";

export type Reply = { status: number; seq?: number; lost: boolean; body: string };

export class Tab {
  cookies = "";
  csrf = "";
  handle = "";
  html = "";
  /** The page's seq when it loaded, and every seq since (replies and frames alike). */
  lastSeenSeq = 0;
  seq = 0;
  readonly page = `page-${Math.random().toString(36).slice(2)}`;
  readonly replySeqs: number[] = [];
  stream: SseStream | undefined;

  constructor(public base: string) {}

  async open(path = "/"): Promise<this> {
    const resp = await fetch(new URL(path, this.base), { headers: this.cookies ? { Cookie: this.cookies } : {} });
    this.html = await resp.text();
    const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(this.html)?.[1] ?? "";
    this.cookies = cookieHeader(resp, this.cookies);
    this.csrf = meta("svc-csrf");
    this.handle = meta("svc-session");
    this.lastSeenSeq = Math.max(this.lastSeenSeq, Number(meta("svc-seq")) || 0);
    this.seq = 0;
    return this;
  }

  /** Posts one event, as the client does: the next seq, the page id, the CSRF header. */
  async send(
    msg: string,
    args: unknown[] = [],
    inputState?: Record<string, { value: string; seq: number }>,
    via = this.base,
  ): Promise<Reply> {
    const seq = ++this.seq;
    const resp = await fetch(new URL("/_svc/event", via), {
      method: "POST",
      headers: { Cookie: this.cookies, "X-Svc-Csrf": this.csrf, "Content-Type": "application/json" },
      body: JSON.stringify({ seq, msg, args, sessionId: this.handle, page: this.page, ...(inputState ? { inputState } : {}) }),
    });
    this.cookies = cookieHeader(resp, this.cookies);
    const sid = resp.headers.get("X-Svc-Sid");
    if (sid) this.handle = sid;
    const body = await resp.text();
    const lost = resp.headers.get("X-Svc-Status") === "session-lost";
    let frameSeq: number | undefined;
    if (resp.ok && resp.status === 200) {
      frameSeq = (resp.headers.get("Content-Type") ?? "").includes("json")
        ? (JSON.parse(body) as { seq: number }).seq
        : Number(resp.headers.get("X-Svc-Seq"));
      this.replySeqs.push(frameSeq);
      this.lastSeenSeq = Math.max(this.lastSeenSeq, frameSeq);
    }
    return { status: resp.status, seq: frameSeq, lost, body };
  }

  /** As the browser client does: a 503 (retry-later) is sent again after its Retry-After. */
  async sendRetrying(
    msg: string,
    args: unknown[] = [],
    inputState?: Record<string, { value: string; seq: number }>,
    via = this.base,
  ): Promise<Reply> {
    for (let attempt = 0;; attempt++) {
      const reply = await this.send(msg, args, inputState, via);
      if (reply.status !== 503 || attempt >= 8) return reply;
      this.seq -= 1; // the same event, with its own seq, once more
      await sleep(100 * 2 ** Math.min(attempt, 3));
    }
  }

  /** The current render (GET /_svc/render) and its seq. */
  async render(via = this.base): Promise<{ status: number; html: string; seq: number }> {
    const resp = await fetch(new URL("/_svc/render", via), { headers: { Cookie: this.cookies, "X-Svc-Csrf": this.csrf } });
    return { status: resp.status, html: await resp.text(), seq: Number(resp.headers.get("X-Svc-Seq")) };
  }

  async subscribe(via = this.base): Promise<SseStream> {
    this.stream = await SseStream.open(new URL(`/_svc/subscribe?after=${this.lastSeenSeq}`, via), this.cookies);
    return this.stream;
  }
}

/** One SSE connection: frames' seqs in arrival order, the lost signal, and whether it has ended. */
export class SseStream {
  readonly seqs: number[] = [];
  /** Every event's name, in arrival order (patch, sync, render, lost). */
  readonly events: string[] = [];
  /** Each seq's frame as sent; two different frames under one seq would be two owners at once. */
  readonly frames = new Map<number, string>();
  conflicts = 0;
  lost = false;
  ended = false;
  endedAt = 0;
  status = 0;
  private readonly abort = new AbortController();
  private done: Promise<void> = Promise.resolve();

  static async open(url: URL, cookies: string): Promise<SseStream> {
    const stream = new SseStream();
    const resp = await fetch(url, { headers: { Cookie: cookies, Accept: "text/event-stream" }, signal: stream.abort.signal });
    stream.status = resp.status;
    if (!resp.ok || resp.body === null) {
      stream.ended = true;
      stream.endedAt = Date.now();
      await resp.body?.cancel();
      return stream;
    }
    stream.done = stream.read(resp.body);
    return stream;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined) this.events.push(event);
          if (event === "patch" && data !== undefined) {
            const seq = (JSON.parse(data) as { seq: number }).seq;
            this.seqs.push(seq);
            const known = this.frames.get(seq);
            if (known !== undefined && known !== data) this.conflicts++;
            this.frames.set(seq, data);
          }
          if (event === "lost") this.lost = true;
        }
      }
    } catch {
      // aborted by close(), or the connection dropped
    }
    this.ended = true;
    this.endedAt = Date.now();
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}

export { sleep };

/** Polls `check` until it passes, for up to 5 s: the replicas' catch-up over the bus takes longer than a page's. */
export function eventually(check: () => void | Promise<void>, ms = 5_000): Promise<void> {
  return eventuallyWithin(check, ms, 20);
}
