/**
 * Where a new SSE stream starts (docs/protocol.md#resume). A browser whose stream broke reconnects
 * with the id of the last frame it got in Last-Event-ID: the frames after it are sent again when
 * the session still holds all of them, and a full render otherwise. A stream opened without it is
 * told the session's seq, so a client that missed frames in between knows it.
 */
import type { InputAcks, Move, RenderEvent } from "../../../protocol/mod.ts";
import type { Frame } from "./sse-wire.ts";
import { sseFrame, sseRender, sseSync } from "./sse-wire.ts";

/** What a render needs beside the markup, so a page far behind keeps its nodes (docs/protocol.md#ids-that-move). */
export type RenderIds = {
  /** What the frames after `since` did to ids; undefined when the session's log does not reach back so far. */
  movesSince(since: number): readonly Move[] | undefined;
  /** The session's stored input seqs, the acks of the frames the render stands for; undefined for none. */
  ackInputs(): InputAcks | undefined;
};

/** What resuming needs of a session: read under its mutex, so no frame is stamped meanwhile. */
export type ResumeSource = {
  readonly outSeq: number;
  /** The latest frames, oldest first (a run that may stop short of `outSeq`, or have gaps: then a render). */
  readonly recent: readonly Frame[];
  /** The markup of the current render of the root. */
  renderRoot(): string;
  /** Moves and acks for a render event; without them it carries the markup alone. */
  readonly ids?: RenderIds | undefined;
};

/** The SSE text a stream opening with this Last-Event-ID header gets before the session's next frames. */
export function resumeText(lastEventId: string | null, session: ResumeSource): string {
  if (lastEventId === null || lastEventId === "") return sseSync({ seq: session.outSeq });
  const last = seqOf(lastEventId);
  if (last === session.outSeq) return "";
  const missed = last === undefined || last > session.outSeq ? undefined : framesAfter(session.recent, last, session.outSeq);
  if (missed === undefined) return sseRender(renderEvent(session, last));
  let text = "";
  for (const frame of missed) text += sseFrame(frame);
  return text;
}

/**
 * The render for a stream that resumes from frame `since`: with the moves since then, when the
 * log still has them, so a page that had applied exactly that frame can replay them before it
 * reconciles; and the stored acks.
 */
function renderEvent(session: ResumeSource, since: number | undefined): RenderEvent {
  const html = session.renderRoot();
  const moves = since === undefined || since > session.outSeq ? undefined : session.ids?.movesSince(since);
  const ackInputs = session.ids?.ackInputs();
  return {
    seq: session.outSeq,
    html,
    ...(moves === undefined ? {} : { since, moves }),
    ...(ackInputs === undefined ? {} : { ackInputs }),
  };
}

/** An id this server wrote: a seq in decimal digits. */
function seqOf(id: string): number | undefined {
  if (!/^\d{1,16}$/.test(id)) return undefined;
  const seq = Number(id);
  return Number.isSafeInteger(seq) ? seq : undefined;
}

/**
 * Every frame after seq `last` up to `outSeq`, one per seq in order, or undefined when any of them
 * is not held. The held frames need not run up to the session's seq without a gap: a session taken
 * over from another replica holds the frames its streams here heard on the bus, which may stop
 * short of the state the takeover read (docs/deployment.md#late-notices). A stream is then sent a
 * render rather than the frames it has and silence for the rest.
 */
function framesAfter(recent: readonly Frame[], last: number, outSeq: number): readonly Frame[] | undefined {
  const missed = recent.filter((frame) => frame.seq > last && frame.seq <= outSeq);
  if (missed.length !== outSeq - last) return undefined;
  for (const [i, frame] of missed.entries()) if (frame.seq !== last + 1 + i) return undefined;
  return missed;
}
