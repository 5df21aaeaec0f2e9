/**
 * Postgres through postgres.js (CONTRIBUTING.md#dependencies). Statements use `$1…` placeholders and go
 * through `sql.unsafe(text, args)`, which sends the arguments as bind parameters: nothing is
 * spliced into the text. A transaction is `sql.begin`, which pins one connection.
 */
import { type Driver, missingDriver, remoteHost, type Row, type SqlValue, withHost } from "./driver.ts";

/** postgres.js's `unsafe`: one statement with `$n` parameters. */
export type PostgresUnsafe = (text: string, args: SqlValue[], options?: { prepare?: boolean }) => PromiseLike<ArrayLike<unknown>>;
type Unsafe = PostgresUnsafe;

/** The part of a postgres.js `sql` instance this adapter uses. */
export interface PostgresSqlLike {
  /** Runs one statement. */
  unsafe: Unsafe;
  /** Runs `fn` in a transaction. */
  begin<T>(fn: (tx: { unsafe: Unsafe }) => Promise<T>): PromiseLike<unknown>;
  /** Closes the connections. */
  end(options?: { timeout?: number }): PromiseLike<void>;
  /** LISTEN on a channel (live sessions shared between replicas). */
  listen?(channel: string, onMessage: (payload: string) => void, onListen?: () => void): PromiseLike<{ unlisten(): PromiseLike<unknown> }>;
  /** The options it was made with: `prepare: false` behind a transaction-mode pooler. */
  readonly options?: { readonly prepare?: boolean };
}

/** SQLSTATE unique_violation. */
const UNIQUE_VIOLATION = "23505";

const rowsOf = (result: ArrayLike<unknown>): Row[] => Array.from(result) as Row[];

/** What Db.open adds to a client it opened itself. */
type OpenedBy = {
  /** The host and port named in a network failure. */
  readonly host?: string;
  /**
   * Opens a pool of its own for one listen, ended when that listen stops. With it, a listen that
   * must start again after an outage starts on a new connection: postgres.js re-listens on its
   * shared listening connection once when that drops, and after a failed try there it may hang or
   * fail until the process restarts (src/live/store/postgres-bus.ts listens again itself).
   */
  readonly listenPool?: () => PostgresSqlLike;
};

/** The driver over a postgres.js instance: `owned` when closing the handle ends it. */
export function postgresDriver(sql: PostgresSqlLike, owned: boolean, opened?: OpenedBy): Driver {
  // Named prepared statements are faster, but an application behind a transaction-mode pooler
  // turns them off on its own client; follow its choice.
  const prepare = sql.options?.prepare ?? true;
  const listenPool = opened?.listenPool;
  const named = (error: unknown): never => {
    throw withHost(error, opened?.host);
  };
  return {
    dialect: "postgres",
    query: async (statement) => rowsOf(await Promise.resolve(sql.unsafe(statement.sql, [...statement.args], { prepare })).catch(named)),
    transaction: async (statements) => {
      // The statements are sent at once, pipelined on the transaction's connection, and run in
      // order: one round trip for them all (a group of saves, src/live/store/save-group.ts). The
      // first that fails rejects the transaction, which rolls back.
      const results = await Promise.resolve(sql.begin(async (tx) => {
        const pending = statements.map((statement) => tx.unsafe(statement.sql, [...statement.args], { prepare }));
        return (await Promise.all(pending)).map(rowsOf);
      })).catch(named);
      return results as Row[][];
    },
    ...(typeof sql.listen === "function"
      ? {
        listen: async (channel: string, onMessage: (payload: string) => void, onListen?: () => void) => {
          const pool = listenPool?.();
          if (pool === undefined) {
            const listening = await sql.listen!(channel, onMessage, onListen);
            return async () => void (await listening.unlisten());
          }
          try {
            await pool.listen!(channel, onMessage, onListen);
          } catch (error) {
            await pool.end({ timeout: 0 });
            throw error;
          }
          return async () => void (await pool.end({ timeout: 1 }));
        },
      }
      : {}),
    isUniqueViolation: (error) => (error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION,
    close: async () => {
      if (owned) await sql.end({ timeout: 5 });
    },
  };
}

/**
 * Opens "postgres://…" or "postgresql://…". The driver (an optional peer) is loaded on first use
 * only. With `schema` (checked by src/db/options.ts: no quoting needed), every connection's
 * search_path is that schema, created here when missing, so every svc table, and the
 * notification channel named after the schema, is the app's own (docs/deployment.md#a-shared-database).
 */
export async function openPostgres(url: string, schema?: string): Promise<Driver> {
  const { default: postgres } = await import("postgres").catch(missingDriver("postgres", "postgres://"));
  // CREATE … IF NOT EXISTS raises NOTICEs on every start; they are not worth a console line.
  const options = { onnotice: () => {}, ...(schema === undefined ? {} : { connection: { search_path: schema } }) };
  const sql = postgres(url, options);
  if (schema !== undefined) {
    try {
      await sql.unsafe(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } catch (error) {
      // Two replicas starting at once may both create it; the loser sees a unique violation.
      if ((error as { code?: unknown } | null)?.code !== UNIQUE_VIOLATION) {
        await sql.end({ timeout: 1 });
        throw withHost(error, remoteHost(url));
      }
    }
  }
  const listenPool = () => postgres(url, { ...options, max: 1 }) as unknown as PostgresSqlLike;
  return postgresDriver(sql as unknown as PostgresSqlLike, true, { host: remoteHost(url), listenPool });
}
