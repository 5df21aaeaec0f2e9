/** svc-live/db: the database handle shared by the built-in users table and the revocation gate. */
export { Db, DbError } from "./db.ts";
export type { Dialect, Row as DbRow, SqlValue, Statement as DbStatement } from "./driver.ts";
export type { LibsqlClientLike } from "./libsql.ts";
export type { PostgresSqlLike, PostgresUnsafe } from "./postgres.ts";
export { type DbOptions, type ReadyOptions, REVOCATION_CACHE_TTL_ENV, revocationCacheTtl, type WrapOptions } from "./options.ts";
export { ACCESS_TABLE, DEFAULT_ROLE, USERS_TABLE } from "./schema.ts";
