/**
 * Where a live app keeps its sessions beyond this process's table, chosen once when the app is
 * built (docs/deployment.md#several-replicas): in this process (`LocalKeeping`, with the app's
 * optional snapshot store), or shared between replicas on Postgres
 * (src/live/server/replicas/shared-keeping.ts). The registry (src/live/server/registry/registry.ts)
 * calls the one it was given and never asks which it is.
 */
import { log } from "../../../log.ts";
import type { Frame } from "../streams/sse-wire.ts";
import type { LiveSession } from "../session/session.ts";
import { type SessionState, snapshotOf } from "../session/state.ts";
import { LOST, type Resolved } from "./lookup.ts";
import type { SessionStore } from "./snapshot-store.ts";

/** An id a session rotated away from, still in its grace period (docs/protocol.md#session-rotation). */
export type RotatedFrom = { readonly id: string; readonly handle: string; readonly remainingMs: number };

/** A rotation made here: the old id and handle, and the ticket handed to the tab. */
export type RotationRecord = { readonly from: string; readonly fromHandle: string; readonly ticket: string };

/** How a lookup takes over a session kept elsewhere: claimed now, or by the event's save (`lazy`). */
export type TakeHow = { readonly lazy: boolean };

/** A stream open here for a session this process does not hold (its frames come from elsewhere). */
export type StreamHeldHere = { readonly boundAt: number; readonly end: () => Promise<void> };

/** What the keeping may ask of the registry's table. */
export type KeepingHost<Model> = {
  /** The sessions held here. */
  readonly sessions: () => Iterable<LiveSession<Model>>;
  /** Set by drain: no new session, and no takeover, here. */
  readonly draining: () => boolean;
  /** Holds a session taken over from elsewhere from now on, under `id`, with its handle and the ids it rotated away from. */
  readonly adopt: (id: string, session: LiveSession<Model>, handle: string, rotatedFrom: readonly RotatedFrom[]) => void;
  /** The session now runs elsewhere: the copy here stops; its streams keep listening here. */
  readonly moved: (session: LiveSession<Model>) => void;
  /** Forgets a copy held here: out of the table, the tree budget and the bounds. */
  readonly forgetLocal: (session: LiveSession<Model>) => void;
  /** Ends a session (effects stop, its ids die). */
  readonly end: (session: LiveSession<Model>) => void;
};

/** What the registry asks of where sessions are kept. Every method answers for both kinds. */
export interface SessionKeeping<Model> {
  /** What it shares with other replicas, if anything (for tests to look into). */
  readonly shared: unknown;
  /** Connects it to the registry's table, once. */
  attach(host: KeepingHost<Model>): void;
  /** A new session, under its handle. */
  created(session: LiveSession<Model>, handle: string): void;
  /** A page load's save, after any write it waits for (rejects when that failed); false: the session moved. */
  saveNow(session: LiveSession<Model>, handle: string): Promise<boolean>;
  /** The writes a reply about this session must wait for, if any. */
  settled(session: LiveSession<Model>): Promise<void> | undefined;
  /** Whether the copy here is still the session's latest state (called under its lock); rejects when the store fails. */
  isCurrent(session: LiveSession<Model>): boolean | Promise<boolean>;
  /** A session no one holds here: taken over from where it is kept, or lost. */
  takeOver(id: string, how: TakeHow): Resolved<Model> | Promise<Resolved<Model>>;
  /** Settles when every takeover already on its way has finished. */
  takeoversSettled(): Promise<unknown>;
  /** An applied step made durable before its frame goes out; false: the session moved. */
  durable(session: LiveSession<Model>, handle: string, state: SessionState<Model>, frame: Frame | undefined): true | Promise<boolean>;
  /** The session moved elsewhere: what is kept here of it goes. */
  forget(session: LiveSession<Model>): void;
  /** The id a rotation made elsewhere leads to, for the holder of its ticket; undefined when none can be made elsewhere. */
  exchange(oldId: string, ticket: string): Promise<string | undefined> | undefined;
  /** A session's id rotated here. */
  rotated(session: LiveSession<Model>, handle: string, rotation: RotationRecord): void;
  /** A session's state changed (its snapshot is written where that is not done with each step). */
  persist(session: LiveSession<Model>): void;
  /** A session ended: its id dies wherever it is kept. */
  ended(session: LiveSession<Model>): void;
  /** A session that never connected was dropped to respect the bounds: its record goes, without a dead mark. */
  discarded(session: LiveSession<Model>): void;
  /** Drain: gives a held session up, so that another replica takes it at once. */
  release(session: LiveSession<Model>): Promise<void>;
  /** The end of a drain: what stays open here (streams, listeners) closes. */
  stop(): Promise<void>;
  /** Shutdown: what happens to the sessions held here, then as `stop`. */
  close(): void;
  /** The users of the streams open here for sessions held elsewhere. */
  streamedUsers(): Iterable<string>;
  /** The streams open here for sessions of `user` held elsewhere. */
  streamsOf(user: string): Iterable<StreamHeldHere>;
}

/**
 * Sessions kept in this process (docs/deployment.md): a takeover finds nothing, and each change is
 * written to the app's snapshot store, when it has one, after the fact.
 */
export class LocalKeeping<Model> implements SessionKeeping<Model> {
  readonly shared = undefined;
  private host: KeepingHost<Model> | undefined;

  constructor(private readonly store: SessionStore | undefined, private readonly now: () => number) {}

  attach(host: KeepingHost<Model>): void {
    this.host = host;
  }

  created(session: LiveSession<Model>): void {
    this.persist(session);
  }

  saveNow(): Promise<boolean> {
    return Promise.resolve(true);
  }

  settled(): undefined {
    return undefined;
  }

  isCurrent(): true {
    return true;
  }

  takeOver(): Resolved<Model> {
    return LOST;
  }

  takeoversSettled(): Promise<void> {
    return Promise.resolve();
  }

  durable(): true {
    return true;
  }

  forget(): void {}

  exchange(): undefined {
    return undefined;
  }

  rotated(_session: LiveSession<Model>, _handle: string, rotation: RotationRecord): void {
    void this.store?.kill(rotation.from);
  }

  persist(session: LiveSession<Model>): void {
    const store = this.store;
    if (!session.isLive || store === undefined) return;
    store.save(snapshotOf(session.id, session.state, this.now())).catch((error: unknown) =>
      log.error(`live.store save failed: ${error instanceof Error ? error.message : String(error)}`)
    );
  }

  ended(session: LiveSession<Model>): void {
    void this.store?.kill(session.id);
  }

  discarded(session: LiveSession<Model>): void {
    void this.store?.delete(session.id);
  }

  release(): Promise<void> {
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  /** One process: its sessions end with it. */
  close(): void {
    const host = this.host!;
    for (const session of [...host.sessions()]) host.end(session);
  }

  streamedUsers(): Iterable<string> {
    return [];
  }

  streamsOf(): Iterable<StreamHeldHere> {
    return [];
  }
}
