/**
 * The store writes of each session held here, in order (docs/deployment.md#several-replicas): a
 * create, a rotation's move or a kill runs in the background, and the session's next save, and
 * the reply that names a new id, come after it. A move the store refused is kept to be tried
 * again before anything else of the session is stored: a save under the old key would leave the
 * old id (which someone else may hold) naming the bound session in the store
 * (docs/deployment.md#rotation-on-any-replica).
 */
import { log } from "../../../log.ts";

export class SessionWrites<Session extends object> {
  /** The last write of each session, its failure swallowed: what a save waits for. */
  private readonly writes = new WeakMap<Session, Promise<void>>();
  /** The same, failing when it failed: what a save that must not go on after a failure waits for (a page load's). */
  private readonly failures = new WeakMap<Session, Promise<void>>();
  /** How many writes of each session are on their way. */
  private readonly inFlight = new Map<Session, number>();
  /** A refused move of each session, to try again. */
  private readonly unmoved = new WeakMap<Session, () => Promise<void>>();

  /** Runs `write` after the session's earlier writes; its failure is logged, and seen by a strict `before`. */
  then(session: Session, write: () => Promise<void>): Promise<void> {
    return this.track(session, (this.writes.get(session) ?? Promise.resolve()).then(write));
  }

  /** As `then`, for a rotation's move: when the store refuses it, it is tried again by `before` and `settled`. */
  move(session: Session, attempt: () => Promise<void>): Promise<void> {
    const moved = (this.writes.get(session) ?? Promise.resolve()).then(attempt);
    moved.catch(() => this.unmoved.set(session, attempt));
    return this.track(session, moved);
  }

  /**
   * Settles when a save of the session may go: its earlier writes are done (`strict`: rejects if
   * one failed) and a refused move went through on a new try (rejects if refused again).
   */
  async before(session: Session, { strict }: { readonly strict: boolean } = { strict: false }): Promise<void> {
    await this.writes.get(session);
    // A refused move is tried again first: once it goes through, the failure it left is over.
    if (this.unmoved.has(session)) await this.moveAgain(session);
    else if (strict) await this.failures.get(session);
  }

  /** The writes a reply must wait for; rejects when a refused move is refused again. Undefined: none. */
  settled(session: Session): Promise<void> | undefined {
    const writes = this.writes.get(session);
    return writes === undefined ? undefined : writes.then(() => this.moveAgain(session));
  }

  /** Settles when the session's earlier writes are done, whether or not they failed. */
  done(session: Session): Promise<void> {
    return this.writes.get(session) ?? Promise.resolve();
  }

  /** Whether a write of the session is on its way. */
  busy(session: Session): boolean {
    return this.inFlight.has(session);
  }

  private async moveAgain(session: Session): Promise<void> {
    const attempt = this.unmoved.get(session);
    if (attempt === undefined) return;
    await attempt();
    if (this.unmoved.get(session) === attempt) {
      this.unmoved.delete(session);
      this.failures.set(session, Promise.resolve());
    }
  }

  private track(session: Session, write: Promise<void>): Promise<void> {
    const settled = write.catch((error: unknown) => {
      log.error(`live.store write failed: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    });
    this.writes.set(session, settled.catch(() => undefined));
    this.failures.set(session, settled);
    this.inFlight.set(session, (this.inFlight.get(session) ?? 0) + 1);
    const done = () => {
      const left = (this.inFlight.get(session) ?? 1) - 1;
      if (left > 0) this.inFlight.set(session, left);
      else this.inFlight.delete(session);
    };
    settled.then(done, done);
    settled.catch(() => undefined); // observed through `failures` by a strict save, or not at all
    return settled;
  }
}
