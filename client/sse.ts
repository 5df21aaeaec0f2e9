/**
 * The one SSE subscription (docs/protocol.md#sse-stream). When a stream breaks, the browser's
 * EventSource reconnects by itself and sends the id of the last frame it got as Last-Event-ID,
 * and the server resumes from there (docs/protocol.md#resume). Only when the browser gives up (the
 * server refused the stream: readyState CLOSED) does the client open a new one, with a growing
 * backoff. A stream the client opens names its last applied frame (`since`), so the server sends
 * what came after it, as for Last-Event-ID. After a `lost` event (the session ended or was
 * evicted) the stream is closed for good.
 */
import { SSE_EVENTS } from "../src/protocol/mod.ts";

/** The part of EventSource the client uses (injectable for tests). */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
}
export type EventSourceCtor = new (url: string, init?: { withCredentials?: boolean }) => EventSourceLike;

export type Stream = { close(): void; readonly open: boolean };

/** What the stream's events carry, as JSON text, one handler per event. */
export type StreamHandlers = { readonly [Name in keyof typeof SSE_EVENTS]: (data: string) => void };

/** EventSource.readyState once the browser has given up on the stream. */
const CLOSED = 2;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 10_000;

/**
 * Opens the stream at `url()`, asked again at each new connection (it names the last applied
 * frame, which moves on while the page lives).
 */
export function subscribe(Source: EventSourceCtor, url: () => string, handlers: StreamHandlers): Stream {
  let source: EventSourceLike | undefined;
  let delay = FIRST_DELAY_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const connect = () => {
    timer = undefined;
    if (closed) return;
    const es = new Source(url());
    source = es;
    for (const name of Object.keys(SSE_EVENTS) as (keyof typeof SSE_EVENTS)[]) {
      es.addEventListener(SSE_EVENTS[name], (event) => {
        if (source !== es) return;
        if (name === "lost") {
          // The session is gone: no reconnect, whatever the browser would do.
          closed = true;
          es.close();
          source = undefined;
        }
        handlers[name](String(event.data));
      });
    }
    es.onopen = () => {
      delay = FIRST_DELAY_MS;
    };
    es.onerror = () => {
      // Still CONNECTING: the browser is reconnecting, and will send Last-Event-ID itself.
      if (source !== es || es.readyState !== CLOSED) return;
      es.close();
      source = undefined;
      if (!closed) timer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    };
  };
  connect();
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      source?.close();
    },
    get open() {
      return source !== undefined && source.readyState === 1;
    },
  };
}
