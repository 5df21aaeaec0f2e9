/**
 * Event replies and SSE frames share one shape (docs/protocol.md#event-reply) and one counter,
 * the session's outSeq.
 */
import { type Frame, type Patch, type RenderEvent, ROOT_ID, SSE_EVENTS, type SyncEvent } from "../../../protocol/mod.ts";

export type { Frame };

/** Where a session's SSE frames go: one per open stream. */
export interface FrameSink {
  send(frame: Frame): void;
  close(): void;
  /** Sends the session-lost signal (the session ended or was evicted), then closes. */
  lost?(): void;
  /**
   * Frame `seq` reached this stream's page another way (it was the reply to the page's event):
   * only its id goes on the stream, so that a reconnect still names the last frame in Last-Event-ID.
   */
  passed?(seq: number): void;
}

/** The SSE wire form of the session-lost signal (docs/protocol.md#sse-stream): the client reloads. */
export const SSE_LOST = "event: lost\ndata: session-lost\n\n";

/** The markup of a full-HTML reply: when every patch replaces the root (docs/protocol.md#full-html-reply). */
export function fullHtmlOf(patches: readonly Patch[]): string | undefined {
  const [only] = patches;
  return patches.length === 1 && only!.id === ROOT_ID && only!.replace !== undefined ? only!.replace : undefined;
}

/**
 * The SSE wire form of a frame: its seq as the event id, so a browser that reconnects names the
 * last frame it got in Last-Event-ID (docs/protocol.md#resume), then the event name and the data.
 */
export function sseFrame(frame: Frame): string {
  const { respondingTo: _omitted, ...shape } = frame;
  return `id: ${frame.seq}\nevent: ${SSE_EVENTS.frame}\ndata: ${JSON.stringify(shape)}\n\n`;
}

/**
 * The SSE wire form of a frame's id alone: by the EventSource processing rules a block with an id
 * and no data sets the stream's last event id and dispatches nothing (docs/protocol.md#sse-stream).
 */
export function sseIdOnly(seq: number): string {
  return `id: ${seq}\n\n`;
}

/** A full render as an SSE event, for a stream that resumes from a point no longer held (docs/protocol.md#resume). */
export function sseRender(render: RenderEvent): string {
  return `id: ${render.seq}\nevent: ${SSE_EVENTS.render}\ndata: ${JSON.stringify(render)}\n\n`;
}

/**
 * The session's seq for a stream opened without Last-Event-ID. It carries no id: a stream that
 * breaks before its first frame reconnects without one again, and gets a new sync.
 */
export function sseSync(sync: SyncEvent): string {
  return `event: ${SSE_EVENTS.sync}\ndata: ${JSON.stringify(sync)}\n\n`;
}
