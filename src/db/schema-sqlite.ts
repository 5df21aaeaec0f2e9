/** The SQLite (libsql) side of schema.ts: `?` placeholders, INTEGER milliseconds. */
import type { Schema } from "./schema-shape.ts";

const sql = (text: string, ...args: (string | number | null)[]) => ({ sql: text, args });

export const sqliteSchema: Schema = {
  create: [
    sql(`CREATE TABLE IF NOT EXISTS users (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      email TEXT NOT NULL UNIQUE,
      password_hash TEXT NOT NULL,
      role TEXT NOT NULL DEFAULT 'user',
      created_at INTEGER NOT NULL DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
      disabled_at INTEGER
    )`),
    sql(`CREATE TABLE IF NOT EXISTS svc_user_access (
      user_id TEXT PRIMARY KEY NOT NULL,
      revoked_at INTEGER,
      disabled_at INTEGER
    )`),
  ],
  // The new row copies any suspension already stamped on its id, so the two tables agree even
  // when disableUser named the id before the user existed.
  insertUser: (email, passwordHash, createdAt) => [
    sql("INSERT INTO users (email, password_hash, created_at) VALUES (?, ?, ?) RETURNING id", email, passwordHash, createdAt),
    sql(`UPDATE users SET disabled_at =
           (SELECT a.disabled_at FROM svc_user_access AS a WHERE a.user_id = CAST(users.id AS TEXT))
         WHERE id = last_insert_rowid()`),
  ],
  findLogin: (email) => sql("SELECT id, password_hash, disabled_at FROM users WHERE email = ?", email),
  setRole: (id, role) => sql("UPDATE users SET role = ? WHERE id = ? RETURNING id", role, id),
  readAccess: (userId) => sql("SELECT revoked_at, disabled_at FROM svc_user_access WHERE user_id = ?", userId),
  // The latest stamp wins, so a replica with a slower clock never moves revoked_at back.
  revoke: (userId, at) =>
    sql(
      `INSERT INTO svc_user_access (user_id, revoked_at) VALUES (?, ?)
       ON CONFLICT (user_id) DO UPDATE SET revoked_at = MAX(COALESCE(svc_user_access.revoked_at, 0), excluded.revoked_at)`,
      userId,
      at,
    ),
  // Disabling twice keeps the first disabled_at; the users row copies the stored value.
  disable: (userId, at, builtinId) => [
    sql(
      `INSERT INTO svc_user_access (user_id, disabled_at) VALUES (?, ?)
       ON CONFLICT (user_id) DO UPDATE SET disabled_at = COALESCE(svc_user_access.disabled_at, excluded.disabled_at)`,
      userId,
      at,
    ),
    ...(builtinId === undefined ? [] : [
      sql("UPDATE users SET disabled_at = (SELECT disabled_at FROM svc_user_access WHERE user_id = ?) WHERE id = ?", userId, builtinId),
    ]),
  ],
  enable: (userId, builtinId) => [
    sql("UPDATE svc_user_access SET disabled_at = NULL WHERE user_id = ?", userId),
    ...(builtinId === undefined ? [] : [sql("UPDATE users SET disabled_at = NULL WHERE id = ?", builtinId)]),
  ],
};
