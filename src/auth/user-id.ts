/**
 * The canonical user id of the admin APIs (docs/auth.md#user-ids):
 * a string verbatim; an integer as its decimal text. Applied on write and on read, so
 * revokeUser(db, 42) and userAccessState(db, "42", iat) name the same row, while "042" and " 42"
 * are other ids. A number above 2^53 has already lost digits (docs/auth.md#user-ids) and is
 * refused rather than rounded into somebody else's id; carry such ids as strings or bigints.
 */
import { err, ok, type Result } from "../result.ts";

/** A user id as the admin calls take it: a string, or an integer read as its decimal text (docs/auth.md#user-ids). */
export type UserIdInput = string | number | bigint;

export function canonicalUserId(value: unknown): Result<string> {
  if (typeof value === "string") {
    return value === "" ? err("invalid_argument", "user id must not be empty") : ok(value);
  }
  if (typeof value === "bigint") return ok(value.toString(10));
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return ok(String(value));
    return err("invalid_argument", "a numeric user id must be an integer of at most 2^53 - 1; carry larger ids as strings");
  }
  return err("invalid_argument", "user id must be a string or an integer");
}

/** The built-in users row a canonical id names, when it is the decimal text of a positive id. */
export function builtinIdOf(canonical: string): number | undefined {
  if (!/^[1-9][0-9]{0,15}$/.test(canonical)) return undefined;
  const id = Number(canonical);
  return Number.isSafeInteger(id) ? id : undefined;
}
