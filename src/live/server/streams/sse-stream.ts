/**
 * The SSE stream of GET /_svc/subscribe (docs/protocol.md#sse-stream): frames in seq order,
 * heartbeat comments to keep proxies from closing an idle stream, and the end of the stream when
 * the session ends or the client goes away.
 */
import { repeatUnref } from "../../../runtime/timers.ts";
import { type Frame, type FrameSink, SSE_LOST, sseFrame, sseIdOnly } from "./sse-wire.ts";

const encoder = new TextEncoder();

export type SseOptions = {
  readonly heartbeatMs: number;
  /** Called on each heartbeat: an open stream keeps its session from expiring. */
  readonly onHeartbeat: () => void;
  readonly onClose: (sink: FrameSink) => void;
};

/** How long a browser waits before it reconnects a broken stream, in ms (the SSE `retry:` field). */
const RECONNECT_MS = 1000;

/**
 * A stream and its sink. `write` sends SSE text as it is: what the stream starts with (see
 * src/live/server/streams/resume.ts), before the sink joins its session's streams.
 */
export function openFrameStream(options: SseOptions): { sink: FrameSink; body: ReadableStream<Uint8Array>; write: (text: string) => void } {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let stopHeartbeat: (() => void) | undefined;
  let closed = false;

  const sink: FrameSink = {
    send(frame: Frame) {
      write(sseFrame(frame));
    },
    passed(seq: number) {
      write(sseIdOnly(seq));
    },
    lost() {
      write(SSE_LOST);
      sink.close();
    },
    close() {
      if (closed) return;
      finish();
      try {
        controller?.close();
      } catch {
        // already closed by the client
      }
    },
  };

  function write(text: string): void {
    if (text === "" || closed || controller === undefined) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      finish();
    }
  }

  function finish(): void {
    if (closed) return;
    closed = true;
    stopHeartbeat?.();
    options.onClose(sink);
  }

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      // A first comment flushes the headers through buffering proxies and starts the stream.
      c.enqueue(encoder.encode(`: connected\nretry: ${RECONNECT_MS}\n\n`));
      stopHeartbeat = repeatUnref(() => {
        options.onHeartbeat();
        write(": heartbeat\n\n");
      }, options.heartbeatMs);
    },
    cancel() {
      finish();
    },
  });
  return { sink, body, write };
}
