/**
 * The tables of the built-in users layer and the revocation gate, and the statements that use
 * them, one implementation per dialect (docs/auth.md#users-table, docs/auth.md#revocation-and-suspension
 * suspension). Times are integers: milliseconds since the epoch, on both dialects, so the two
 * tables compare exactly and a revocation has sub-second precision (see revocation.ts).
 *
 *   users            id, email (trimmed, lower-cased, UNIQUE), password_hash, role DEFAULT 'user',
 *                    created_at (ms), disabled_at (ms or NULL)
 *   svc_user_access  user_id TEXT PRIMARY KEY (canonical id), revoked_at (ms or NULL),
 *                    disabled_at (ms or NULL)
 *
 * ensureSchema creates both, idempotently, once per handle; concurrent callers in other
 * processes are safe (SQLite: BEGIN IMMEDIATE and a busy timeout; Postgres: an advisory lock).
 */
import { err, ok, type Result, type Task } from "../result.ts";
import type { Db } from "./db.ts";
import { postgresSchema } from "./schema-postgres.ts";
import type { Schema } from "./schema-shape.ts";
import { sqliteSchema } from "./schema-sqlite.ts";

export type { Schema };

/** The built-in users table's name (docs/auth.md#users-table). */
export const USERS_TABLE = "users";
/** The revocation and suspension table's name, read by every replica (docs/auth.md#users-table). */
export const ACCESS_TABLE = "svc_user_access";
/** The role a new user gets. */
export const DEFAULT_ROLE = "user";

export function schemaFor(db: Db): Schema {
  return db.dialect === "sqlite" ? sqliteSchema : postgresSchema;
}

const ready = new WeakMap<Db, Promise<Result<void>>>();

/** Creates the tables on first use of a handle; a failure is forgotten so the next call retries. */
export function ensureSchema(db: Db): Task<void> {
  let pending = ready.get(db);
  if (pending === undefined) {
    pending = db.transaction(schemaFor(db).create).then((result) => {
      if (!result.ok) ready.delete(db);
      return result.ok ? ok() : err(result.error);
    });
    ready.set(db, pending);
  }
  return pending;
}

/** A column holding milliseconds: a number from SQLite, a decimal string from Postgres BIGINT. */
export function millis(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : undefined;
}
