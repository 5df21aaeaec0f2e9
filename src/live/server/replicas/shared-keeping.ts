/**
 * Sessions kept in Postgres and shared between replicas (docs/deployment.md#several-replicas): the
 * registry's keeping (src/live/server/registry/session-keeping.ts) when the app shares its sessions.
 *
 * Why it exists: with several replicas, any of them may take a session over from the shared
 * store, and what the others say about it arrives by store key, not by cookie id (the bus's
 * "taken" and "ended" notices, a lease renewal that no longer lists a key). So the keeping holds
 * the shared store and how to build a session taken over from it, the takeovers in progress, which
 * of the registry's sessions it holds under which key, and what to do with a local copy another
 * replica took or ended. The registry keeps the table of sessions and their lifecycle and does not
 * know which keeping it has.
 */
import type { Frame } from "../streams/sse-wire.ts";
import type { LiveSession } from "../session/session.ts";
import type { SessionState } from "../session/state.ts";
import { ELSEWHERE, type Resolved } from "../registry/lookup.ts";
import type { KeepingHost, RotationRecord, SessionKeeping, StreamHeldHere, TakeHow } from "../registry/session-keeping.ts";
import type { SharedSessions } from "./shared-sessions.ts";
import { type BuildSession, Takeovers } from "./takeover.ts";

export class SharedKeeping<Model> implements SessionKeeping<Model> {
  private host: KeepingHost<Model> | undefined;
  /** Takeovers in progress, by cookie id, so concurrent requests for one session share one. */
  private readonly takeovers: Takeovers<Model>;

  constructor(readonly shared: SharedSessions<Model>, build: BuildSession<Model>) {
    this.takeovers = new Takeovers({
      shared: () => shared,
      build: () => build,
      draining: () => this.parts.draining(),
      adopt: (id, session, handle, rotatedFrom) => this.parts.adopt(id, session, handle, rotatedFrom),
    });
    shared.heldKeys = () => this.heldKeys();
  }

  attach(host: KeepingHost<Model>): void {
    this.host = host;
  }

  private get parts(): KeepingHost<Model> {
    return this.host!;
  }

  created(session: LiveSession<Model>, handle: string): void {
    void this.shared.create(session, handle).catch(() => undefined);
  }

  saveNow(session: LiveSession<Model>, handle: string): Promise<boolean> {
    return this.shared.save(session, { handle, state: session.state, frame: undefined }, { strict: true });
  }

  settled(session: LiveSession<Model>): Promise<void> | undefined {
    return this.shared.settled(session);
  }

  /**
   * Asks the store, under the session's lock: no save of this replica (which moves the epoch on)
   * is on its way (docs/deployment.md#late-notices).
   */
  isCurrent(session: LiveSession<Model>): Promise<boolean> {
    return session.mutex.run(() => !session.isLive || this.shared.isCurrent(session));
  }

  /** A session no replica holds here: taken over from its saved state, unless this replica drains. */
  takeOver(id: string, how: TakeHow): Resolved<Model> | Promise<Resolved<Model>> {
    if (this.parts.draining()) return ELSEWHERE;
    return this.takeovers.take(id, how);
  }

  takeoversSettled(): Promise<unknown> {
    return this.takeovers.settled();
  }

  /** Saved, fenced on this replica's epoch, before the frame goes out; false: the session moved. */
  durable(session: LiveSession<Model>, handle: string, state: SessionState<Model>, frame: Frame | undefined): Promise<boolean> {
    return this.shared.save(session, { handle, state, frame });
  }

  forget(session: LiveSession<Model>): void {
    this.shared.forget(session);
  }

  /** A rotation another replica made is read from the store (docs/deployment.md#rotation-on-any-replica). */
  exchange(oldId: string, ticket: string): Promise<string | undefined> {
    return this.shared.rotation(oldId, ticket).then((found) => found?.to);
  }

  rotated(session: LiveSession<Model>, handle: string, rotation: RotationRecord): void {
    void this.shared.move(session, handle, rotation).catch(() => undefined);
  }

  /** Nothing to do: each change is saved before its frame goes out (`durable`). */
  persist(): void {}

  ended(session: LiveSession<Model>): void {
    void this.shared.kill(session).catch(() => undefined);
  }

  discarded(session: LiveSession<Model>): void {
    void this.shared.kill(session).catch(() => undefined);
  }

  release(session: LiveSession<Model>): Promise<void> {
    return this.shared.release(session);
  }

  async stop(): Promise<void> {
    this.shared.streams.closeAll();
    await this.shared.stop();
  }

  /** The sessions outlive this process: each stops here and is not ended. */
  close(): void {
    for (const session of [...this.parts.sessions()]) this.parts.moved(session);
    this.shared.streams.closeAll();
    void this.shared.stop();
  }

  streamedUsers(): Iterable<string> {
    return this.shared.streams.remoteUsers();
  }

  streamsOf(user: string): Iterable<StreamHeldHere> {
    return this.shared.streams.remoteOf(user).map(({ key, boundAt }) => ({ boundAt, end: () => this.shared.killRemote(key) }));
  }

  /** The session held here under its store key, for what the bus and lease renewal say about keys. */
  byKey(key: string): LiveSession<Model> | undefined {
    return this.shared.sessionOf(key);
  }

  holdsKey(key: string): boolean {
    return this.byKey(key) !== undefined;
  }

  /** Another replica took the session stored under `key`: the copy here is dropped. */
  movedKey(key: string): void {
    const session = this.byKey(key);
    if (session !== undefined) this.parts.moved(session);
  }

  /** A session ended at another replica: the copy here stops (its streams get the lost signal there). */
  endedElsewhere(key: string): void {
    const session = this.byKey(key);
    if (session === undefined) return;
    session.stop("lost");
    this.parts.forgetLocal(session);
    this.shared.forget(session);
  }

  private *heldKeys(): Iterable<[string, number]> {
    for (const session of this.parts.sessions()) {
      const hold = this.shared.holdOf(session);
      if (hold !== undefined) yield [hold.key, hold.since];
    }
  }
}
