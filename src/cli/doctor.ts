/**
 * `svc-live doctor <app module>`: checks an application before it ships.
 *
 *   secret      SVC_AUTH_TOKEN_SECRET: set and at least 32 bytes (docs/auth.md#secrets);
 *               missing is an error when the production gate is on, a warning otherwise.
 *   production  whether the production gate is on, and the variable and value it read.
 *   gate        for each live app the module exports, or built while it loaded (a factory that a
 *               server entry calls): whether .withRevocation is enabled, and the
 *               unbound-session lint: a gate with neither withAuthSliding nor a call of
 *               Live.bindSessionUser in the module can never evict anyone (docs/auth.md#live-sessions-and-the-gate
 *               session: an unbound session at an enabled gate is never silently allowed).
 *
 * This file is the pure part: it judges what the command line loaded and returns findings.
 */
import { LiveApp } from "../live/server/app/app.ts";
import { checkSecretAtStart, productionSignal, SECRET_ENV } from "../server/production.ts";
import { readEnv } from "../runtime/env.ts";

export type Finding = { readonly level: "ok" | "warn" | "error"; readonly check: string; readonly message: string };

export type DoctorInput = {
  /** The imported app module's exports. */
  readonly exports: Record<string, unknown>;
  /** The module's source text, for the binding lint. */
  readonly source: string;
  /** The app's <PREFIX>_ENV prefix, when it has one. */
  readonly prefix?: string;
  /** The live apps built while the module loaded, exported or not. */
  readonly built?: readonly LiveApp<unknown>[];
};

function liveAppsOf(exports: Record<string, unknown>, built: readonly LiveApp<unknown>[]): Array<[string, LiveApp<unknown>]> {
  const found: Array<[string, LiveApp<unknown>]> = [];
  for (const [name, value] of Object.entries(exports)) {
    if (value instanceof LiveApp) found.push([name, value]);
    const nested = (value as { app?: unknown } | null)?.app;
    if (nested instanceof LiveApp) found.push([`${name}.app`, nested]);
  }
  const named = new Set(found.map(([, app]) => app));
  built.filter((app) => !named.has(app)).forEach((app, i) => found.push([`the live app built on import (${i + 1})`, app]));
  return found;
}

/** Where to point doctor when the module only exports a factory. */
function noAppHint(exports: Record<string, unknown>): string {
  const factories = Object.entries(exports).filter(([, value]) => typeof value === "function").map(([name]) => name);
  if (factories.length === 0) return "export the value Live.app(...) returns, or point doctor at the module that builds it";
  return `${factories.join(", ")} ${factories.length === 1 ? "is a function" : "are functions"} that doctor does not call: ` +
    "point doctor at the module that calls it (your server entry: svc-live doctor server.ts), or export the live app";
}

export function doctor(input: DoctorInput): Finding[] {
  const findings: Finding[] = [];
  const signal = productionSignal(input.prefix);
  const read = signal.variable === undefined
    ? `none of ${input.prefix ? `${input.prefix.toUpperCase()}_ENV, ` : ""}ENV and NODE_ENV is set`
    : `read ${signal.variable}=${signal.value}`;
  findings.push({
    level: "ok",
    check: "production",
    message: signal.on ? `the production gate is on (${read})` : `the production gate is off, development (${read})`,
  });

  const secret = checkSecretAtStart(input.prefix);
  if (!secret.ok) findings.push({ level: "error", check: "secret", message: secret.error.message });
  else {findings.push({
      level: "ok",
      check: "secret",
      message: readEnv(SECRET_ENV)
        ? `${SECRET_ENV} is set and at least 32 bytes`
        : `${SECRET_ENV} is not set: fine in development, where a random key signs this process's CSRF tokens; production refuses to start without it`,
    });}

  const apps = liveAppsOf(input.exports, input.built ?? []);
  if (apps.length === 0) {
    findings.push({ level: "warn", check: "gate", message: `no live app found in the module: ${noAppHint(input.exports)}` });
  }
  const bindsInCode = /\bbindSessionUser\s*\(/.test(input.source);
  const authInCode = /\.withAuth(Sliding)?\s*\(/.test(input.source);
  for (const [name, app] of apps) {
    const { gate, sliding } = app.describe();
    if (!gate && !sliding && !bindsInCode && !authInCode) {
      // No session is ever a user's: there is nobody for a revocation to sign out.
      findings.push({
        level: "ok",
        check: "gate",
        message:
          `${name}: no session is bound to a user (no withAuth, withAuthSliding or Live.bindSessionUser), so there is nothing to revoke`,
      });
    } else if (!gate) {
      findings.push({
        level: "warn",
        check: "gate",
        message: `${name}: the revocation gate is off (.withRevocation(db) not called): revoke and disable do not end live sessions`,
      });
    } else if (!sliding && !bindsInCode) {
      findings.push({
        level: "error",
        check: "gate",
        message:
          `${name}: the gate is on but no session is ever bound (no withAuthSliding, no Live.bindSessionUser call): every session stays unbound and the gate can never evict anyone`,
      });
    } else {
      findings.push({
        level: "ok",
        check: "gate",
        message: `${name}: the gate is on and sessions bind ${sliding ? "from the sliding token" : "through Live.bindSessionUser"}`,
      });
    }
  }
  return findings;
}
