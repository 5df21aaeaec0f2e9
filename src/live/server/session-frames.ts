/**
 * A session's frames on their way out (docs/protocol.md#event-reply, #sse-stream, #resume): the
 * frame a stamped outSeq makes, every open SSE stream it goes to, and the last few frames kept for
 * a stream that reconnects after missing them.
 */
import { type Frame, type Patch, RESUME_FRAMES } from "../../protocol/mod.ts";
import type { FrameSink } from "./frames.ts";
import { resumeText } from "./resume.ts";

/** What a frame carries beside its seq. */
export type FrameParts = {
  readonly patches: readonly Patch[];
  readonly ackInputs: Readonly<Record<string, number>> | undefined;
  /** The request seq an event reply answers; undefined for a frame only streams get. */
  readonly respondingTo: number | undefined;
};

/** The frame with this seq: its fields in the wire's order, an absent one left out (not undefined). */
export function frameOf(seq: number, { patches, ackInputs, respondingTo }: FrameParts): Frame {
  return ackInputs
    ? respondingTo !== undefined ? { seq, ackInputs, respondingTo, patches } : { seq, ackInputs, patches }
    : respondingTo !== undefined ? { seq, respondingTo, patches } : { seq, patches };
}

export class SessionFrames {
  /** The session's open SSE streams. */
  readonly streams: Set<FrameSink> = new Set();
  private readonly recent: Frame[] = [];

  /** Sends a frame to every open stream and keeps it for reconnecting ones. */
  send(frame: Frame): void {
    // Other tabs of the session get every frame; the tab that asked drops its duplicate by seq.
    for (const stream of this.streams) stream.send(frame);
    this.recent.push(frame);
    if (this.recent.length > RESUME_FRAMES) this.recent.shift();
  }

  /**
   * What a new stream gets first, for the Last-Event-ID it came with (src/live/server/resume.ts):
   * the frames it missed, when all are still kept, or else a full render at `outSeq`.
   */
  catchUp(lastEventId: string | null, outSeq: number, renderRoot: () => string): string {
    return resumeText(lastEventId, { outSeq, recent: this.recent, renderRoot });
  }

  /** Adds a stream: it gets every frame from now on. */
  open(sink: FrameSink): void {
    this.streams.add(sink);
  }

  /** A stream went away. */
  closed(sink: FrameSink): void {
    this.streams.delete(sink);
  }

  /** Forgets the kept frames (a quiet session's; a stream reconnecting later resyncs). */
  forgetRecent(): void {
    this.recent.length = 0;
  }

  /**
   * Closes every stream: with the session-lost signal when the session is gone (the client
   * reloads), plainly when it carries on elsewhere (the client reconnects, to any replica).
   */
  closeAll(lost = false): void {
    for (const stream of this.streams) {
      if (lost && stream.lost !== undefined) stream.lost();
      else stream.close();
    }
    this.streams.clear();
  }
}
