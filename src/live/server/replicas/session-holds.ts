/**
 * Which sessions this replica holds in the shared store, and at which epoch
 * (docs/deployment.md#several-replicas): each held session's key, the epoch of its lease, since
 * when, and whether it is only loaded, its next save claiming it (`claim`). Found both ways: by the
 * session (a save, a move, a kill) and by its key (what the bus and lease renewal name).
 */
import type { Claim } from "../../store/store.ts";

/**
 * This replica's hold on a session: the key it is stored under and the epoch of the lease. `claim`:
 * the session was only loaded, and its next save makes it ours.
 */
export type Hold = { key: string; epoch: number; since: number; claim?: Claim };

export class SessionHolds<Session extends object> {
  private readonly holds = new WeakMap<Session, Hold>();
  private readonly byKey = new Map<string, Session>();

  /** The session's hold, if this replica holds it. */
  get(session: Session): Hold | undefined {
    return this.holds.get(session);
  }

  /** Holds `session` as `hold` says, in place of what it held it as before. */
  set(session: Session, hold: Hold): void {
    const previous = this.holds.get(session);
    if (previous !== undefined && this.byKey.get(previous.key) === session) this.byKey.delete(previous.key);
    this.holds.set(session, hold);
    this.byKey.set(hold.key, session);
  }

  /** No longer holds `session`. */
  drop(session: Session): void {
    const hold = this.holds.get(session);
    if (hold !== undefined && this.byKey.get(hold.key) === session) this.byKey.delete(hold.key);
    this.holds.delete(session);
  }

  /** The session held under `key`, if any. */
  sessionOf(key: string): Session | undefined {
    return this.byKey.get(key);
  }

  /** The hold of the session held under `key`, if any. */
  holdOf(key: string): Hold | undefined {
    const session = this.byKey.get(key);
    return session === undefined ? undefined : this.holds.get(session);
  }

  /**
   * Whether the copy here was read or claimed at `epoch` or later: a "taken" notice of that epoch
   * (another replica's takeover heard late, after this replica read the state it left) says
   * nothing new, and dropping the copy would turn the save this replica is making into a move.
   */
  heldSince(key: string, epoch: number): boolean {
    const hold = this.holdOf(key);
    return hold !== undefined && Number.isSafeInteger(epoch) && hold.epoch >= epoch;
  }
}
