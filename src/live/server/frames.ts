/**
 * Event replies and SSE frames share one shape (live-input-authority.md §Event reply) and one
 * counter, the session's outSeq.
 */
import { type Frame, type Patch, ROOT_ID } from "../../protocol/mod.ts";

export type { Frame };

/** Where a session's SSE frames go: one per open stream. */
export interface FrameSink {
  send(frame: Frame): void;
  close(): void;
}

/** The markup of a full-HTML reply: when every patch replaces the root (§Event reply). */
export function fullHtmlOf(patches: readonly Patch[]): string | undefined {
  const [only] = patches;
  return patches.length === 1 && only!.id === ROOT_ID && only!.replace !== undefined ? only!.replace : undefined;
}

/** The SSE wire form of a frame: an `event: patch` line and a data line (§GET /_svc/subscribe). */
export function sseFrame(frame: Frame): string {
  const { respondingTo: _omitted, ...shape } = frame;
  return `event: patch\ndata: ${JSON.stringify(shape)}\n\n`;
}
