/**
 * The production gate and the secret checks at start (docs/auth.md#production-gate,
 * docs/auth.md#secrets).
 *
 * The gate reads three signals, the first one set deciding: `<PREFIX>_ENV` (for an app with a
 * prefix), then `ENV`, each on for any value but dev, development or local; then `NODE_ENV`, on for
 * `production` only (its other common values, `development` and `test`, leave the gate off). So an
 * app's own variable wins over `ENV`, and `ENV` over `NODE_ENV`.
 */
import { err, ok, type Result } from "../result.ts";
import { readEnv } from "../runtime/env.ts";
import { byteLength, isUnsetEnvSecret, MIN_SECRET_BYTES, Secret } from "../auth/secret.ts";
import { SvcError } from "../errors.ts";

/** The literal, unprefixed name the production gate reads (docs/auth.md#secrets). */
export const SECRET_ENV = "SVC_AUTH_TOKEN_SECRET";
const developmentNames = new Set(["dev", "development", "local"]);

/** What the production gate read: whether it is on, and the variable and value that decided it. */
export type ProductionSignal = {
  /** Whether the gate is on. */
  readonly on: boolean;
  /** The variable that decided (`MYAPP_ENV`, `ENV` or `NODE_ENV`), or undefined when none is set. */
  readonly variable: string | undefined;
  /** That variable's value, trimmed. */
  readonly value: string | undefined;
};

function envName(prefix: string | undefined): string | undefined {
  if (prefix === undefined || prefix === "") return undefined;
  return `${prefix.replace(/_+$/, "").toUpperCase()}_ENV`;
}

/**
 * The production gate as the environment sets it now, with the variable that decided it.
 *
 * @param prefix the app's `<PREFIX>_ENV` prefix, when it has one
 * @example
 * ```ts
 * import { Server } from "svc-live/server";
 *
 * const gate = Server.productionSignal();
 * console.log(gate.on ? `production (${gate.variable}=${gate.value})` : "development");
 * ```
 */
export function productionSignal(prefix?: string): ProductionSignal {
  for (const variable of [envName(prefix), "ENV"]) {
    if (variable === undefined) continue;
    const value = readEnv(variable)?.trim();
    if (value === undefined || value === "") continue;
    return { on: !developmentNames.has(value.toLowerCase()), variable, value };
  }
  const node = readEnv("NODE_ENV")?.trim();
  if (node === undefined || node === "") return { on: false, variable: undefined, value: undefined };
  return { on: node.toLowerCase() === "production", variable: "NODE_ENV", value: node };
}

/**
 * Whether the production gate is on, read from the environment now.
 *
 * @param prefix the app's `<PREFIX>_ENV` prefix, when it has one (docs/auth.md#production-gate)
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 *
 * // Demo accounts only outside production.
 * if (!Server.productionGateOn("SHOP")) console.log("seeding demo users");
 * ```
 */
export function productionGateOn(prefix?: string): boolean {
  return productionSignal(prefix).on;
}

/** How a refusal names the signal: `NODE_ENV=production`. */
function signalText(signal: ProductionSignal): string {
  return signal.variable === undefined ? "no production signal" : `${signal.variable}=${signal.value}`;
}

/** What to do about a missing secret, in every message that reports one. */
function howToSet(name: string): string {
  return `set ${name} to at least ${MIN_SECRET_BYTES} random bytes (npx svc-live init writes one into .env)`;
}

/**
 * Whether the process may start: a set SVC_AUTH_TOKEN_SECRET under 32 bytes never may; a missing
 * one may not when the gate is on. The error names the variable, the signal that turned the gate
 * on and what to set, and never the value. The secret is only ever read from the environment.
 *
 * @param prefix the app's `<PREFIX>_ENV` prefix, when it has one
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 *
 * const started = Server.checkSecretAtStart();
 * if (!started.ok) {
 *   console.error(started.error.message); // names the variable and what to set, never its value
 *   throw started.error;
 * }
 * ```
 */
export function checkSecretAtStart(prefix?: string): Result<void> {
  const value = readEnv(SECRET_ENV);
  if (value === undefined || value === "") {
    const signal = productionSignal(prefix);
    return signal.on
      ? err("secret_missing", `${SECRET_ENV} is not set, and the production gate is on (${signalText(signal)}); ${howToSet(SECRET_ENV)}`)
      : ok();
  }
  const bytes = new TextEncoder().encode(value).length;
  return bytes < MIN_SECRET_BYTES
    ? err("secret_too_short", `${SECRET_ENV} is ${bytes} bytes; it must be at least ${MIN_SECRET_BYTES}; refusing to start`)
    : ok();
}

/**
 * Resolves the secret a builder was given when the builder is called (`Server.slidingSession`,
 * `Server.tokenSession`, `Server.withAuthSliding`, `Live.app`): a secret shorter than 32 bytes
 * throws `secret_too_short`; a variable that is not set throws `secret_missing` while the
 * production gate is on, so a server without its secret fails at start rather than at its first
 * sign-in. In development a missing variable is read again at each request.
 *
 * @param who the builder, for the message (`Server.slidingSession`)
 * @param source the `Secret`, or the name of the variable that holds it
 * @param prefix the app's `<PREFIX>_ENV` prefix, when it has one
 * @throws {SvcError} `secret_missing` or `secret_too_short`, naming the variable and never its value
 */
export function requireSecretAtStart(who: string, source: Secret | string, prefix?: string): void {
  const name = typeof source === "string" ? source : source.source.startsWith("env ") ? source.source.slice(4) : undefined;
  const secret = typeof source === "string" ? Secret.fromEnv(source) : source;
  if (isUnsetEnvSecret(secret)) {
    const signal = productionSignal(prefix);
    if (!signal.on) return;
    const variable = name ?? "the secret's variable";
    throw new SvcError(
      "secret_missing",
      `${who}: ${variable} is not set, and the production gate is on (${signalText(signal)}); ${howToSet(variable)}`,
    );
  }
  const bytes = byteLength(secret);
  if (bytes < MIN_SECRET_BYTES) {
    throw new SvcError(
      "secret_too_short",
      `${who}: the secret (${secret.source}) is ${bytes} bytes; it must be at least ${MIN_SECRET_BYTES} bytes`,
    );
  }
}
