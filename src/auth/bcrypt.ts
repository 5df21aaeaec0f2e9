/**
 * bcrypt itself, synchronous: the shared core of the worker, the ...Sync functions and the
 * checks every entry point applies first (docs/auth.md#passwords).
 */
import { genSaltSync, hashSync } from "bcrypt-ts";
import { err, ok, type Result } from "../result.ts";
import { constantTimeEqual } from "./constant-time.ts";

/** The bcrypt cost `hashPassword` uses (docs/auth.md#passwords). */
export const DEFAULT_COST = 12;
export const MIN_COST = 4;
export const MAX_COST = 31;
/** bcrypt reads at most 72 bytes; longer passwords are refused, never silently truncated. */
export const MAX_PASSWORD_BYTES = 72;

const hashShape = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const utf8 = new TextEncoder();

export function isTooLong(password: string): boolean {
  // Cheap bound first: a UTF-16 unit encodes to at most 3 UTF-8 bytes.
  return password.length * 3 > MAX_PASSWORD_BYTES && utf8.encode(password).length > MAX_PASSWORD_BYTES;
}

export function checkPassword(password: string): Result<string> {
  return isTooLong(password)
    ? err("password_too_long", `password is longer than ${MAX_PASSWORD_BYTES} bytes; bcrypt would truncate it`)
    : ok(password);
}

export function checkCost(cost: unknown): Result<number> {
  return typeof cost === "number" && Number.isInteger(cost) && cost >= MIN_COST && cost <= MAX_COST
    ? ok(cost)
    : err("bad_cost", `bcrypt cost must be a whole number from ${MIN_COST} to ${MAX_COST}`);
}

export function checkHash(hash: string): Result<string> {
  const match = hashShape.exec(hash);
  const cost = match ? Number(match[1]) : -1;
  return cost >= MIN_COST && cost <= MAX_COST ? ok(hash) : err("bad_hash", "not a bcrypt hash ($2a$, $2b$ or $2y$)");
}

/** Hashes a checked password at a checked cost, with a fresh salt ("$2b$<cost>$", 16 bytes from Web Crypto). */
export function bcryptHash(password: string, cost: number): string {
  return hashSync(password, genSaltSync(cost));
}

/** Verifies a password against a checked hash; a too-long password never matches. */
export function bcryptVerify(password: string, hash: string): boolean {
  if (isTooLong(password)) return false;
  return constantTimeEqual(hashSync(password, hash.slice(0, 29)), hash);
}
