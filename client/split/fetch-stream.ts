/**
 * The SSE stream read with fetch and a stream reader (docs/protocol.md#the-session-field): EventSource
 * cannot send headers, and a token session's stream must carry X-Svc-Session. It behaves as the
 * EventSource the live client drives (client/sse.ts): the same events, `id:` lines kept and sent
 * back as Last-Event-ID when it reconnects by itself after the connection drops (readyState
 * CONNECTING, after the `retry:` delay), and CLOSED for good when the server refuses the stream (a
 * status other than 200, or another content type), when the client then opens a new one itself.
 * Parsing follows the HTML standard's event-stream format: `event`, `data` (lines joined by "\n"),
 * `id`, `retry`, comments, and any of CRLF, LF or CR as the line end.
 */
import { LAST_EVENT_ID_HEADER } from "../../src/protocol/mod.ts";
import type { EventSourceCtor, EventSourceLike } from "../sse.ts";
import type { Fetch } from "./session.ts";

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;
/** The reconnection delay until the stream's `retry:` line sets another, ms. */
const DEFAULT_RETRY_MS = 1000;

/** An EventSource constructor whose streams are requests made through `fetch` (which adds the session header). */
export function fetchEventSource(fetch: Fetch): EventSourceCtor {
  return class extends FetchEventSource {
    constructor(url: string) {
      super(url, fetch);
    }
  };
}

/** One stream read through `fetch`, behaving as an EventSource (see above). */
class FetchEventSource implements EventSourceLike {
  readyState = CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  private readonly listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  private lastEventId = "";
  private retryMs = DEFAULT_RETRY_MS;
  private abort: AbortController | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly url: string, private readonly fetch: Fetch) {
    this.connect();
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.readyState = CLOSED;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.abort?.abort();
  }

  private connect(): void {
    this.timer = undefined;
    if (this.readyState === CLOSED) return;
    const abort = (this.abort = new AbortController());
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (this.lastEventId !== "") headers[LAST_EVENT_ID_HEADER] = this.lastEventId;
    // Called as a plain function, as the page's fetch must be (not as a method of this object).
    const fetch = this.fetch;
    fetch(this.url, { headers, signal: abort.signal, credentials: "same-origin", cache: "no-store" }).then(
      (resp) => this.read(resp),
      () => this.dropped(),
    );
  }

  private async read(resp: Response): Promise<void> {
    if (this.readyState === CLOSED) return;
    if (resp.status !== 200 || !(resp.headers.get("Content-Type") ?? "").startsWith("text/event-stream") || resp.body === null) {
      // A refusal: the browser's EventSource gives up here, and so does this one.
      this.readyState = CLOSED;
      this.onerror?.(new Event("error"));
      return;
    }
    this.readyState = OPEN;
    this.onopen?.(new Event("open"));
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    const parser = new EventStreamParser((type, data, id) => this.dispatch(type, data, id), (ms) => (this.retryMs = ms));
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done || this.readyState === CLOSED) break;
        parser.push(decoder.decode(chunk.value, { stream: true }));
      }
    } catch {
      // the connection broke: reconnect below
    }
    this.dropped();
  }

  /** The connection ended or failed: reconnect after the retry delay, naming the last event id. */
  private dropped(): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CONNECTING;
    this.onerror?.(new Event("error"));
    if (this.readyState === CLOSED) return;
    this.timer = setTimeout(() => this.connect(), this.retryMs);
  }

  private dispatch(type: string, data: string | undefined, id: string): void {
    this.lastEventId = id;
    if (data === undefined) return;
    for (const listener of this.listeners.get(type) ?? []) {
      if (this.readyState === CLOSED) return;
      listener({ type, data, lastEventId: id } as unknown as MessageEvent);
    }
  }
}

/**
 * The event-stream format, fed text as it arrives: `dispatch` gets each event's type, data and the
 * last event id so far (an event without data sets the id and dispatches nothing: `data` undefined).
 */
export class EventStreamParser {
  private buffer = "";
  private type = "";
  private data: string[] = [];
  private id = "";

  constructor(
    private readonly dispatch: (type: string, data: string | undefined, id: string) => void,
    private readonly retry: (ms: number) => void,
  ) {}

  push(text: string): void {
    this.buffer += text;
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      // A CR at the end of the text may be the first half of a CRLF: wait for what follows.
      if (end < 0 || (end === this.buffer.length - 1 && this.buffer[end] === "\r")) return;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith("\r\n", end) ? 2 : 1));
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === "") {
      const data = this.data.length === 0 ? undefined : this.data.join("\n");
      this.dispatch(this.type || "message", data, this.id);
      this.type = "";
      this.data = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.type = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id" && !value.includes("\0")) this.id = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.retry(Number(value));
  }
}
