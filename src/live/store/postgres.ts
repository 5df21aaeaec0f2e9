/**
 * The live store on Postgres (docs/deployment.md#several-replicas). Three tables, created once
 * per handle, idempotently, under an advisory lock (replicas start together):
 *
 *   svc_live_sessions  (app, key) PRIMARY KEY: handle, model (codec text), out_seq, input_seqs and
 *                      page_seqs (JSON pairs), user_id, bound_at, updated_at, ownership: owner
 *                      (replica id or NULL), epoch, lease_until; and remote_streams, set once
 *                      another replica streams the session (then saves publish their frames)
 *   svc_live_dead      (app, key) PRIMARY KEY, until: killed keys
 *   svc_live_frames    id, payload, at: notices too large for NOTIFY's 8,000-byte payload,
 *                      published by reference (see bus.ts) and swept after a minute
 *   svc_live_rotations (app, from_key) PRIMARY KEY: to_key, from_handle, the old and new ids
 *                      sealed (seal.ts), ticket_hash, until: rotated-away ids in their grace period
 *
 * Every operation is one statement (one round trip), except `kill` and `move`, one transaction
 * each. A takeover tells the previous owner in its own statement (a "taken" notice). With a
 * `notices` sink (a bus on Redis or NATS, docs/deployment.md#the-bus) no statement notifies: the
 * statement returns what its notice needs, and the notice is published once it committed. Times
 * are the database's clock in milliseconds, so leases do not depend on the replicas' clocks.
 * `app` lets several live apps share the tables.
 */
import type { Db } from "../../db/db.ts";
import type { Statement } from "../../db/driver.ts";
import { CHANNEL_SQL } from "../../db/notify.ts";
import { encodeMessage, type NoticeSink } from "./bus.ts";
import { log } from "../../log.ts";
import {
  type Claim,
  DEAD_KEY_TTL_MS,
  LEASE_MS,
  type LiveStore,
  type Loaded,
  type Ownership,
  type RotationFound,
  type StoredRotation,
  type StoredSession,
  type Taken,
} from "./store.ts";
import { SCHEMA } from "./postgres-schema.ts";
import { SaveGroup } from "./save-group.ts";
import { BY_REFERENCE } from "./inbox.ts";
import { rotatedFromOf, type Row, sessionColumns, sessionOf } from "./postgres-rows.ts";

/** The database's clock in milliseconds. */
const NOW = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";
const CHANNEL = CHANNEL_SQL;
/** NOTIFY's payload limit is 8,000 bytes; a larger notice is stored and its row id sent. */
export const NOTICE_INLINE_BYTES = 7_900;
const FRAME_TTL_MS = 60_000;

const stmt = (sql: string, ...args: (string | number | null)[]): Statement => ({ sql, args });
const encoder = new TextEncoder();

/** Whether a notice fits NOTIFY (byte length, counted only when it might not). */
export function fitsInline(notice: string): boolean {
  return notice.length * 3 <= NOTICE_INLINE_BYTES || encoder.encode(notice).length <= NOTICE_INLINE_BYTES;
}

const COLUMNS = "key, handle, model, out_seq, input_seqs, page_seqs, user_id, bound_at";
/** The rotations to session `s` still within their grace period, as JSON (for a takeover or a load). */
const ROTATED_FROM = `(SELECT json_agg(json_build_object('h', r.from_handle, 's', r.from_sealed, 'ms', r.until - ${NOW}))::text
  FROM svc_live_rotations r WHERE r.app = s.app AND r.to_key = s.key AND r.until > ${NOW}) AS rotated_from`;

/** How a store is set up beyond its database and app. */
export type PostgresStoreOptions = {
  /** How long a lease lasts without renewal. */
  readonly leaseMs?: number;
  /** Where notices go once their write committed; without it, they go in the write, as NOTIFY. */
  readonly notices?: NoticeSink;
};

export class PostgresLiveStore implements LiveStore {
  readonly shared = true;
  private ready: Promise<void> | undefined;
  private readonly leaseMs: number;
  private readonly notices: NoticeSink | undefined;
  /** The saves of one event-loop turn, sent together (src/live/store/save-group.ts). */
  private readonly saves: SaveGroup;

  /** `app`: the live app's name (its cookie name), so apps sharing a database keep apart. */
  constructor(
    readonly db: Db,
    readonly app: string,
    options: PostgresStoreOptions = {},
  ) {
    if (db.dialect !== "postgres") throw new TypeError("PostgresLiveStore needs a Postgres Db");
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.notices = options.notices;
    this.saves = new SaveGroup(db);
  }

  /**
   * Publishes a committed write's notice on the bus (with a `notices` sink only). Called as soon as
   * the write's answer arrives, so a session's notices go out in the order its writes committed;
   * a notice that cannot be sent is logged, as one a replica missed (docs/deployment.md#the-bus).
   */
  private publishCommitted(sink: NoticeSink, text: string): void {
    sink.publishText(text).catch((error: unknown) => {
      log.warn(`live.bus notice not published: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** The "taken" notice telling `previous` that `owner` holds the session now, when it was another's. */
  private tellTaken(sink: NoticeSink, key: string, owner: string, previous: unknown, epoch: unknown): void {
    if (previous === null || previous === undefined || String(previous) === owner) return;
    this.publishCommitted(sink, encodeMessage({ t: "taken", app: this.app, key, from: owner, epoch: Number(epoch) }));
  }

  /** Creates the tables once per store; a failure is forgotten so the next call retries. */
  ensureSchema(): Promise<void> {
    this.ready ??= this.db.transaction(SCHEMA).then((done) => {
      if (!done.ok) {
        this.ready = undefined;
        throw done.error;
      }
    });
    return this.ready;
  }

  private async rows(statement: Statement): Promise<readonly Row[]> {
    await this.ensureSchema();
    const result = await this.db.query(statement);
    if (!result.ok) throw result.error;
    return result.value;
  }

  async create(session: StoredSession, owner: string): Promise<number> {
    await this.rows(this.createStatement(session, owner));
    return 1;
  }

  private createStatement(session: StoredSession, owner: string): Statement {
    return stmt(
      `INSERT INTO svc_live_sessions (app, ${COLUMNS}, updated_at, owner, epoch, lease_until)
       VALUES ($1, $2, $3, $4, $5::bigint, $6, $7, $8, $9::bigint, ${NOW}, $10, 1, ${NOW} + $11::bigint)`,
      this.app,
      ...sessionColumns(session),
      owner,
      this.leaseMs,
    );
  }

  private killStatements(key: string): Statement[] {
    return [
      stmt("DELETE FROM svc_live_sessions WHERE app = $1 AND key = $2", this.app, key),
      stmt(
        `INSERT INTO svc_live_dead (app, key, until) VALUES ($1, $2, ${NOW} + $3::bigint)
         ON CONFLICT (app, key) DO UPDATE SET until = EXCLUDED.until`,
        this.app,
        key,
        DEAD_KEY_TTL_MS,
      ),
    ];
  }

  async take(key: string, owner: string): Promise<Taken | undefined> {
    // The old owner is read under the row lock the UPDATE takes, in the same statement.
    const [row] = await this.rows(
      stmt(
        `WITH old AS (SELECT owner, lease_until FROM svc_live_sessions WHERE app = $1 AND key = $2 FOR UPDATE)
         UPDATE svc_live_sessions s SET owner = $3, epoch = s.epoch + 1, lease_until = ${NOW} + $4::bigint
         FROM old WHERE s.app = $1 AND s.key = $2
         RETURNING s.${COLUMNS.split(", ").join(", s.")}, s.epoch, old.owner AS previous_owner, ${ROTATED_FROM}${
          this.notices === undefined
            ? `, CASE WHEN old.owner IS NOT NULL AND old.owner <> $3 THEN pg_notify(${CHANNEL},
             json_build_object('t', 'taken', 'app', $1::text, 'key', $2::text, 'from', $3::text, 'epoch', s.epoch)::text) END AS told`
            : ""
        }`,
        this.app,
        key,
        owner,
        this.leaseMs,
      ),
    );
    if (row === undefined) return undefined;
    const previous = row.previous_owner;
    if (this.notices !== undefined) this.tellTaken(this.notices, key, owner, previous, row.epoch);
    return {
      session: sessionOf(row),
      epoch: Number(row.epoch),
      previousOwner: previous === null || previous === undefined ? undefined : String(previous),
      rotatedFrom: rotatedFromOf(row),
    };
  }

  async load(key: string): Promise<Loaded | undefined> {
    // A plain read: no row lock, no write. The save that claims the session is fenced on this epoch.
    const [row] = await this.rows(
      // xmin: the transaction that wrote the row's current version (a claim is fenced on it).
      stmt(
        `SELECT ${COLUMNS}, epoch, owner, xmin::text AS version, ${ROTATED_FROM} FROM svc_live_sessions s WHERE app = $1 AND key = $2`,
        this.app,
        key,
      ),
    );
    if (row === undefined) return undefined;
    return {
      session: sessionOf(row),
      epoch: Number(row.epoch),
      owner: row.owner === null || row.owner === undefined ? undefined : String(row.owner),
      rotatedFrom: rotatedFromOf(row),
      version: String(row.version),
    };
  }

  async save(session: StoredSession, owner: string, epoch: number, notice?: string, claim?: Claim): Promise<boolean> {
    // $12: the frame notice (or NULL); $13, $14: with a claim, the new owner and the one told of the move.
    const args = [this.app, ...sessionColumns(session), epoch, this.leaseMs, notice ?? null, claim === undefined ? null : owner];
    if (claim !== undefined) args.push(claim.previousOwner ?? null);
    const claiming = claim === undefined ? "" : ", owner = $13, epoch = epoch + 1";
    // A claim is also fenced on the row's version at the load: a save the owner made since (at
    // the same epoch) is not overwritten; the claim fails and the event is processed again.
    if (claim?.version !== undefined) args.push(claim.version);
    const unchanged = claim?.version === undefined ? "" : " AND xmin::text = $15";
    const update = `UPDATE svc_live_sessions SET handle = $3, model = $4, out_seq = $5::bigint, input_seqs = $6, page_seqs = $7,
      user_id = $8, bound_at = $9::bigint, updated_at = ${NOW}, lease_until = ${NOW} + $11::bigint${claiming}
      WHERE app = $1 AND key = $2 AND epoch = $10::bigint${unchanged} RETURNING remote_streams, epoch`;
    // The previous owner drops its copy at once (its saves are fenced off either way).
    const told = claim === undefined ? "NULL" : `CASE WHEN $14::text IS NOT NULL AND $14::text <> $13::text THEN pg_notify(${CHANNEL},
      json_build_object('t', 'taken', 'app', $1::text, 'key', $2::text, 'from', $13::text, 'epoch', saved.epoch)::text) END`;
    // The frame is published only when another replica streams the session, as the row says
    // under the UPDATE's lock, so a stream that registered just before this save gets it.
    const sink = this.notices;
    if (sink !== undefined) {
      // Nothing notifies in the statement: it says whether another replica streams the session and
      // the epoch saved, and the notices follow the commit (docs/deployment.md#the-bus).
      // Every parameter is named once, or Postgres cannot tell its type ($14: the previous owner).
      const previous = claim === undefined ? "" : ", $14::text AS previous";
      const sql = `WITH saved AS (${update}) SELECT remote_streams, epoch, $12::text AS frame, $13::text AS claim${previous} FROM saved`;
      const [saved] = await this.savedRows({ sql, args }, session.key);
      if (saved === undefined) return false;
      if (notice !== undefined && saved.remote_streams === true) this.publishCommitted(sink, notice);
      if (claim !== undefined) this.tellTaken(sink, session.key, owner, claim.previousOwner, saved.epoch);
      return true;
    }
    let sql: string;
    if (notice === undefined) {
      sql = `WITH saved AS (${update}) SELECT (${told})::text AS told, $12::text AS frame, $13::text AS claim FROM saved`;
    } else if (fitsInline(notice)) {
      sql = `WITH saved AS (${update})
        SELECT (CASE WHEN remote_streams THEN pg_notify(${CHANNEL}, $12) END)::text AS saved, (${told})::text AS told, $13::text AS claim FROM saved`;
    } else {
      sql = `WITH saved AS (${update}),
        frame AS (INSERT INTO svc_live_frames (payload, at) SELECT $12, ${NOW} FROM saved WHERE saved.remote_streams RETURNING id)
        SELECT (SELECT pg_notify(${CHANNEL}, '${BY_REFERENCE}' || frame.id) FROM frame)::text AS saved, (${told})::text AS told,
          $13::text AS claim FROM saved`;
    }
    const rows = await this.savedRows({ sql, args }, session.key);
    return rows.length === 1;
  }

  /**
   * A save's statement, sent with the other saves of this turn (group commit): its own rows, once
   * the group committed; none when its fence refused it (docs/deployment.md#group-commit).
   */
  private async savedRows(statement: Statement, key: string): Promise<readonly Row[]> {
    await this.ensureSchema();
    return await this.saves.run(statement, key);
  }

  async release(key: string, owner: string, epoch: number): Promise<void> {
    await this.rows(
      stmt(
        "UPDATE svc_live_sessions SET owner = NULL, lease_until = 0 WHERE app = $1 AND key = $2 AND owner = $3 AND epoch = $4::bigint",
        this.app,
        key,
        owner,
        epoch,
      ),
    );
  }

  async renew(owner: string): Promise<ReadonlySet<string>> {
    // The rows are locked in the order of their keys, as a group of saves locks them
    // (save-group.ts): an UPDATE of them all in the table's order would hold some while waiting for
    // others that a group holds, and the group wait for it in turn: a deadlock.
    const rows = await this.rows(
      stmt(
        `UPDATE svc_live_sessions s SET lease_until = ${NOW} + $3::bigint
         FROM (SELECT key FROM svc_live_sessions WHERE app = $1 AND owner = $2 ORDER BY key COLLATE "C" FOR UPDATE) held
         WHERE s.app = $1 AND s.key = held.key AND s.owner = $2 RETURNING s.key`,
        this.app,
        owner,
        this.leaseMs,
      ),
    );
    return new Set(rows.map((row) => String(row.key)));
  }

  async ownership(key: string, { streaming }: { readonly streaming: boolean } = { streaming: false }): Promise<Ownership | undefined> {
    const columns = `owner, epoch, lease_until > ${NOW} AS live, out_seq, user_id, bound_at`;
    const [row] = await this.rows(
      streaming
        ? stmt(`UPDATE svc_live_sessions SET remote_streams = true WHERE app = $1 AND key = $2 RETURNING ${columns}`, this.app, key)
        : stmt(`SELECT ${columns} FROM svc_live_sessions WHERE app = $1 AND key = $2`, this.app, key),
    );
    if (row === undefined) return undefined;
    const owner = row.owner === null || row.owner === undefined ? undefined : String(row.owner);
    const user = row.user_id === null || row.user_id === undefined ? undefined : String(row.user_id);
    return {
      owner,
      epoch: Number(row.epoch),
      leaseLive: owner !== undefined && row.live === true,
      outSeq: Number(row.out_seq),
      user,
      boundAt: Number(row.bound_at),
    };
  }

  async move(fromKey: string, session: StoredSession, owner: string, rotation?: StoredRotation): Promise<void> {
    await this.ensureSchema();
    const statements = [...this.killStatements(fromKey), this.createStatement(session, owner)];
    if (rotation !== undefined) {
      // Ids rotated away from earlier now lead to the session's new id.
      statements.push(
        stmt(
          "UPDATE svc_live_rotations SET to_key = $3, to_sealed = $4 WHERE app = $1 AND to_key = $2",
          this.app,
          fromKey,
          session.key,
          rotation.toSealed,
        ),
        stmt(
          `INSERT INTO svc_live_rotations (app, from_key, to_key, from_handle, from_sealed, to_sealed, ticket_hash, until)
           VALUES ($1, $2, $3, $4, $5, $6, $7, ${NOW} + $8::bigint)
           ON CONFLICT (app, from_key) DO UPDATE SET to_key = EXCLUDED.to_key, from_handle = EXCLUDED.from_handle,
             from_sealed = EXCLUDED.from_sealed, to_sealed = EXCLUDED.to_sealed, ticket_hash = EXCLUDED.ticket_hash, until = EXCLUDED.until`,
          this.app,
          fromKey,
          session.key,
          rotation.fromHandle,
          rotation.fromSealed,
          rotation.toSealed,
          rotation.ticketHash,
          rotation.graceMs,
        ),
      );
    }
    const done = await this.db.transaction(statements);
    if (!done.ok) throw done.error;
  }

  async rotation(fromKey: string): Promise<RotationFound | undefined> {
    const [row] = await this.rows(
      stmt(
        `SELECT r.to_key, r.to_sealed, r.ticket_hash FROM svc_live_rotations r
         JOIN svc_live_sessions s ON s.app = r.app AND s.key = r.to_key
         WHERE r.app = $1 AND r.from_key = $2 AND r.until > ${NOW}`,
        this.app,
        fromKey,
      ),
    );
    return row === undefined
      ? undefined
      : { toKey: String(row.to_key), toSealed: String(row.to_sealed), ticketHash: String(row.ticket_hash) };
  }

  async kill(key: string, notice?: string): Promise<void> {
    await this.ensureSchema();
    // Ids rotated away from it die with the session (docs/protocol.md#session-rotation).
    const statements = [...this.killStatements(key), stmt("DELETE FROM svc_live_rotations WHERE app = $1 AND to_key = $2", this.app, key)];
    if (notice !== undefined && this.notices === undefined) statements.push(stmt(`SELECT pg_notify(${CHANNEL}, $1)::text AS sent`, notice));
    const done = await this.db.transaction(statements);
    if (!done.ok) throw done.error;
    if (notice !== undefined && this.notices !== undefined) this.publishCommitted(this.notices, notice);
  }

  async isDead(key: string): Promise<boolean> {
    const rows = await this.rows(stmt(`SELECT 1 AS dead FROM svc_live_dead WHERE app = $1 AND key = $2 AND until > ${NOW}`, this.app, key));
    return rows.length > 0;
  }

  async alive(keys: readonly string[]): Promise<ReadonlySet<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.rows(
      stmt("SELECT key FROM svc_live_sessions WHERE app = $1 AND key = ANY($2::text[])", this.app, `{${keys.join(",")}}`),
    );
    return new Set(rows.map((row) => String(row.key)));
  }

  async sweep(idleMs: number): Promise<void> {
    await this.ensureSchema();
    const done = await this.db.transaction([
      stmt(`DELETE FROM svc_live_sessions WHERE app = $1 AND updated_at < ${NOW} - $2::bigint AND lease_until < ${NOW}`, this.app, idleMs),
      stmt(`DELETE FROM svc_live_dead WHERE app = $1 AND until < ${NOW}`, this.app),
      stmt(`DELETE FROM svc_live_frames WHERE at < ${NOW} - $1::bigint`, FRAME_TTL_MS),
      stmt(`DELETE FROM svc_live_rotations WHERE app = $1 AND until < ${NOW}`, this.app),
    ]);
    if (!done.ok) throw done.error;
  }

  /** Keeps a notice too large for the bus; resolves to the id it is sent by (swept after a minute). */
  async keepPayload(text: string): Promise<string> {
    const [row] = await this.rows(stmt(`INSERT INTO svc_live_frames (payload, at) VALUES ($1, ${NOW}) RETURNING id`, text));
    return String(row?.id);
  }

  /** The payload of a notice sent by reference (undefined once swept). */
  async framePayload(id: string): Promise<string | undefined> {
    if (!/^\d+$/.test(id)) return undefined;
    const [row] = await this.rows(stmt("SELECT payload FROM svc_live_frames WHERE id = $1::bigint", id));
    return row === undefined ? undefined : String(row.payload);
  }
}
