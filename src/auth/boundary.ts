/**
 * The runtime type boundary of the Auth kernels (docs/auth.md#boundary-checks).
 *
 * TypeScript already refuses a non-string in a String slot; this guards untyped JavaScript
 * callers. The caller gets only "<kernel>: expected String"; the real type goes to the server log
 * as one audit line and never into the error.
 */
import { log } from "../log.ts";
import { err, ok, type Result } from "../result.ts";

export type Kernel =
  | "hashPassword"
  | "hashPasswordCost"
  | "verifyPassword"
  | "passwordStrength"
  | "signToken"
  | "verifyToken"
  | "signSlidingToken"
  | "register"
  | "login"
  | "setRole";

function jsTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

export function expectString(kernel: Kernel, value: unknown): Result<string> {
  if (typeof value === "string") return ok(value);
  log.warn(`auth.boundary kernel=${kernel} jsType=${jsTypeOf(value)} reason=non-string-arg`);
  return err("expected_string", `${kernel}: expected String`);
}

/** Checks every string slot of one call; the first non-string decides. */
export function expectStrings(kernel: Kernel, ...values: unknown[]): Result<void> {
  for (const value of values) {
    const checked = expectString(kernel, value);
    if (!checked.ok) return checked;
  }
  return ok();
}
