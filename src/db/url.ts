/**
 * Which dialect a database URL names. Only the scheme is read here;
 * the driver itself validates the rest when it connects.
 */
import { err, ok, type Result } from "../result.ts";
import type { Dialect } from "./driver.ts";

export function dialectOf(url: unknown): Result<Dialect> {
  if (typeof url !== "string") return err("unsupported_url", "Db.open: expected a URL string");
  if (url === ":memory:" || url.startsWith("file:") || url.startsWith("libsql://")) return ok("sqlite");
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return ok("postgres");
  // Only the scheme is echoed: the rest of a URL may carry a password.
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(url)?.[0] ?? "(none)";
  return err(
    "unsupported_url",
    `Db.open: unsupported database URL scheme ${scheme}; use ":memory:", "file:…", "libsql://…", "postgres://…" or "postgresql://…"`,
  );
}
