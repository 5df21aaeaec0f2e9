/**
 * A session's frames on their way out (docs/protocol.md#event-reply, #sse-stream, #resume): the
 * frame a stamped outSeq makes, every open SSE stream it goes to, and the last few frames kept for
 * a stream that reconnects after missing them.
 */
import { type Frame, type Patch, RESUME_FRAMES } from "../../../protocol/mod.ts";
import type { FrameSink } from "./sse-wire.ts";
import { type RenderIds, resumeText } from "./resume.ts";

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
    : respondingTo !== undefined
    ? { seq, respondingTo, patches }
    : { seq, patches };
}

export class SessionFrames {
  /** The session's open SSE streams. */
  readonly streams: Set<FrameSink> = new Set();
  /** The page (one page load of the client, docs/protocol.md#event-request) each stream said it serves. */
  private readonly pages = new Map<FrameSink, string>();
  private readonly recent: Frame[] = [];

  /**
   * Sends a frame to every open stream and keeps it for reconnecting ones. `repliedTo`: the page
   * whose request the frame answers, which gets it in the reply and only its id on its own stream
   * (one copy per tab, and Last-Event-ID still names it); a stream that named no page gets every
   * frame, and drops a copy by seq.
   */
  send(frame: Frame, repliedTo?: string): void {
    for (const stream of this.streams) {
      if (repliedTo === undefined || this.pages.get(stream) !== repliedTo) stream.send(frame);
      else if (stream.passed !== undefined) stream.passed(frame.seq);
      else stream.send(frame);
    }
    this.recent.push(frame);
    if (this.recent.length > RESUME_FRAMES) this.recent.shift();
  }

  /**
   * What a new stream gets first, for the Last-Event-ID it came with (src/live/server/streams/resume.ts):
   * the frames it missed, when all are still kept, or else a full render at `outSeq` (with `ids`,
   * the moves and acks that let the page keep its nodes).
   */
  catchUp(lastEventId: string | null, outSeq: number, renderRoot: () => string, ids?: RenderIds): string {
    return resumeText(lastEventId, { outSeq, recent: this.recent, renderRoot, ids });
  }

  /** Adds a stream, of `page` when the client named it: it gets every frame from now on (but that page's replies). */
  open(sink: FrameSink, page?: string): void {
    this.streams.add(sink);
    if (page !== undefined) this.pages.set(sink, page);
  }

  /** A stream went away. */
  closed(sink: FrameSink): void {
    this.streams.delete(sink);
    this.pages.delete(sink);
  }

  /** Forgets the kept frames (a quiet session's; a stream reconnecting later resyncs). */
  forgetRecent(): void {
    this.recent.length = 0;
  }

  /**
   * Closes every stream: with the session-lost signal when the session is gone (the client
   * reloads), plainly when it carries on elsewhere (the client reconnects, to any replica).
   */
  closeAll({ lost }: { readonly lost: boolean }): void {
    for (const stream of this.streams) {
      if (lost && stream.lost !== undefined) stream.lost();
      else stream.close();
    }
    this.streams.clear();
    this.pages.clear();
  }
}
