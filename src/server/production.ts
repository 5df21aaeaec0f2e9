/**
 * The production gate and the secret check at start (docs/auth.md#secrets and
 * docs/auth.md#tokens 6).
 *
 * The gate is on when ENV, or <PREFIX>_ENV for an app with a prefix, is set to anything other than
 * dev, development or local. The app's own <PREFIX>_ENV wins over ENV when both are set.
 */
import { err, ok, type Result } from "../result.ts";
import { readEnv } from "../runtime/env.ts";
import { MIN_SECRET_BYTES } from "../auth/secret.ts";

/** The literal, unprefixed name the production gate reads (docs/auth.md#secrets). */
export const SECRET_ENV = "SVC_AUTH_TOKEN_SECRET";
const developmentNames = new Set(["dev", "development", "local"]);

function envName(prefix: string | undefined): string | undefined {
  if (prefix === undefined || prefix === "") return undefined;
  return `${prefix.replace(/_+$/, "").toUpperCase()}_ENV`;
}

/** Whether the production gate is on, read from the environment now. */
export function productionGateOn(prefix?: string): boolean {
  const prefixed = envName(prefix);
  const value = (prefixed !== undefined ? readEnv(prefixed) : undefined) || readEnv("ENV");
  if (value === undefined || value.trim() === "") return false;
  return !developmentNames.has(value.trim().toLowerCase());
}

/**
 * Whether the process may start: a set SVC_AUTH_TOKEN_SECRET under 32 bytes never may; a missing
 * one may not when the gate is on. The error names the variable and never its value. The secret
 * is only ever read from the environment.
 */
export function checkSecretAtStart(prefix?: string): Result<void> {
  const value = readEnv(SECRET_ENV);
  if (value === undefined || value === "") {
    return productionGateOn(prefix)
      ? err("secret_missing", `${SECRET_ENV} is not set, and the production gate is on (${envName(prefix) ?? "ENV"}); refusing to start`)
      : ok();
  }
  const bytes = new TextEncoder().encode(value).length;
  return bytes < MIN_SECRET_BYTES
    ? err("secret_too_short", `${SECRET_ENV} is ${bytes} bytes; it must be at least ${MIN_SECRET_BYTES}; refusing to start`)
    : ok();
}
