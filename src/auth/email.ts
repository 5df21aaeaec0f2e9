/**
 * Email addresses of the built-in users table (docs/auth.md#users-table).
 *
 * The stored form is trimmed and lower-cased, so equality in the UNIQUE column is the
 * case-insensitive comparison, enforced by the database rather than by a check-then-insert.
 * Well-formed means the WHATWG HTML "valid e-mail address" (what <input type=email> accepts),
 * at most 254 characters (RFC 5321's path limit less the brackets).
 */
import { err, ok, type Result } from "../result.ts";

export const MAX_EMAIL_LENGTH = 254;

const validEmail =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** The stored form of an address. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The stored form, or Err "bad_email" for an empty or malformed address. */
export function checkEmail(email: string): Result<string> {
  const normal = normalizeEmail(email);
  if (normal === "") return err("bad_email", "email is empty");
  if (normal.length > MAX_EMAIL_LENGTH || !validEmail.test(normal)) return err("bad_email", "email is not a valid address");
  return ok(normal);
}
