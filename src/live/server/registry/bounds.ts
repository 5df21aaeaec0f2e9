/**
 * The bounds on how many sessions a live app keeps (docs/security.md#session-bounds).
 *
 * Every page load without a session cookie creates a session, so a flood of page loads would
 * otherwise create sessions as fast as it sends requests, each kept until the idle timeout. A
 * session is "pending" from its creation until it connects (its first event, or an SSE stream):
 * a browser's client connects right after the page loads, a flood never does. Pending sessions
 *   - end once they are `pendingMs` old (about a minute by default);
 *   - are at most `maxPending`: a new one beyond that ends the oldest pending one;
 *   - are the first to go when the app holds `maxSessions` sessions in all: the oldest pending
 *     one ends to make room. Connected sessions are never ended to make room; when every session
 *     is connected and the cap is reached, a new page load is refused (503) instead.
 * The pending set keeps creation order, so the oldest is the first entry and expiry stops at the
 * first one young enough.
 */

/** The bounds of src/live/server/registry/bounds.ts, checked by sessionBoundsOptions. */
export type SessionBoundsOptions = {
  /** Most sessions in all (default 10,000). */
  readonly maxSessions: number;
  /** Most sessions that have never connected (default 1,000). */
  readonly maxPending: number;
  /** How long a session may stay without connecting (default 60 s). */
  readonly pendingMs: number;
};

/** A live app's session counts, for monitoring (`liveApp.sessionCounts()`); see docs/security.md#session-bounds. */
export type SessionCounts = {
  /** Sessions alive now, pending ones included. */
  readonly live: number;
  /** Sessions alive now that have never connected. */
  readonly pending: number;
  /** Pending sessions ended to make room for newer ones, since the app started. */
  readonly evicted: number;
  /** Pending sessions ended for never connecting within pendingMs, since the app started. */
  readonly expired: number;
};

export const DEFAULT_SESSION_BOUNDS: SessionBoundsOptions = { maxSessions: 10_000, maxPending: 1_000, pendingMs: 60_000 };

/** Checks the bound options once; a bad value is a programming error and throws. */
export function sessionBoundsOptions(options: Partial<SessionBoundsOptions>): SessionBoundsOptions {
  const checked = { ...DEFAULT_SESSION_BOUNDS };
  for (const key of ["maxSessions", "maxPending", "pendingMs"] as const) {
    const value = options[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(`Live.app: ${key} must be a whole number of at least 1, not ${String(value)}`);
    }
    checked[key] = value;
  }
  return checked;
}

export class SessionBounds<Session extends { readonly createdAt: number }> {
  private readonly pending = new Set<Session>();
  private evicted = 0;
  private expired = 0;

  constructor(
    private readonly options: SessionBoundsOptions,
    /** Ends a session (the registry's end: it calls `removed` back). */
    private readonly end: (session: Session) => void,
  ) {}

  /**
   * Makes room for one more session among `live`: ends the oldest pending sessions as the caps
   * require. False when the app is full of connected sessions (the new page is refused).
   */
  makeRoom(live: () => number): boolean {
    while (this.pending.size >= this.options.maxPending || live() >= this.options.maxSessions) {
      const oldest = this.oldest();
      if (oldest === undefined) return false;
      this.evicted += 1;
      this.end(oldest);
    }
    return true;
  }

  /** A new session: pending until it connects. */
  added(session: Session): void {
    this.pending.add(session);
  }

  /** The session sent an event or opened a stream: it is no longer pending, never evicted. */
  connected(session: Session): void {
    this.pending.delete(session);
  }

  /** The session ended, for whatever reason. */
  removed(session: Session): void {
    this.pending.delete(session);
  }

  /** Ends the pending sessions older than pendingMs. */
  sweep(now: number): void {
    for (const session of this.pending) {
      if (now - session.createdAt < this.options.pendingMs) break;
      this.expired += 1;
      this.end(session);
    }
  }

  counts(live: number): SessionCounts {
    return { live, pending: this.pending.size, evicted: this.evicted, expired: this.expired };
  }

  /** How often the sweep must run for pending sessions to end near pendingMs. */
  get sweepEveryMs(): number {
    return Math.max(1_000, Math.floor(this.options.pendingMs / 2));
  }

  private oldest(): Session | undefined {
    for (const session of this.pending) return session;
    return undefined;
  }
}
