/**
 * Options of a Db handle, checked once when the handle is made, like a builder's
 * (CONTRIBUTING.md#conventions): a bad value is a startup error, never a silent default.
 *
 * The revocation cache TTL comes from SVC_LIVE_REVOCATION_CACHE_TTL (docs/auth.md#limits):
 * whole seconds, default 0 = a fresh read of revoked_at and disabled_at on every evaluation.
 */
import { err, ok, type Result } from "../result.ts";
import { readEnv } from "../runtime/env.ts";

/** The environment variable that sets the revocation cache's lifetime in seconds (docs/auth.md#revocation-cache). */
export const REVOCATION_CACHE_TTL_ENV = "SVC_LIVE_REVOCATION_CACHE_TTL";

/** Options of `Db.open`. */
export type DbOptions = {
  /**
   * Seconds a process may cache one user's revocation/suspension row. Overrides
   * SVC_LIVE_REVOCATION_CACHE_TTL; a whole number, 0 or more.
   */
  readonly revocationCacheTtl?: number;
  /** The clock, in milliseconds since the epoch (Date.now by default); tests inject one. */
  readonly clock?: () => number;
  /**
   * Postgres only: the schema that holds every svc table (users, revocation, live sessions,
   * rotations, frames), created when missing, so that an app shares a database with others
   * (docs/deployment.md#a-shared-database). Lowercase letters, digits and `_`, starting with a
   * letter or `_`, at most 63 characters. Default: the connection's own search_path (`public`).
   */
  readonly schema?: string;
};

/** Options of `db.ready()`. */
export type ReadyOptions = {
  /** How long to wait for the database's first answer, in milliseconds (default 10 000). */
  readonly timeoutMs?: number;
};

/** Options of `Db.fromLibsql` and `Db.fromPostgres`, which adopt a client the application already has. */
export type WrapOptions = DbOptions & {
  /** Whether db.close() also closes the wrapped client. Default false: the application owns it. */
  readonly closeClient?: boolean;
};

export type CheckedOptions = { readonly revocationCacheTtlMs: number; readonly clock: () => number; readonly schema?: string };

/** A schema name that needs no quoting anywhere (docs/deployment.md#a-shared-database). */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function ttlFromEnv(): Result<number> {
  const raw = readEnv(REVOCATION_CACHE_TTL_ENV);
  if (raw === undefined || raw.trim() === "") return ok(0);
  const text = raw.trim();
  const seconds = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(seconds)) {
    return err(
      "bad_config",
      `${REVOCATION_CACHE_TTL_ENV} must be a whole number of seconds, 0 or more (got ${JSON.stringify(text.slice(0, 32))})`,
    );
  }
  return ok(seconds);
}

function ttlFromOption(value: unknown): Result<number> {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0
    ? ok(value)
    : err("bad_config", "revocationCacheTtl must be a whole number of seconds, 0 or more");
}

/**
 * The revocation cache TTL in seconds as configured now: the option if given, else the
 * `SVC_LIVE_REVOCATION_CACHE_TTL` environment variable (docs/auth.md; default 0). Err "bad_config" for a value
 * that is not a whole number of seconds.
 *
 * @example
 * ```ts
 * import { revocationCacheTtl } from "svc-live";
 *
 * const ttl = revocationCacheTtl();
 * if (!ttl.ok) throw ttl.error; // fail at start, not at the first revocation check
 * console.log(`revocations reach this replica within ${ttl.value} s`);
 * ```
 */
export function revocationCacheTtl(explicit?: unknown): Result<number> {
  return explicit === undefined ? ttlFromEnv() : ttlFromOption(explicit);
}

export function checkOptions(options: DbOptions | undefined): Result<CheckedOptions> {
  const ttl = revocationCacheTtl(options?.revocationCacheTtl);
  if (!ttl.ok) return ttl;
  const clock = options?.clock ?? Date.now;
  if (typeof clock !== "function") return err("bad_config", "clock must be a function returning milliseconds");
  const schema = options?.schema;
  if (schema !== undefined && (typeof schema !== "string" || !SCHEMA_NAME.test(schema))) {
    return err(
      "bad_config",
      "schema must be lowercase letters, digits and _, starting with a letter or _, at most 63 characters",
    );
  }
  return ok({ revocationCacheTtlMs: ttl.value * 1000, clock, ...(schema === undefined ? {} : { schema }) });
}
