/**
 * The revocation gate of live sessions (docs/auth.md#live-sessions-and-the-gate: Live session and the revocation gate).
 *
 * Inert until Live.app(...).withRevocation(db). Then, on every interaction of a session (an event,
 * a page load, an SSE connect, a resync), a bound session's user is looked up with
 * Auth.userAccessState for the time the session was bound (the token's iat for a sliding app), so
 * a revoke stamped after that time, or a disable, evicts the session. The database failing fails
 * closed: the request is not served (503) and the error is logged; the session is kept for when
 * the database is back. An unbound session is let through, never silently: a loud warning, at
 * most once a minute with the count of sessions since (and `svc-live doctor` lints apps that
 * enable the gate without binding anyone), except in a
 * sliding app, where binding is automatic and an unbound session is simply a signed-out visitor.
 */
import type { Db } from "../../../db/db.ts";
import { type AccessState, cachedAccessState, userAccessState } from "../../../auth/revocation.ts";
import { log } from "../../../log.ts";
import type { LiveSession } from "../session/session.ts";

export type GateVerdict = "allow" | "evict" | "unavailable";

/** How often the unbound-session warning is logged at most. */
const UNBOUND_WARNING_EVERY_MS = 60_000;

export class RevocationGate {
  private readonly warned = new WeakSet<object>();
  /** When the last unbound warning was logged, and how many sessions were not told of since. */
  private lastWarnedAt = -Infinity;
  private untold = 0;

  constructor(readonly db: Db) {}

  /**
   * The verdict for a session's interaction. It is answered at once when known without waiting (an
   * unbound session, or a bound one whose user's access row is in the read-through cache): events
   * are the hot path, and a chain of awaits costs a measurable share of one (bench/gate.bench.ts;
   * the figure is in bench/RESULTS.md). Otherwise it is the database's answer, a promise.
   */
  check<Model>(session: LiveSession<Model>, options: { warnUnbound: boolean } = { warnUnbound: true }): GateVerdict | Promise<GateVerdict> {
    if (session.user === undefined) {
      if (options.warnUnbound && !this.warned.has(session)) {
        this.warned.add(session);
        this.warnUnbound();
      }
      return "allow";
    }
    const cached = cachedAccessState(this.db, session.user, session.boundAt / 1000);
    return cached === undefined ? this.verdictFor(session.user, session.boundAt) : verdictOf(cached);
  }

  /**
   * The loud warning (docs/auth.md#live-sessions-and-the-gate), at most once a minute with the
   * count of the sessions since: one line per session made a busy server spend its time writing
   * the log (a session taken over at another replica is a new session object there, so round-robin
   * routing logged it at almost every event).
   */
  private warnUnbound(): void {
    const now = Date.now();
    if (now - this.lastWarnedAt < UNBOUND_WARNING_EVERY_MS) {
      this.untold++;
      return;
    }
    const more = this.untold === 0 ? "" : ` (${this.untold} more unbound sessions since the last warning)`;
    this.lastWarnedAt = now;
    this.untold = 0;
    log.warn(
      `live.gate UNBOUND SESSION reached the revocation gate: nothing binds it to a user, so revoke and disable cannot end it. Call Live.bindSessionUser(userId) at sign-in, or use withAuthSliding.${more}`,
    );
  }

  /** The verdict for a user whose session (or token) was issued at `issuedAtMs`. */
  async verdictFor(userId: string, issuedAtMs: number): Promise<GateVerdict> {
    const state = await userAccessState(this.db, userId, issuedAtMs / 1000);
    if (!state.ok) {
      log.error(`live.gate could not read the access state (${state.error.code}); refusing the request (fail closed)`);
      return "unavailable";
    }
    return verdictOf(state.value);
  }
}

function verdictOf(state: AccessState): GateVerdict {
  return state === "Active" ? "allow" : "evict";
}
