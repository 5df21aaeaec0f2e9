/**
 * The one SSE subscription (live-input-authority.md §GET /_svc/subscribe): `event: patch` frames go
 * to the client; on an error the stream is closed and reopened with the current `after`, with a
 * growing backoff, so the server replays what was missed while it still holds it.
 */

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

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 10_000;

export function subscribe(Source: EventSourceCtor, urlFor: () => string, onData: (data: string) => void): Stream {
  let source: EventSourceLike | undefined;
  let delay = FIRST_DELAY_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const connect = () => {
    timer = undefined;
    if (closed) return;
    const es = new Source(urlFor());
    source = es;
    es.addEventListener("patch", (event) => {
      if (source === es) onData(String(event.data));
    });
    es.onopen = () => {
      delay = FIRST_DELAY_MS;
    };
    es.onerror = () => {
      if (source !== es) return;
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
