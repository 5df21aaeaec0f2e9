/**
 * The demo's settings, read from the environment (docs/auth.md#secrets):
 *
 *   SVC_AUTH_TOKEN_SECRET   the HMAC secret, at least 32 bytes. In development, when it is unset,
 *                           the entry file fills in a random one for this process (sessions end
 *                           with the process); with the production gate on (NODE_ENV or ENV=production) the
 *                           app refuses to start without one.
 *   DATABASE_URL            Postgres (postgres://…); unset: SQLite in ./demo.db
 *   BUS_URL                 with Postgres, the bus between replicas (docs/deployment.md#the-bus):
 *                           redis://… (npm install redis) or nats://… (npm install
 *                           @nats-io/transport-node); unset: Postgres LISTEN/NOTIFY
 *   SVC_DEMO_BCRYPT_COST    bcrypt cost of new passwords; default 12 (the tests use 4)
 *   PORT                    default 8787
 *
 * Pure: the entry files pass in how to read and write the environment of their runtime.
 */
import { Server } from "../../src/mod.ts";

export const SECRET_ENV = "SVC_AUTH_TOKEN_SECRET";

export type EnvReader = (name: string) => string | undefined;
export type EnvWriter = (name: string, value: string) => void;

/** The bus between replicas a BUS_URL names; undefined: Postgres LISTEN/NOTIFY, the default. */
export type DemoBus = { readonly redis: string } | { readonly nats: string } | undefined;

export type DemoConfig = {
  readonly databaseUrl: string;
  readonly bus: DemoBus;
  readonly bcryptCost: number;
  readonly port: number;
};

export function demoConfig(env: EnvReader): DemoConfig {
  const cost = Number(env("SVC_DEMO_BCRYPT_COST") || 12);
  const port = Number(env("PORT") || 8787);
  if (!Number.isInteger(cost) || cost < 4 || cost > 31) throw new TypeError("SVC_DEMO_BCRYPT_COST must be a whole number from 4 to 31");
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError("PORT must be a port number");
  return { databaseUrl: env("DATABASE_URL") || "file:demo.db", bus: busOf(env("BUS_URL")), bcryptCost: cost, port };
}

function busOf(url: string | undefined): DemoBus {
  if (!url) return undefined;
  if (/^rediss?:\/\//.test(url)) return { redis: url };
  if (/^(nats|tls):\/\//.test(url)) return { nats: url };
  throw new TypeError("BUS_URL must be a redis://, rediss://, nats:// or tls:// URL");
}

/**
 * A `.env` file's assignments (`NAME=value`, optional `export `, `#` comments, single or double
 * quotes). Variables already set in the environment win, as with every dotenv loader.
 */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!;
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, "");
    out[match[1]!] = value;
  }
  return out;
}

/** Sets what a .env file holds, leaving variables that are already set alone. */
export function applyDotenv(text: string, env: EnvReader, set: EnvWriter): void {
  for (const [name, value] of Object.entries(parseDotenv(text))) if (env(name) === undefined) set(name, value);
}

/** 32 random bytes, base64url: a secret of 43 characters. */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Makes sure the sliding middleware will find a secret: in development with none set, a random
 * one for this process. Returns what happened, for the start-up message. In production nothing is
 * generated, so the app's start-up check refuses to run without a real secret.
 */
export function ensureSecret(env: EnvReader, set: EnvWriter): "set" | "generated" | "missing" {
  if (env(SECRET_ENV)) return "set";
  if (Server.productionGateOn()) return "missing";
  set(SECRET_ENV, randomSecret());
  return "generated";
}
