/**
 * The Db handle (docs/auth.md#users-table takes it as its first argument).
 *
 * Db.open picks the dialect from the URL scheme; Db.fromLibsql / Db.fromPostgres wrap a client
 * the application already has. The driver module is imported, and the connection made, on
 * `db.ready()` or the first query, so importing svc never loads a native SQLite build or opens a
 * socket, and a database that cannot be reached surfaces as Err "db_error" from the call that
 * needed it (db.ready() at startup, to hear of it before the first request).
 *
 * Configuration mistakes (an unknown scheme, a bad SVC_LIVE_REVOCATION_CACHE_TTL) are startup
 * errors: Db.open throws them once, at the call, like a builder (CONTRIBUTING.md#conventions);
 * Db.tryOpen returns them. After that, query and transaction never throw or reject.
 */
import { SvcError } from "../errors.ts";
import { err, ok, type Result, type Task } from "../result.ts";
import { type Dialect, type Driver, remoteHost, type Row, type Statement } from "./driver.ts";
import { type LibsqlClientLike, libsqlDriver, openLibsql } from "./libsql.ts";
import { type CheckedOptions, checkOptions, type DbOptions, type ReadyOptions, type WrapOptions } from "./options.ts";
import { openPostgres, postgresDriver, type PostgresSqlLike } from "./postgres.ts";
import { dialectOf } from "./url.ts";

/** A failed query. Its code is always "db_error"; the flag lets callers map a unique violation. */
export class DbError extends SvcError {
  /**
   * A failed query's error.
   *
   * @param message what failed, without the statement's arguments
   * @param uniqueViolation whether the database refused a duplicate key
   */
  constructor(
    message: string,
    /** Whether the database refused a duplicate key (an email taken). */
    readonly uniqueViolation: boolean,
  ) {
    super("db_error", message);
  }
}

/** How long `db.ready()` waits for the database's first answer by default. */
const DEFAULT_READY_TIMEOUT_MS = 10_000;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A database handle (SQLite through libsql, or Postgres through postgres.js) for the users table, revocation and shared live sessions: `Db.open(url)`. */
export class Db {
  /** The SQL dialect of the database: "sqlite" or "postgres". */
  readonly dialect: Dialect;
  /** How long this process may cache one user's access row (0 = never), in milliseconds. */
  readonly revocationCacheTtlMs: number;
  /** Milliseconds since the epoch; injected in tests. */
  readonly clock: () => number;
  #connect: () => Promise<Driver>;
  #driver: Promise<Result<Driver>> | undefined;
  #closed = false;
  /** The remote host a timeout names (undefined for a local file or a wrapped client). */
  #where: string | undefined;

  private constructor(dialect: Dialect, connect: () => Promise<Driver>, options: CheckedOptions, wrapped?: Driver) {
    this.dialect = dialect;
    this.#connect = connect;
    // A wrapped client is already open: close() must reach it even if no query ever ran.
    if (wrapped !== undefined) this.#driver = Promise.resolve(ok(wrapped));
    this.revocationCacheTtlMs = options.revocationCacheTtlMs;
    this.clock = options.clock;
  }

  /**
   * Opens a database by URL: ":memory:", "file:…", "libsql://…" (SQLite, through `@libsql/client`)
   * or "postgres://…", "postgresql://…" (through `postgres`). The driver is the optional peer
   * dependency of that kind; install the one you use. Throws SvcError on a bad URL or option.
   *
   * @throws {SvcError} "unsupported_url" for another scheme, "bad_config" for a bad option
   *
   * @example
   * ```ts
   * import { Auth, Db } from "svc-live";
   *
   * const db = Db.open("file:app.db"); // Postgres: Db.open("postgres://app@db.internal/app")
   * const id = await Auth.register(db, "ada@example.com", "correct horse battery staple");
   * ```
   */
  static open(url: string, options?: DbOptions): Db {
    const db = Db.tryOpen(url, options);
    if (!db.ok) throw db.error;
    return db.value;
  }

  /**
   * `Db.open` as a Result: Err "unsupported_url" or "bad_config"; never throws. For a URL that
   * comes from configuration, to report it in the app's own words.
   *
   * @example
   * ```ts
   * import { Db } from "svc-live";
   *
   * const opened = Db.tryOpen("mysql://localhost/app");
   * if (!opened.ok) console.error(`DATABASE_URL: ${opened.error.message}`); // unsupported_url
   * ```
   */
  static tryOpen(url: string, options?: DbOptions): Result<Db> {
    const dialect = dialectOf(url);
    if (!dialect.ok) return dialect;
    const checked = checkOptions(options);
    if (!checked.ok) return checked;
    const schema = checked.value.schema;
    if (schema !== undefined && dialect.value === "sqlite") {
      return err("bad_config", "schema is a Postgres option: give each SQLite app its own database file");
    }
    const connect = dialect.value === "sqlite" ? () => openLibsql(url) : () => openPostgres(url, schema);
    const db = new Db(dialect.value, connect, checked.value);
    db.#where = remoteHost(url);
    return ok(db);
  }

  /**
   * Wraps an `@libsql/client` Client the app already has (a Turso client with its auth token, an
   * embedded replica). `db.close()` leaves it open unless `closeClient` is set.
   *
   * @throws {SvcError} "invalid_argument" for something that is not a libsql client
   *
   * @example
   * ```ts
   * import { Db } from "svc-live";
   * import { createClient } from "@libsql/client";
   *
   * const client = createClient({ url: "libsql://app-team.turso.io", authToken: "token from the dashboard" });
   * const db = Db.fromLibsql(client, { closeClient: true });
   * ```
   */
  static fromLibsql(client: LibsqlClientLike, options?: WrapOptions): Db {
    const looksRight = typeof client?.execute === "function" && typeof client?.batch === "function";
    if (!looksRight) throw new SvcError("invalid_argument", "Db.fromLibsql: expected an @libsql/client Client");
    const driver = libsqlDriver(client, options?.closeClient === true);
    return Db.#wrap("sqlite", driver, options);
  }

  /**
   * Wraps a postgres.js `sql` instance the app already has (its own pool size, TLS, search path).
   * `db.close()` leaves it open unless `closeClient` is set.
   *
   * @throws {SvcError} "invalid_argument" for something that is not a postgres.js instance
   *
   * @example
   * ```ts
   * import { Db } from "svc-live";
   * import postgres from "postgres";
   *
   * const sql = postgres("postgres://app@db.internal/app", { max: 10, ssl: "require" });
   * const db = Db.fromPostgres(sql); // the app closes sql itself
   * ```
   */
  static fromPostgres(sql: PostgresSqlLike, options?: WrapOptions): Db {
    const looksRight = typeof sql?.unsafe === "function" && typeof sql?.begin === "function";
    if (!looksRight) throw new SvcError("invalid_argument", "Db.fromPostgres: expected a postgres.js sql instance");
    const driver = postgresDriver(sql, options?.closeClient === true);
    return Db.#wrap("postgres", driver, options);
  }

  static #wrap(dialect: Dialect, driver: Driver, options: DbOptions | undefined): Db {
    const checked = checkOptions(options);
    if (!checked.ok) throw checked.error;
    if (checked.value.schema !== undefined) {
      throw new SvcError("bad_config", "schema applies to Db.open: set the search_path on the client you wrap instead");
    }
    return new Db(dialect, () => Promise.resolve(driver), checked.value, driver);
  }

  /**
   * Connects now and asks the database to answer one statement, so a configuration mistake is
   * reported at startup instead of at the first query: a driver package that is not installed
   * (naming the command that installs it), a host that refuses or does not resolve (naming the
   * host, never the credentials), or one that does not answer within `timeoutMs` (default 10 s).
   * Resolves to Err "db_error" for each; never rejects. Queries work without it: it only moves
   * the first failure forward.
   *
   * @example
   * ```ts
   * import { Db } from "svc-live";
   *
   * const db = Db.open("postgres://app@db.internal/app");
   * const ready = await db.ready({ timeoutMs: 5000 });
   * if (!ready.ok) throw new Error(`DATABASE_URL: ${ready.error.message}`);
   * ```
   */
  async ready(options?: ReadyOptions): Task<void> {
    const timeoutMs = options?.timeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) return err("invalid_argument", "db.ready: timeoutMs must be a positive number");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<Result<void>>((resolve) => {
      const silent = `the database${this.#where === undefined ? "" : ` at ${this.#where}`} did not answer within ${timeoutMs} ms`;
      timer = setTimeout(() => resolve(err(new DbError(silent, false))), timeoutMs);
    });
    try {
      return await Promise.race([this.#probe(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #probe(): Task<void> {
    const driver = await this.#driverOnce();
    if (!driver.ok) return driver;
    try {
      await driver.value.query({ sql: "SELECT 1", args: [] });
      return ok();
    } catch (error) {
      return err(new DbError(`db.ready: ${describe(error)}`, false));
    }
  }

  /** Whether `close()` has been called; a closed handle answers every call with Err `db_error`. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Runs one statement, written in this handle's dialect (`?` placeholders on SQLite, `$1` on
   * Postgres), its values always passed as parameters. Never rejects: a failed query is Err
   * "db_error".
   *
   * @example
   * ```ts
   * import { Db } from "svc-live";
   *
   * const db = Db.open("file:app.db");
   * const rows = await db.query({ sql: "SELECT id, title FROM posts WHERE author = ? ORDER BY id DESC LIMIT 10", args: ["ada"] });
   * if (rows.ok) for (const row of rows.value) console.log(row["id"], row["title"]);
   * ```
   */
  async query(statement: Statement): Task<Row[]> {
    return this.#run((driver) => driver.query(statement));
  }

  /**
   * Runs the statements in one transaction: all of them, or, when one fails, none. Resolves to
   * each statement's rows. Never rejects.
   *
   * @example
   * ```ts
   * import { Db } from "svc-live";
   *
   * const db = Db.open("file:app.db");
   * const moved = await db.transaction([
   *   { sql: "UPDATE accounts SET balance = balance - ? WHERE id = ?", args: [50, 1] },
   *   { sql: "UPDATE accounts SET balance = balance + ? WHERE id = ?", args: [50, 2] },
   * ]);
   * if (!moved.ok) console.error(moved.error.message);
   * ```
   */
  async transaction(statements: readonly Statement[]): Task<Row[][]> {
    return this.#run((driver) => driver.transaction(statements));
  }

  /**
   * Listens on a notification channel (Postgres only: Err "db_unsupported" on SQLite). Notifications
   * arrive on a connection of the handle's own; the channel is re-listened after a reconnect.
   * Resolves to the function that stops listening. Never rejects.
   *
   * @example
   * ```ts
   * import { Db } from "svc-live";
   *
   * const db = Db.open("postgres://app@db.internal/app");
   * const listening = await db.listen("orders", (payload) => console.log(`new order ${payload}`));
   * // ... later, on shutdown:
   * if (listening.ok) await listening.value();
   * ```
   */
  async listen(channel: string, onMessage: (payload: string) => void, onListen?: () => void): Task<() => Promise<void>> {
    const driver = await this.#driverOnce();
    if (driver.ok && driver.value.listen === undefined) return err("db_unsupported", `${driver.value.dialect} has no notifications`);
    return this.#run((open) => open.listen!(channel, onMessage, onListen));
  }

  /**
   * Releases the connection (or pool). Idempotent; never rejects. Afterwards every call answers
   * Err "db_error".
   *
   * @example
   * ```ts
   * import { Db } from "svc-live";
   *
   * const db = Db.open("file:app.db");
   * await db.query({ sql: "CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT)", args: [] });
   * await db.close();
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const driver = this.#driver === undefined ? undefined : await this.#driver;
    if (driver?.ok) {
      try {
        await driver.value.close();
      } catch {
        // Closing a connection that already died has nothing left to release.
      }
    }
  }

  async #run<A>(work: (driver: Driver) => Promise<A>): Task<A> {
    const driver = await this.#driverOnce();
    if (!driver.ok) return driver;
    if (this.#closed) return err(new DbError("database handle is closed", false));
    try {
      return ok(await work(driver.value));
    } catch (error) {
      return err(new DbError(`database error: ${describe(error)}`, driver.value.isUniqueViolation(error)));
    }
  }

  #driverOnce(): Promise<Result<Driver>> {
    if (this.#closed) return Promise.resolve(err(new DbError("database handle is closed", false)));
    if (this.#driver === undefined) {
      const attempt = this.#connect().then(
        (driver): Result<Driver> => ok(driver),
        (error): Result<Driver> => {
          // Forget the failure so the next call tries again (the database may come back).
          if (this.#driver === attempt) this.#driver = undefined;
          return err(new DbError(`cannot open the database: ${describe(error)}`, false));
        },
      );
      this.#driver = attempt;
    }
    return this.#driver;
  }
}
