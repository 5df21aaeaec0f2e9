/**
 * The revocation and suspension gate (docs/auth.md#revocation-and-suspension).
 *
 * State lives in one shared table every replica reads, svc_user_access (src/db/schema.ts):
 * user_id (the canonical id, user-id.ts), revoked_at and disabled_at, both milliseconds since the
 * epoch or NULL. For a built-in user (an id that is the decimal text of a users row) disable and
 * enable write users.disabled_at in the same transaction, so the two tables never disagree.
 *
 * Precision. revoked_at is stamped in milliseconds, and issuedAt is a JWT NumericDate: seconds,
 * where RFC 7519 §2 allows a fraction. A token is Revoked when it was issued strictly before the
 * last revoke, compared in milliseconds:  round(issuedAt * 1000) < revoked_at.
 *   - A token stamped with a whole-second iat reads as issued at the start of its second, so one
 *     from the revoke's own second, issued before it, stays revoked (fail closed).
 *   - A session started after the revoke in the same second is Active when its issue time carries
 *     the milliseconds (iat = Date.now() / 1000). Whole seconds cannot tell the two apart, so a
 *     whole-second token minted in that same second after the revoke is also refused: the user
 *     signs in once more; the revoke itself is never weakened.
 */
import type { Db } from "../db/db.ts";
import { ensureSchema, millis, schemaFor } from "../db/schema.ts";
import { err, ok, type Result, type Task } from "../result.ts";
import { AccessCache, type AccessRow, dropEverywhere } from "./access-cache.ts";
import { accessChanged, accessNoticeStatements } from "./access-events.ts";
import { builtinIdOf, canonicalUserId, type UserIdInput } from "./user-id.ts";
import { checkDb } from "./users.ts";

/** docs/auth.md#results-and-errors: Disabled takes precedence over Revoked over Active. */
export type AccessState = "Active" | "Revoked" | "Disabled";

const caches = new WeakMap<Db, AccessCache>();

function cacheOf(db: Db): AccessCache | undefined {
  if (db.revocationCacheTtlMs <= 0) return undefined;
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = new AccessCache(db.revocationCacheTtlMs, db.clock);
    caches.set(db, cache);
  }
  return cache;
}

async function prepare(db: unknown, userId: unknown): Promise<Result<{ db: Db; id: string }>> {
  const handle = checkDb(db);
  if (!handle.ok) return handle;
  const id = canonicalUserId(userId);
  if (!id.ok) return id;
  const schema = await ensureSchema(handle.value);
  return schema.ok ? ok({ db: handle.value, id: id.value }) : schema;
}

/**
 * The write, and in the same transaction the notice to every other replica (Postgres), so that
 * they end the user's live sessions at once and only if the write commits; then this process's
 * own listeners (access-events.ts).
 */
async function write(db: Db, id: string, statements: Parameters<Db["transaction"]>[0]): Task<void> {
  const done = await db.transaction([...statements, ...accessNoticeStatements(db, id)]);
  // Cleared after the write so no reader can cache the old row (access-cache.ts).
  dropEverywhere(id);
  if (done.ok) accessChanged(id);
  return done.ok ? ok() : done;
}

async function readAccess(db: Db, id: string): Task<AccessRow> {
  const cache = cacheOf(db);
  const cached = cache?.get(id);
  if (cached !== undefined) return ok(cached);
  const writes = cache?.writes ?? 0;
  const rows = await db.query(schemaFor(db).readAccess(id));
  if (!rows.ok) return rows;
  const row = rows.value[0];
  const access = { revokedAt: millis(row?.revoked_at), disabledAt: millis(row?.disabled_at) };
  cache?.set(id, access, writes);
  return ok(access);
}

/**
 * Revokes a user's tokens (docs/auth.md#revocation-and-suspension): stamps revoked_at = now, so
 * every token issued before now stops working, and live sessions bound to the user end (with
 * `app.withRevocation(db)`). A later login works: for "sign out everywhere" and a password change.
 *
 * @example
 * ```ts
 * import { Auth, Db } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * // After a password change: every other device signs in again.
 * const revoked = await Auth.revokeUser(db, 42);
 * if (!revoked.ok) console.error(revoked.error.message);
 * ```
 */
export async function revokeUser(db: Db, userId: UserIdInput): Task<void> {
  const input = await prepare(db, userId);
  if (!input.ok) return input;
  const { db: handle, id } = input.value;
  return write(handle, id, [schemaFor(handle).revoke(id, Math.floor(handle.clock()))]);
}

/**
 * Suspends a user: sets disabled_at (kept if already set). The user is Disabled: cannot log in,
 * every token stops working and bound live sessions end, until `Auth.enableUser`.
 *
 * @example
 * ```ts
 * import { Auth, Db } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * await Auth.disableUser(db, 42); // an admin's "suspend account" button
 * ```
 */
export async function disableUser(db: Db, userId: UserIdInput): Task<void> {
  const input = await prepare(db, userId);
  if (!input.ok) return input;
  const { db: handle, id } = input.value;
  return write(handle, id, schemaFor(handle).disable(id, Math.floor(handle.clock()), builtinIdOf(id)));
}

/**
 * Lifts a suspension: clears disabled_at, reversing `Auth.disableUser`. The user can log in
 * again; tokens issued before an earlier revoke stay dead.
 *
 * @example
 * ```ts
 * import { Auth, Db } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * await Auth.enableUser(db, 42);
 * console.log(await Auth.isDisabled(db, 42)); // { ok: true, value: false }
 * ```
 */
export async function enableUser(db: Db, userId: UserIdInput): Task<void> {
  const input = await prepare(db, userId);
  if (!input.ok) return input;
  const { db: handle, id } = input.value;
  return write(handle, id, schemaFor(handle).enable(id, builtinIdOf(id)));
}

function issuedMillis(issuedAt: unknown): Result<number> {
  return typeof issuedAt === "number" && Number.isFinite(issuedAt) && issuedAt >= 0
    ? ok(Math.round(issuedAt * 1000))
    : err("invalid_argument", "issuedAt must be a time in seconds since the epoch (a JWT iat)");
}

export function verdict(access: AccessRow, issuedMs: number): AccessState {
  if (access.disabledAt !== undefined) return "Disabled";
  if (access.revokedAt !== undefined && issuedMs < access.revokedAt) return "Revoked";
  return "Active";
}

/**
 * Whether a token issued at `issuedAt` (its `iat`: seconds, a fraction allowed) still speaks for
 * the user: "Disabled" over "Revoked" over "Active".
 *
 * @example
 * ```ts
 * import { Auth, Db } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * declare const claims: { sub: number; iat: number }; // a verified token's
 * const state = await Auth.userAccessState(db, claims.sub, claims.iat);
 * if (state.ok && state.value !== "Active") console.log(`token refused: ${state.value}`);
 * ```
 */
export async function userAccessState(db: Db, userId: UserIdInput, issuedAt: number): Task<AccessState> {
  const issued = issuedMillis(issuedAt);
  if (!issued.ok) return issued;
  const input = await prepare(db, userId);
  if (!input.ok) return input;
  const access = await readAccess(input.value.db, input.value.id);
  return access.ok ? ok(verdict(access.value, issued.value)) : access;
}

/**
 * The access state from the read-through cache alone (revocationCacheTtlMs > 0), without a query
 * or a pause: undefined when the cache holds no fresh row for this canonical id, and then
 * `userAccessState` decides. A live event checks every bound session (docs/auth.md#live-sessions-and-the-gate);
 * answering a cached row synchronously spares it the chain of awaits of the full read, a
 * measurable share of an event (bench/gate.bench.ts; the figure is in bench/RESULTS.md).
 */
export function cachedAccessState(db: Db, canonicalId: string, issuedAt: number): AccessState | undefined {
  const row = cacheOf(db)?.get(canonicalId);
  if (row === undefined) return undefined;
  const issued = issuedMillis(issuedAt);
  return issued.ok ? verdict(row, issued.value) : undefined;
}

/**
 * True when a token with this sub and iat must stop working: issued before the last revoke, or
 * the user is disabled. Usable as the sliding revokedCheck; sub may be a number or a string.
 *
 * @example
 * ```ts
 * import { Auth, Db, Server } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * const session = Server.slidingSession({
 *   cookie: "sid",
 *   secretEnv: "SVC_AUTH_TOKEN_SECRET",
 *   windowSeconds: 900,
 *   maxLifetimeSeconds: 43_200,
 *   revokedCheck: (sub, iat) => Auth.isRevoked(db, sub, iat), // a revoked user's token stops sliding
 * });
 * ```
 */
export async function isRevoked(db: Db, sub: UserIdInput, iat: number): Task<boolean> {
  const state = await userAccessState(db, sub, iat);
  return state.ok ? ok(state.value !== "Active") : state;
}

/**
 * True while the user is disabled (`Auth.disableUser`).
 *
 * @example
 * ```ts
 * import { Auth, Db } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * const disabled = await Auth.isDisabled(db, 42);
 * const badge = disabled.ok && disabled.value ? "suspended" : "active";
 * ```
 */
export async function isDisabled(db: Db, userId: UserIdInput): Task<boolean> {
  const input = await prepare(db, userId);
  if (!input.ok) return input;
  const access = await readAccess(input.value.db, input.value.id);
  return access.ok ? ok(access.value.disabledAt !== undefined) : access;
}
