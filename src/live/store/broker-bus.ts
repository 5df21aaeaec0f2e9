/**
 * A bus on a message broker (Redis pub/sub or NATS, docs/deployment.md#the-bus): the part both
 * share. The broker link (redis-bus.ts, nats-bus.ts) only sends and hears text on one channel;
 * this class and the inbox every shared bus uses (inbox.ts) keep the rules every bus keeps (bus.ts):
 *
 * - Order. A link keeps the order of its own sends, and the broker hands a subscriber what it
 *   received in the order it received it; the inbox handles texts in the order heard, also when
 *   one must be fetched (a notice too large for the broker travels by reference, as on Postgres).
 *   Sends keep their order too while a large notice is being kept.
 * - `heardUpTo`. The bus sends a marker of its own and waits to hear it: by then every notice the
 *   broker had received before it has been delivered (docs/deployment.md#late-notices).
 * - Resume. After the link's subscription came back from a drop, the bus first hears a marker of
 *   its own (so the subscription is in place again) and only then tells its resume listeners, which
 *   catch up from the store: a notice sent after their reads is heard, one sent before is read
 *   (docs/deployment.md#catching-up-after-a-bus-reconnect).
 *
 * Notices are published after the write they speak of commits (the store's `notices` sink), never
 * inside it: that is what keeps them off Postgres's commit path. A publish that fails (the broker
 * is down) is logged and lost, as a notice sent to a deaf replica is: the client's gap check
 * fetches a render for a frame, a fenced save and lease renewal find a takeover.
 */
import { log } from "../../log.ts";
import { onceUnref } from "../../runtime/timers.ts";
import { type BusListener, type BusMessage, encodeMessage, type LiveBus, type NoticeSink } from "./bus.ts";
import { BusInbox, BY_REFERENCE } from "./inbox.ts";

/** A connection to a broker, on one channel. */
export interface BrokerLink {
  /** Sends a text on the channel; the broker receives a link's texts in the order of the calls. */
  send(text: string): Promise<void>;
  /** The largest text in bytes the broker takes (undefined: larger than any notice). */
  readonly maxBytes: number | undefined;
  close(): Promise<void>;
}

/** Where a notice too large for the broker is kept, and found again by its id (the store's frames table). */
export type LargeNotices = {
  keep(text: string): Promise<string>;
  fetch(id: string): Promise<string | undefined>;
};

/** What a broker bus is opened with: its channel, where large notices go, and the largest sent inline (bytes). */
export type LinkOptions = { readonly channel: string; readonly large?: LargeNotices; readonly inlineBytes?: number };

/** How long a resume waits for each marker before it sends another. */
const RESUME_MARK_MS = 1000;
const encoder = new TextEncoder();

export class BrokerBus implements LiveBus, NoticeSink {
  readonly shared = true;
  private readonly inbox: BusInbox;
  /** Sends in order while a notice by reference is being kept (its id comes back first). */
  private outbox: Promise<void> = Promise.resolve();
  private keeping = 0;
  private link: BrokerLink | undefined;
  private closed = false;

  /** `name`: the broker, for log lines. */
  constructor(
    private readonly name: string,
    private readonly large: LargeNotices | undefined,
    /** The largest text sent inline, when lower than the broker's own limit. */
    private readonly inlineBytes?: number,
  ) {
    this.inbox = new BusInbox({ fetch: async (id) => await large?.fetch(id) });
  }

  /** Starts sending on `link` (the link already delivers what it hears to `receive`). */
  attach(link: BrokerLink): void {
    this.link = link;
  }

  async publish(message: BusMessage): Promise<void> {
    await this.publishText(encodeMessage(message));
  }

  /** Sends a notice's text; over the broker's limit, by reference. Calls keep their order. */
  publishText(text: string): Promise<void> {
    const link = this.link;
    if (link === undefined || this.closed) return Promise.reject(new Error(`the ${this.name} bus is not open`));
    const limit = Math.min(link.maxBytes ?? Infinity, this.inlineBytes ?? Infinity);
    const large = limit !== Infinity && this.large !== undefined && (text.length * 3 > limit && encoder.encode(text).length > limit);
    if (!large && this.keeping === 0) return link.send(text);
    if (large) this.keeping++;
    const sent = this.outbox.then(async () => {
      try {
        return await link.send(large ? BY_REFERENCE + (await this.large!.keep(text)) : text);
      } finally {
        if (large) this.keeping--;
      }
    });
    this.outbox = sent.catch(() => undefined);
    return sent;
  }

  subscribe(listener: BusListener): () => void {
    return this.inbox.subscribe(listener);
  }

  onResume(listener: () => void): () => void {
    return this.inbox.onResume(listener);
  }

  /** A text heard on the channel (the link calls this for each, in the order heard). */
  receive(text: string): void {
    this.inbox.receive(text);
  }

  /**
   * The broker keeps the order of what it received, and the inbox delivers in the order heard:
   * once its own marker, sent now, comes through, every notice the broker had before it was
   * delivered. Settles when the marker was heard, when `maxWaitMs` passed, or when it could not
   * be sent.
   */
  async heardUpTo(maxWaitMs: number): Promise<void> {
    await this.hearOwnMarker(maxWaitMs);
  }

  private hearOwnMarker(maxWaitMs: number): Promise<boolean> {
    const link = this.link;
    if (this.closed || link === undefined) return Promise.resolve(false);
    return this.inbox.hearOwnMarker(async (mark) => (await link.send(mark), true), maxWaitMs);
  }

  /**
   * The link's subscription is back after a drop: once a marker of its own comes through (the
   * subscription is in place; tried again each second while the broker is away), the resume
   * listeners catch up, after the notices already queued.
   */
  async reconnected(): Promise<void> {
    if (this.closed) return;
    log.warn(`live.bus (${this.name}) subscribed again after its connection dropped; catching up on what it missed`);
    while (!this.closed && !(await this.hearOwnMarker(RESUME_MARK_MS))) {
      await new Promise<void>((resolve) => onceUnref(resolve, RESUME_MARK_MS));
    }
    this.inbox.resumed();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.inbox.close();
    await this.link?.close().catch(() => undefined);
  }
}
