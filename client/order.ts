/**
 * Frames in sequence order (docs/protocol.md#sequence-numbers, docs/protocol.md#client-rules).
 *
 * Event replies and SSE frames carry the session's one counter, and every frame reaches this tab
 * over SSE (a reply is the same frame again), so the frames to apply are exactly lastAppliedSeq+1,
 * +2, ... A frame at or below lastAppliedSeq is a duplicate or stale and is dropped whole. A frame
 * above the next one waits until the ones before it arrive; when the gap does not fill within
 * `gapMs` (a stream that missed frames the server no longer holds), the caller resyncs from a full
 * render, which moves lastAppliedSeq to the render's seq.
 */
import type { Frame as WireFrame, Patch } from "../src/protocol/mod.ts";

/** A frame as received: a JSON reply or SSE frame, or a full-HTML reply read from its headers. */
export type Frame = Pick<WireFrame, "seq" | "ackInputs"> & {
  readonly patches?: readonly Patch[];
  /** A full-HTML reply: the root element's markup. */
  readonly html?: string;
  /** The largest client event seq whose ack this frame may carry (see InputTable.ack). */
  readonly clamp: number;
};

export class FrameOrder {
  private readonly held = new Map<number, Frame>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private paused = false;
  /** The highest session seq known to exist: from a frame held, or from a sync. */
  private known = 0;

  constructor(
    public lastAppliedSeq: number,
    private readonly apply: (frame: Frame) => void,
    private readonly onGap: () => void,
    private readonly gapMs: number,
  ) {}

  /**
   * The server is known to be at `seq` (a new stream's sync): frames up to it that have not arrived
   * are a gap like any other, and a resync follows when they do not come within `gapMs`.
   */
  expect(seq: number): void {
    if (!Number.isSafeInteger(seq) || seq <= this.known) return;
    this.known = seq;
    this.drain();
  }

  push(frame: Frame): void {
    if (!Number.isSafeInteger(frame.seq) || frame.seq <= this.lastAppliedSeq) return;
    if (!this.held.has(frame.seq)) this.held.set(frame.seq, frame);
    this.drain();
  }

  /** Holds every frame (while a resync is under way). */
  pause(): void {
    this.paused = true;
    this.clearTimer();
  }

  /**
   * After a resync to `seq`: frames at or below it are already in the render. `skipped` sees each
   * held frame dropped that way (its acks still count).
   */
  resume(seq: number, skipped: (frame: Frame) => void = () => {}): void {
    this.paused = false;
    if (seq > this.lastAppliedSeq) this.lastAppliedSeq = seq;
    for (const [s, frame] of this.held) {
      if (s > this.lastAppliedSeq) continue;
      this.held.delete(s);
      skipped(frame);
    }
    this.drain();
  }

  get waiting(): number {
    return this.held.size;
  }

  private drain(): void {
    if (this.paused) return;
    for (let next = this.held.get(this.lastAppliedSeq + 1); next !== undefined; next = this.held.get(this.lastAppliedSeq + 1)) {
      this.held.delete(next.seq);
      this.lastAppliedSeq = next.seq;
      this.apply(next);
      if (this.paused) return;
    }
    if (!this.behind) this.clearTimer();
    else {this.timer ??= setTimeout(() => {
        this.timer = undefined;
        if (this.behind && !this.paused) this.onGap();
      }, this.gapMs);}
  }

  /** Whether frames are missing: some wait for an earlier one, or a sync named a seq not yet applied. */
  private get behind(): boolean {
    return this.held.size > 0 || this.known > this.lastAppliedSeq;
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
