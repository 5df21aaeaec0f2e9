/**
 * The bus between the replicas of live apps (docs/deployment.md#several-replicas): what one
 * replica must tell the others at once. Messages are JSON notices, small by design:
 *
 *   frame   a session's frame, for the replicas holding one of its SSE streams
 *   ended   a session ended (endSession, eviction): its streams get the session-lost signal
 *   taken   a session has a new owner: the old one stops its effects and drops its copy
 *   access  a user's access changed (revoke, disable, enable): each replica re-checks that
 *           user's sessions and ends the evicted ones (src/auth/access-events.ts sends these)
 *
 * On Postgres the bus is LISTEN/NOTIFY on the one channel of src/db/notify.ts (postgres-bus.ts),
 * and a write's notice goes out in the write's own statement. On Redis or NATS (broker-bus.ts) a
 * write's notice is published once the write committed, through the store's `NoticeSink`, so no
 * NOTIFY rides the commit path (docs/deployment.md#the-bus). With one process it is `MemoryBus`,
 * behind the same interface, so eviction is pushed there too.
 * Session keys are hashes (session-key.ts): a notice never carries a cookie.
 */
import type { Frame } from "../server/streams/sse-wire.ts";

export type BusMessage =
  /**
   * `epoch`: the session's epoch once the save that published the frame committed. A replica that
   * read or claimed the session at that epoch or later already holds the frame's state.
   */
  | {
    readonly t: "frame";
    readonly app: string;
    readonly key: string;
    readonly from: string;
    readonly frame: Frame;
    readonly epoch: number;
  }
  | { readonly t: "ended"; readonly app: string; readonly key: string; readonly from: string }
  | { readonly t: "taken"; readonly app: string; readonly key: string; readonly from: string; readonly epoch: number }
  | { readonly t: "access"; readonly user: string; readonly from: string };

export type BusListener = (message: BusMessage) => void;

export interface LiveBus {
  /** Whether messages reach other processes (false: this process only). */
  readonly shared: boolean;
  /** Sends a message now, not tied to a write (a write's notice goes with the write, see store.ts). */
  publish(message: BusMessage): Promise<void>;
  /** Hears every message, this process's own included; returns the unsubscribe. */
  subscribe(listener: BusListener): () => void;
  /**
   * Calls `listener` each time the bus listens again after its connection dropped: the notices
   * sent while it was down are lost, so the listener catches up from the store
   * (docs/deployment.md#catching-up-after-a-bus-reconnect). Returns the unsubscribe.
   */
  onResume(listener: () => void): () => void;
  /**
   * Settles once every notice committed before the call has reached the listeners: a replica
   * taking over a session that its streams here listen to first passes on the frames the previous
   * owner saved before the state it read (docs/deployment.md#late-notices). Settles after
   * `maxWaitMs` in any case (a bus that does not hear).
   */
  heardUpTo(maxWaitMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where a shared store publishes a write's notice once the write committed, when the bus is not
 * Postgres NOTIFY. Calls keep their order: a session's frames are published in the order saved.
 */
export interface NoticeSink {
  publishText(text: string): Promise<void>;
}

/** A message as a notice's text. */
export const encodeMessage = (message: BusMessage): string => JSON.stringify(message);

/** A notice's message; undefined for text that is not one (another program on the channel). */
export function decodeMessage(text: string): BusMessage | undefined {
  try {
    const value = JSON.parse(text) as { t?: unknown; from?: unknown };
    if (typeof value !== "object" || value === null || typeof value.from !== "string") return undefined;
    return value.t === "frame" || value.t === "ended" || value.t === "taken" || value.t === "access" ? (value as BusMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** Listeners of one bus, each called apart so that one failing does not silence the others. */
export class Listeners {
  private readonly set = new Set<BusListener>();
  add(listener: BusListener): () => void {
    this.set.add(listener);
    return () => void this.set.delete(listener);
  }
  deliver(message: BusMessage): void {
    for (const listener of this.set) {
      try {
        listener(message);
      } catch {
        // Each listener handles its own errors; the rest still hear the message.
      }
    }
  }
}

/** The bus of one process: messages go to this process's listeners, in order, after the caller's turn. */
export class MemoryBus implements LiveBus {
  readonly shared = false;
  private readonly listeners = new Listeners();

  async publish(message: BusMessage): Promise<void> {
    await Promise.resolve();
    this.listeners.deliver(message);
  }

  subscribe(listener: BusListener): () => void {
    return this.listeners.add(listener);
  }

  /** Its messages are delivered in a microtask: one turn later, every earlier one was. */
  async heardUpTo(_maxWaitMs: number): Promise<void> {
    await Promise.resolve();
  }

  /** One process never misses its own messages. */
  onResume(_listener: () => void): () => void {
    return () => {};
  }

  async close(): Promise<void> {}
}
