/**
 * SQLite through @libsql/client, the embedded default (CONTRIBUTING.md#dependencies).
 *
 * Multi-statement work goes through `batch`, which runs BEGIN…COMMIT on one borrowed connection
 * synchronously. An interactive `transaction()` would hold the only connection of a ":memory:"
 * database across awaits and make every concurrent call fail, so it is never used.
 */
import { type Driver, missingDriver, remoteHost, type Row, type SqlValue, type Statement, withHost } from "./driver.ts";

/** The part of @libsql/client's Client this adapter uses; any compatible client works. */
export interface LibsqlClientLike {
  /** Runs one statement. */
  execute(statement: { sql: string; args: SqlValue[] }): Promise<{ rows: ArrayLike<unknown> }>;
  /** Runs statements in one transaction. */
  batch(statements: { sql: string; args: SqlValue[] }[], mode?: "write" | "read" | "deferred"): Promise<{ rows: ArrayLike<unknown> }[]>;
  /** Closes the client. */
  close(): void;
}

/** Waits this long for another process's write lock before SQLITE_BUSY (replicas on one file). */
const BUSY_TIMEOUT_MS = 5000;

const rowsOf = (result: { rows: ArrayLike<unknown> }): Row[] => Array.from(result.rows) as Row[];
const plain = (statement: Statement) => ({ sql: statement.sql, args: [...statement.args] });

/**
 * The driver over a libsql client: `owned` when closing the handle closes the client, `host` the
 * remote host named in a network failure.
 */
export function libsqlDriver(client: LibsqlClientLike, owned: boolean, host?: string): Driver {
  const named = (error: unknown): never => {
    throw withHost(error, host);
  };
  return {
    dialect: "sqlite",
    query: async (statement) => rowsOf(await client.execute(plain(statement)).catch(named)),
    transaction: async (statements) => (await client.batch(statements.map(plain), "write").catch(named)).map(rowsOf),
    isUniqueViolation: (error) => {
      const e = error as { code?: unknown; extendedCode?: unknown } | null;
      return e?.extendedCode === "SQLITE_CONSTRAINT_UNIQUE" || e?.extendedCode === "SQLITE_CONSTRAINT_PRIMARYKEY";
    },
    close: async () => {
      if (owned) client.close();
    },
  };
}

/** Opens ":memory:", "file:…" or "libsql://…". The driver (an optional peer) is loaded on first use only. */
export async function openLibsql(url: string): Promise<Driver> {
  const { createClient } = await import("@libsql/client").catch(missingDriver("@libsql/client", "SQLite (:memory:, file: and libsql://)"));
  const client = createClient({ url, timeout: BUSY_TIMEOUT_MS } as Parameters<typeof createClient>[0]);
  return libsqlDriver(client as unknown as LibsqlClientLike, true, remoteHost(url));
}
