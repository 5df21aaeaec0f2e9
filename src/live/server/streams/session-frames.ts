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

/** The streams of a session that has none: most sessions between visits (an idle session keeps no Set). */
const NO_STREAMS: ReadonlySet<FrameSink> = new Set();

export class SessionFrames {
  /**
   * The session's open SSE streams, each with the page (one page load of the client,
   * docs/protocol.md#event-request) it said it serves; made with the first stream and dropped
   * with the last, so that a session without streams keeps no map (docs/deployment.md#memory).
   */
  private openStreams: Map<FrameSink, string | undefined> | undefined;
  private readonly recent: Frame[] = [];
  /** The highest seq sent so far (0: none). */
  private lastSeq = 0;

  /**
   * Sends a frame to every open stream and keeps it for reconnecting ones. `repliedTo`: the page
   * whose request the frame answers, which gets it in the reply and only its id on its own stream
   * (one copy per tab, and Last-Event-ID still names it); a stream that named no page gets every
   * frame, and drops a copy by seq.
   */
  send(frame: Frame, repliedTo?: string): void {
    if (frame.seq > this.lastSeq) this.lastSeq = frame.seq;
    if (this.openStreams !== undefined) this.sendTo(this.openStreams, frame, repliedTo);
    this.recent.push(frame);
    if (this.recent.length > RESUME_FRAMES) this.recent.shift();
  }

  /** The session's open SSE streams (a copy). */
  get streams(): ReadonlySet<FrameSink> {
    return this.openStreams === undefined ? NO_STREAMS : new Set(this.openStreams.keys());
  }

  /** How many SSE streams the session has open. */
  get streamCount(): number {
    return this.openStreams?.size ?? 0;
  }

  private sendTo(open: ReadonlyMap<FrameSink, string | undefined>, frame: Frame, repliedTo: string | undefined): void {
    for (const [stream, page] of open) {
      if (repliedTo === undefined || page !== repliedTo) stream.send(frame);
      else if (stream.passed !== undefined) stream.passed(frame.seq);
      else stream.send(frame);
    }
  }

  /**
   * Sends a frame heard from another replica (docs/deployment.md#late-notices), unless a frame of
   * that seq or a later one went out already: a notice heard late never reaches a stream after
   * the frames that follow it.
   */
  sendHeard(frame: Frame): void {
    if (frame.seq > this.lastSeq) this.send(frame);
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
    (this.openStreams ??= new Map()).set(sink, page);
  }

  /** A stream went away. */
  closed(sink: FrameSink): void {
    this.openStreams?.delete(sink);
    if (this.openStreams?.size === 0) this.openStreams = undefined;
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
    const open = this.openStreams;
    this.openStreams = undefined;
    for (const stream of open?.keys() ?? []) {
      if (lost && stream.lost !== undefined) stream.lost();
      else stream.close();
    }
  }
}
