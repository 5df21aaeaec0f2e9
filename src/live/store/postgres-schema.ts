/**
 * The live store's tables on Postgres (src/live/store/postgres.ts has what each holds): created once
 * per handle, idempotently, under an advisory lock, as replicas start together.
 */
import type { Statement } from "../../db/driver.ts";

const stmt = (sql: string): Statement => ({ sql, args: [] });

/** The statements that create the tables and indexes, in one transaction. */
export const SCHEMA: readonly Statement[] = [
  stmt("SET LOCAL client_min_messages = warning"),
  stmt("SELECT pg_advisory_xact_lock(hashtext(coalesce(current_schema(), '') || '.svc_live_schema'))::text AS locked"),
  stmt(`CREATE TABLE IF NOT EXISTS svc_live_sessions (
    app TEXT NOT NULL,
    key TEXT NOT NULL,
    handle TEXT NOT NULL,
    model TEXT NOT NULL,
    out_seq BIGINT NOT NULL,
    input_seqs TEXT NOT NULL,
    page_seqs TEXT NOT NULL,
    user_id TEXT,
    bound_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    owner TEXT,
    epoch BIGINT NOT NULL,
    lease_until BIGINT NOT NULL,
    PRIMARY KEY (app, key)
  )`),
  // Set once a replica other than the owner holds a stream of the session: only then do saves publish frames.
  stmt("ALTER TABLE svc_live_sessions ADD COLUMN IF NOT EXISTS remote_streams BOOLEAN NOT NULL DEFAULT false"),
  stmt("CREATE INDEX IF NOT EXISTS svc_live_sessions_owner ON svc_live_sessions (owner)"),
  stmt("CREATE TABLE IF NOT EXISTS svc_live_dead (app TEXT NOT NULL, key TEXT NOT NULL, until BIGINT NOT NULL, PRIMARY KEY (app, key))"),
  stmt("CREATE TABLE IF NOT EXISTS svc_live_frames (id BIGSERIAL PRIMARY KEY, payload TEXT NOT NULL, at BIGINT NOT NULL)"),
  stmt(`CREATE TABLE IF NOT EXISTS svc_live_rotations (
    app TEXT NOT NULL,
    from_key TEXT NOT NULL,
    to_key TEXT NOT NULL,
    from_handle TEXT NOT NULL,
    from_sealed TEXT NOT NULL,
    to_sealed TEXT NOT NULL,
    ticket_hash TEXT NOT NULL,
    until BIGINT NOT NULL,
    PRIMARY KEY (app, from_key)
  )`),
  stmt("CREATE INDEX IF NOT EXISTS svc_live_rotations_to ON svc_live_rotations (app, to_key)"),
];
