/**
 * What a shared bus hears, handled in order: the part the Postgres bus (postgres-bus.ts) and the
 * broker buses (broker-bus.ts) share. The bus's connection only sends and hears text; the inbox
 * keeps the rules every bus keeps (bus.ts):
 *
 * - Order. Texts heard are handled one after another, also when one must be fetched (a notice too
 *   large for the channel travels by reference: "@<id>", its text a row of svc_live_frames), so a
 *   session's frames reach its streams in the order they were published.
 * - Markers. A bus sends a marker of its own and waits to hear it (`hearOwnMarker`): the channel
 *   keeps the order of what it carries, so by then every notice sent before the marker has been
 *   delivered (docs/deployment.md#late-notices). Another replica's markers are skipped.
 * - Resume. After the connection came back from a drop, the resume listeners catch up from the
 *   store (docs/deployment.md#catching-up-after-a-bus-reconnect), after the notices already queued.
 */
import { log } from "../../log.ts";
import { randomId } from "../../db/random-id.ts";
import { onceUnref } from "../../runtime/timers.ts";
import { type BusListener, type BusMessage, decodeMessage, Listeners } from "./bus.ts";

/** What a notice sent by reference starts with; the rest is the kept notice's id. */
export const BY_REFERENCE = "@";
/** What a bus's own marker starts with; no message's text starts with it. */
const MARK_PREFIX = "mark:";

/** How an inbox finds a notice sent by reference, and what it does with a message before its listeners hear it. */
export type InboxOptions = {
  readonly fetch: (id: string) => Promise<string | undefined>;
  readonly heard?: (message: BusMessage) => void;
};

export class BusInbox {
  private readonly listeners = new Listeners();
  private readonly resumeListeners = new Set<() => void>();
  /** Markers sent and not heard yet. */
  private readonly marks = new Map<string, () => void>();
  /** Texts heard, handled in order. */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: InboxOptions) {}

  subscribe(listener: BusListener): () => void {
    return this.listeners.add(listener);
  }

  onResume(listener: () => void): () => void {
    this.resumeListeners.add(listener);
    return () => void this.resumeListeners.delete(listener);
  }

  /** A text heard on the channel (the connection calls this for each, in the order heard). */
  receive(text: string): void {
    if (text.startsWith(MARK_PREFIX)) {
      // Another replica's marker is not for this bus; this bus's own settles once what came before it was delivered.
      const heard = this.marks.get(text);
      if (heard !== undefined) this.queue = this.queue.then(heard);
      return;
    }
    this.queue = this.queue.then(() => this.handle(text)).catch((error: unknown) => {
      log.error(`live.bus notice dropped: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private async handle(text: string): Promise<void> {
    if (this.closed) return;
    const whole = text.startsWith(BY_REFERENCE) ? await this.options.fetch(text.slice(BY_REFERENCE.length)) : text;
    const message = whole === undefined ? undefined : decodeMessage(whole);
    if (message === undefined) return;
    this.options.heard?.(message);
    this.listeners.deliver(message);
  }

  /**
   * Sends a marker of its own through `send` (resolving whether it was sent) and waits to hear it.
   * Resolves true when it was heard, false when `maxWaitMs` passed or it could not be sent.
   */
  async hearOwnMarker(send: (mark: string) => Promise<boolean>, maxWaitMs: number): Promise<boolean> {
    if (this.closed) return false;
    const mark = `${MARK_PREFIX}${randomId()}`;
    let stopWaiting = () => {};
    const heard = new Promise<boolean>((resolve) => {
      this.marks.set(mark, () => resolve(true));
      stopWaiting = onceUnref(() => resolve(false), maxWaitMs);
    });
    try {
      return (await send(mark)) && (await heard);
    } catch {
      return false;
    } finally {
      stopWaiting();
      this.marks.delete(mark);
    }
  }

  /** The connection is back after a drop: the resume listeners catch up, after the notices already queued. */
  resumed(): void {
    if (this.closed) return;
    this.queue = this.queue.then(() => {
      for (const listener of this.resumeListeners) {
        try {
          listener();
        } catch (error) {
          log.error(`live.bus catch-up failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    });
  }

  /** Stops handling what is heard; a marker still awaited settles at once. */
  close(): void {
    this.closed = true;
    for (const heard of this.marks.values()) heard();
  }
}
