/**
 * The one interface the two dialect adapters implement (CONTRIBUTING.md#layout: "Db handle, sqlite
 * (libsql) and postgres adapters"). Everything above it speaks Statement and Row and never sees a
 * driver type. Adapters may throw or reject; the Db handle turns every failure into a Result.
 */

export type Dialect = "sqlite" | "postgres";

/** Only these travel as parameters: every query is parameterised, never spliced. */
export type SqlValue = string | number | null;

/** SQL text in the adapter's own placeholder style (`?` for SQLite, `$1` for Postgres). */
export type Statement = {
  /** The SQL text, with a placeholder for each value. */
  readonly sql: string;
  /** The values, one per placeholder, in order. */
  readonly args: readonly SqlValue[];
};

/** One result row, column name to value. */
export type Row = Readonly<Record<string, unknown>>;

export interface Driver {
  readonly dialect: Dialect;
  /** One statement on its own (autocommit). */
  query(statement: Statement): Promise<Row[]>;
  /** Several statements in one transaction: all commit or none do. */
  transaction(statements: readonly Statement[]): Promise<Row[][]>;
  /**
   * Listens on a notification channel (Postgres LISTEN, on a connection of its own that the
   * driver re-opens and re-listens after a drop; notices sent while it was down are not seen).
   * Absent for SQLite, which has no notifications. Resolves to the function that stops listening.
   */
  listen?(channel: string, onMessage: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>;
  /** A unique-constraint violation, as each driver reports it. */
  isUniqueViolation(error: unknown): boolean;
  close(): Promise<void>;
}

export const stmt = (sql: string, ...args: SqlValue[]): Statement => ({ sql, args });

/**
 * The rejection handler for importing a driver package, an optional peer dependency loaded only
 * when a URL of its kind is opened: `await import("postgres").catch(missingDriver(...))`. When the
 * package is not installed the error names the install command; any other failure (a broken
 * install, a driver's own missing dependency) is passed on as it is. Written as a `.catch` on the
 * import itself so that bundlers leave an uninstalled driver to run time instead of failing.
 */
export function missingDriver(pkg: string, urlKind: string): (error: unknown) => never {
  return (error) => {
    if (!isMissingPackage(error, pkg)) throw error;
    throw new Error(
      `${urlKind} URLs need the ${pkg} package, an optional peer dependency of svc-live that is not installed: ` +
        `run \`npm install ${pkg}\` (Bun: \`bun add ${pkg}\`, Deno: \`deno add npm:${pkg}\`)`,
      { cause: error },
    );
  };
}

/** Node and Bun say ERR_MODULE_NOT_FOUND, Deno says it in words; both name the package. */
function isMissingPackage(error: unknown, pkg: string): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === "string" ? e.message : "";
  const notFound = e?.code === "ERR_MODULE_NOT_FOUND" || e?.code === "MODULE_NOT_FOUND" ||
    /cannot find|could not find|not found/i.test(message);
  return notFound && (message.includes(`'${pkg}'`) || message.includes(`"${pkg}"`));
}

/**
 * The error of a remote database that could not be reached, naming its host: @libsql/client
 * reports only "fetch failed", whose cause (a DNS failure, a refused connection) says why but not
 * where, and postgres.js a bare "connect ECONNREFUSED". The host comes from the URL without its credentials or query (an auth token).
 */
export function withHost(error: unknown, host: string | undefined): unknown {
  if (host === undefined || !(error instanceof Error)) return error;
  const cause = (error as { cause?: unknown }).cause;
  const why = cause instanceof Error ? cause.message : undefined;
  const network = error.message === "fetch failed" || (error instanceof TypeError && cause !== undefined) ||
    /ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|CONNECT_TIMEOUT|error sending request|dns error|Unable to connect|FailedToOpenSocket|ConnectionRefused/i
      .test(`${error.message} ${why ?? ""} ${(error as { code?: unknown }).code ?? ""}`);
  if (!network) return error;
  return new Error(`cannot reach the database at ${host}: ${error.message}${why === undefined ? "" : ` (${why})`}`, { cause: error });
}

/**
 * The host (and port) of a remote database URL (libsql://, https://, wss://, postgres://), without
 * its credentials or query; undefined for a local database (":memory:", "file:…").
 */
export function remoteHost(url: string): string | undefined {
  if (!/^(libsql|https?|wss?|postgres|postgresql):\/\//i.test(url)) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}
