/** The Postgres side of schema.ts: `$n` placeholders with explicit casts, BIGINT milliseconds. */
import type { Schema } from "./schema-shape.ts";

const sql = (text: string, ...args: (string | number | null)[]) => ({ sql: text, args });

export const postgresSchema: Schema = {
  create: [
    // A NOTICE per existing table is noise on every start, also on a client the application made.
    sql("SET LOCAL client_min_messages = warning"),
    // Two replicas racing CREATE TABLE IF NOT EXISTS can still collide in the catalog
    // (duplicate pg_type row); one lock per schema serialises them until this transaction ends.
    sql("SELECT pg_advisory_xact_lock(hashtext(coalesce(current_schema(), '') || '.svc_auth_schema'))::text AS locked"),
    sql(`CREATE TABLE IF NOT EXISTS users (
      id SERIAL PRIMARY KEY,
      email TEXT NOT NULL UNIQUE,
      password_hash TEXT NOT NULL,
      role TEXT NOT NULL DEFAULT 'user',
      created_at BIGINT NOT NULL DEFAULT (floor(extract(epoch FROM clock_timestamp()) * 1000))::bigint,
      disabled_at BIGINT
    )`),
    sql(`CREATE TABLE IF NOT EXISTS svc_user_access (
      user_id TEXT PRIMARY KEY,
      revoked_at BIGINT,
      disabled_at BIGINT
    )`),
  ],
  // One statement: draw the id first so the new row can copy any suspension already stamped on it.
  insertUser: (email, passwordHash, createdAt) => [
    sql(
      `INSERT INTO users (id, email, password_hash, created_at, disabled_at)
       SELECT n.id, $1::text, $2::text, $3::bigint, a.disabled_at
       FROM (SELECT nextval(pg_get_serial_sequence('users', 'id'))::int AS id) AS n
       LEFT JOIN svc_user_access AS a ON a.user_id = n.id::text
       RETURNING id`,
      email,
      passwordHash,
      createdAt,
    ),
  ],
  findLogin: (email) => sql("SELECT id, password_hash, disabled_at FROM users WHERE email = $1::text", email),
  setRole: (id, role) => sql("UPDATE users SET role = $1::text WHERE id = $2::bigint RETURNING id", role, id),
  readAccess: (userId) => sql("SELECT revoked_at, disabled_at FROM svc_user_access WHERE user_id = $1::text", userId),
  revoke: (userId, at) =>
    sql(
      `INSERT INTO svc_user_access (user_id, revoked_at) VALUES ($1::text, $2::bigint)
       ON CONFLICT (user_id) DO UPDATE SET revoked_at = GREATEST(svc_user_access.revoked_at, EXCLUDED.revoked_at)`,
      userId,
      at,
    ),
  disable: (userId, at, builtinId) => [
    sql(
      `INSERT INTO svc_user_access (user_id, disabled_at) VALUES ($1::text, $2::bigint)
       ON CONFLICT (user_id) DO UPDATE SET disabled_at = COALESCE(svc_user_access.disabled_at, EXCLUDED.disabled_at)`,
      userId,
      at,
    ),
    ...(builtinId === undefined ? [] : [
      sql(
        "UPDATE users SET disabled_at = (SELECT disabled_at FROM svc_user_access WHERE user_id = $1::text) WHERE id = $2::bigint",
        userId,
        builtinId,
      ),
    ]),
  ],
  enable: (userId, builtinId) => [
    sql("UPDATE svc_user_access SET disabled_at = NULL WHERE user_id = $1::text", userId),
    ...(builtinId === undefined ? [] : [sql("UPDATE users SET disabled_at = NULL WHERE id = $1::bigint", builtinId)]),
  ],
};
