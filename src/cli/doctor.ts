/**
 * `svc-live doctor <app module>`: checks an application before it ships.
 *
 *   secret      SVC_AUTH_TOKEN_SECRET: set and at least 32 bytes (docs/auth.md#secrets);
 *               missing is an error when the production gate is on, a warning otherwise.
 *   production  whether the production gate is on, and which variable turned it on.
 *   gate        for each live app the module exports: whether .withRevocation is enabled, and the
 *               unbound-session lint: a gate with neither withAuthSliding nor a call of
 *               Live.bindSessionUser in the module can never evict anyone (docs/auth.md#live-sessions-and-the-gate
 *               session: an unbound session at an enabled gate is never silently allowed).
 *
 * This file is the pure part: it judges what the command line loaded and returns findings.
 */
import { LiveApp } from "../live/server/app/app.ts";
import { checkSecretAtStart, productionGateOn } from "../server/production.ts";

export type Finding = { readonly level: "ok" | "warn" | "error"; readonly check: string; readonly message: string };

export type DoctorInput = {
  /** The imported app module's exports. */
  readonly exports: Record<string, unknown>;
  /** The module's source text, for the binding lint. */
  readonly source: string;
  /** The app's <PREFIX>_ENV prefix, when it has one. */
  readonly prefix?: string;
};

function liveAppsOf(exports: Record<string, unknown>): Array<[string, LiveApp<unknown>]> {
  const found: Array<[string, LiveApp<unknown>]> = [];
  for (const [name, value] of Object.entries(exports)) {
    if (value instanceof LiveApp) found.push([name, value]);
    const nested = (value as { app?: unknown } | null)?.app;
    if (nested instanceof LiveApp) found.push([`${name}.app`, nested]);
  }
  return found;
}

export function doctor(input: DoctorInput): Finding[] {
  const findings: Finding[] = [];
  const production = productionGateOn(input.prefix);
  findings.push({
    level: "ok",
    check: "production",
    message: production
      ? "the production gate is on (ENV or <PREFIX>_ENV is set to a production value)"
      : "the production gate is off (development)",
  });

  const secret = checkSecretAtStart(input.prefix);
  if (!secret.ok) findings.push({ level: "error", check: "secret", message: secret.error.message });
  else {findings.push({
      level: "ok",
      check: "secret",
      message: "SVC_AUTH_TOKEN_SECRET is acceptable (set and at least 32 bytes, or not needed outside production)",
    });}

  const apps = liveAppsOf(input.exports);
  if (apps.length === 0) {
    findings.push({
      level: "warn",
      check: "gate",
      message: "no live app found among the module's exports (export the value Live.app(...) returns)",
    });
  }
  const bindsInCode = /\bbindSessionUser\s*\(/.test(input.source);
  for (const [name, app] of apps) {
    const { gate, sliding } = app.describe();
    if (!gate) {
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
