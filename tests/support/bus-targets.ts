/**
 * The buses the replica suites run on (docs/deployment.md#the-bus): Postgres NOTIFY, always there
 * with Postgres, and Redis and NATS when SVC_TEST_REDIS_URL and SVC_TEST_NATS_URL name a server
 * (CI starts both). Without a variable that bus's cases are skipped, and the reason is printed once.
 */
import process from "node:process";
import type { SharedBusOption } from "../../src/live/store/shared-bus.ts";

export const REDIS_URL = process.env.SVC_TEST_REDIS_URL;
export const NATS_URL = process.env.SVC_TEST_NATS_URL;

export type BusTarget = {
  readonly name: string;
  readonly option: SharedBusOption;
  /** Set when this bus cannot run here; its cases are skipped with this reason. */
  readonly skip: string | undefined;
};

const REDIS_SKIP = REDIS_URL ? undefined : "SVC_TEST_REDIS_URL is not set, so the Redis bus cases are skipped";
const NATS_SKIP = NATS_URL ? undefined : "SVC_TEST_NATS_URL is not set, so the NATS bus cases are skipped";

let warned = false;

/** Postgres NOTIFY, Redis, NATS. `inlineBytes`: passed to the brokers (a test lowers it to send notices by reference). */
export function busTargets({ inlineBytes }: { readonly inlineBytes?: number } = {}): BusTarget[] {
  if (!warned) {
    warned = true;
    for (const reason of [REDIS_SKIP, NATS_SKIP]) if (reason !== undefined) console.log(`# ${reason}`);
  }
  const extra = inlineBytes === undefined ? {} : { inlineBytes };
  return [
    { name: "Postgres NOTIFY", option: "postgres", skip: undefined },
    { name: "Redis", option: { redis: REDIS_URL ?? "redis://unset", ...extra }, skip: REDIS_SKIP },
    { name: "NATS", option: { nats: NATS_URL ?? "nats://unset", ...extra }, skip: NATS_SKIP },
  ];
}

/** A bus option as the replica processes read it from SVC_TEST_BUS (tests/support/replica-main.ts). */
export const busEnv = (option: SharedBusOption): Record<string, string> => ({ SVC_TEST_BUS: JSON.stringify(option) });
