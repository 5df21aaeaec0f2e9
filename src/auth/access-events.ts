/**
 * Changes of a user's access (a revoke, a disable, an enable), told to whatever in this process
 * must act on them at once: a live app ends that user's sessions and closes their streams
 * (docs/auth.md#live-sessions-and-the-gate). Writes made in this process are told here after they
 * commit; on Postgres the same write also notifies every other replica in its own transaction
 * (src/db/notify.ts), and each replica's listener tells its own process here.
 */
import type { Db } from "../db/db.ts";
import type { Statement } from "../db/driver.ts";
import { CHANNEL_SQL, PROCESS_ID } from "../db/notify.ts";

export type AccessListener = (userId: string) => void;

const listeners = new Set<AccessListener>();

/** Calls `listener` with the canonical user id after each access change; returns the unsubscribe. */
export function onAccessChange(listener: AccessListener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Tells every listener in this process that `userId`'s access changed. */
export function accessChanged(userId: string): void {
  for (const listener of listeners) {
    try {
      listener(userId);
    } catch {
      // A listener's failure is its own; the others still hear of the change.
    }
  }
}

/** The notice other replicas receive: {"t":"access","user":…,"from":…}. */
export function accessNotice(userId: string): string {
  return JSON.stringify({ t: "access", user: userId, from: PROCESS_ID });
}

/** The statement that tells every replica, in the write's own transaction (Postgres only). */
export function accessNoticeStatements(db: Db, userId: string): readonly Statement[] {
  return db.dialect === "postgres" ? [{ sql: `SELECT pg_notify(${CHANNEL_SQL}, $1)::text AS sent`, args: [accessNotice(userId)] }] : [];
}
