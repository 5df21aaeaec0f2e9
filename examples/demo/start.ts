/**
 * What every entry file does before it serves: apply .env, make sure there is a secret, read the
 * settings, open the database and build the app. The entry files pass in their runtime's way of
 * reading and writing the environment and the text of .env (or undefined when there is none).
 */
import { Db } from "../../src/mod.ts";
import { createDemo, type Demo } from "./app.ts";
import { applyDotenv, type DemoConfig, demoConfig, ensureSecret, type EnvReader, type EnvWriter, SECRET_ENV } from "./config.ts";

export type Started = { readonly demo: Demo; readonly db: Db; readonly config: DemoConfig; readonly notes: readonly string[] };

export function startDemo(env: EnvReader, set: EnvWriter, dotenv: string | undefined): Started {
  const notes: string[] = [];
  if (dotenv !== undefined) {
    applyDotenv(dotenv, env, set);
    notes.push("loaded .env");
  }
  if (ensureSecret(env, set) === "generated") {
    notes.push(
      `${SECRET_ENV} is not set: using a random secret for this process (development only; sessions end on restart). Run \`npx svc-live init\` or set it in .env.`,
    );
  }
  const config = demoConfig(env);
  const db = Db.open(config.databaseUrl);
  notes.push(
    `database: ${
      db.dialect === "postgres"
        ? `Postgres (DATABASE_URL); live sessions are shared, so this can be one replica of many; bus: ${
          config.bus === undefined ? "Postgres NOTIFY" : "redis" in config.bus ? "Redis (BUS_URL)" : "NATS (BUS_URL)"
        }`
        : config.databaseUrl.replace(/^file:/, "SQLite file ")
    }`,
  );
  // Live.app checks the secret at start and throws in production without one.
  const demo = createDemo({ db, bcryptCost: config.bcryptCost, ...(config.bus === undefined ? {} : { bus: config.bus }) });
  return { demo, db, config, notes };
}

export function banner(url: string, notes: readonly string[]): string {
  return [`svc demo listening on ${url}`, ...notes.map((note) => `  ${note}`)].join("\n");
}
