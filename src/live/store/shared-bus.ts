/**
 * Which bus the replicas of a live app share (docs/deployment.md#the-bus), and opening it with its
 * store. Postgres NOTIFY is the default and needs nothing more. With Redis or NATS, frames,
 * takeovers and ends travel on the broker, published after their write commits, so no save takes
 * Postgres's notify lock; a user's access changes (a revoke, a disable) still travel on NOTIFY in
 * their write's own transaction (src/auth/access-events.ts), rare as they are, so each replica also
 * listens there. The two are one bus to the replica (`PairedBus`).
 */
import type { Db } from "../../db/db.ts";
import { CHANNEL_SQL } from "../../db/notify.ts";
import { SvcError } from "../../errors.ts";
import type { BusListener, BusMessage, LiveBus } from "./bus.ts";
import type { BrokerBus } from "./broker-bus.ts";
import { openNatsBus } from "./nats-bus.ts";
import { PostgresBus } from "./postgres-bus.ts";
import { PostgresLiveStore } from "./postgres.ts";
import { openRedisBus } from "./redis-bus.ts";

/**
 * The bus that carries frames and takeover notices between replicas: `"postgres"` (the default:
 * LISTEN/NOTIFY on the database), `{ redis: url }` or `{ nats: url }` (a broker, off Postgres's
 * commit path). `channel` names the Redis channel or NATS subject; by default it is the Postgres
 * channel's name, `svc:<schema>`, so apps in different schemas keep apart on one broker.
 * `inlineBytes`: a notice larger than this is kept in Postgres and sent by reference (by default
 * only one over the NATS server's max_payload; Redis takes any).
 */
export type SharedBusOption =
  | "postgres"
  | { readonly redis: string; readonly channel?: string; readonly inlineBytes?: number }
  | { readonly nats: string | readonly string[]; readonly channel?: string; readonly inlineBytes?: number };

const schemeOf = (url: string): string => {
  try {
    return new URL(url).protocol;
  } catch {
    return "";
  }
};

/** Throws SvcError "bad_config" for an option that names no bus this library has (checked when the app is built). */
export function checkBusOption(option: SharedBusOption): void {
  if (option === "postgres") return;
  const bad = (why: string) => new SvcError("bad_config", `withSharedSessions bus: ${why}`);
  if (typeof option !== "object" || option === null) throw bad(`expected "postgres", { redis: url } or { nats: url }`);
  if ("redis" in option) {
    if (!["redis:", "rediss:"].includes(schemeOf(option.redis))) throw bad("redis needs a redis:// or rediss:// URL");
  } else if ("nats" in option) {
    const urls = typeof option.nats === "string" ? [option.nats] : option.nats;
    if (urls.length === 0 || urls.some((url) => !["nats:", "tls:"].includes(schemeOf(url)))) {
      throw bad("nats needs nats:// or tls:// URLs");
    }
  } else throw bad(`expected "postgres", { redis: url } or { nats: url }`);
  if (option.inlineBytes !== undefined && !(Number.isInteger(option.inlineBytes) && option.inlineBytes >= 1024)) {
    throw bad("inlineBytes must be an integer of at least 1024");
  }
  if (option.channel !== undefined && (typeof option.channel !== "string" || !/^[\w:-]+$/.test(option.channel))) {
    throw bad("channel must be letters, digits, '_', ':' or '-'");
  }
}

/** A live app's store and bus on `db`, the bus as `option` says. */
export type SharedStoreAndBus = { readonly store: PostgresLiveStore; readonly bus: Promise<LiveBus> };

/** Makes the store at once (it waits for nothing) and opens the bus; the bus resolves once it listens. */
export function openSharedStore(db: Db, app: string, option: SharedBusOption = "postgres"): SharedStoreAndBus {
  if (option === "postgres") {
    const store = new PostgresLiveStore(db, app);
    return { store, bus: PostgresBus.open(db, store) };
  }
  let resolveBroker!: (bus: BrokerBus) => void;
  let rejectBroker!: (error: unknown) => void;
  const broker = new Promise<BrokerBus>((resolve, reject) => {
    resolveBroker = resolve;
    rejectBroker = reject;
  });
  // A bus that never opened fails each publish (logged by the store), rather than holding it.
  broker.catch(() => undefined);
  // The store publishes through the broker once it is open (it is before any session is stored).
  const store = new PostgresLiveStore(db, app, { notices: { publishText: (text) => broker.then((bus) => bus.publishText(text)) } });
  const large = { keep: (text: string) => store.keepPayload(text), fetch: (id: string) => store.framePayload(id) };
  const bus = (async () => {
    await store.ensureSchema();
    const named = await db.query({ sql: `SELECT ${CHANNEL_SQL} AS channel`, args: [] });
    if (!named.ok) throw named.error;
    const channel = option.channel ?? String(named.value[0]?.channel);
    const link = { channel, large, inlineBytes: option.inlineBytes };
    const opened = "redis" in option ? await openRedisBus(option.redis, link) : await openNatsBus(option.nats, link);
    resolveBroker(opened);
    try {
      return new PairedBus(opened, await PostgresBus.open(db, store));
    } catch (error) {
      await opened.close();
      throw error;
    }
  })();
  bus.catch(rejectBroker);
  return { store, bus };
}

/** A broker bus for what the library publishes, and Postgres NOTIFY for what writes to the users table publish. */
export class PairedBus implements LiveBus {
  readonly shared = true;
  constructor(private readonly broker: BrokerBus, private readonly postgres: PostgresBus) {}

  publish(message: BusMessage): Promise<void> {
    return this.broker.publish(message);
  }

  subscribe(listener: BusListener): () => void {
    const stops = [this.broker.subscribe(listener), this.postgres.subscribe(listener)];
    return () => stops.forEach((stop) => stop());
  }

  onResume(listener: () => void): () => void {
    const stops = [this.broker.onResume(listener), this.postgres.onResume(listener)];
    return () => stops.forEach((stop) => stop());
  }

  /** Frames and takeovers travel on the broker: what a takeover waits for is heard there. */
  heardUpTo(maxWaitMs: number): Promise<void> {
    return this.broker.heardUpTo(maxWaitMs);
  }

  async close(): Promise<void> {
    await Promise.all([this.broker.close(), this.postgres.close()]);
  }
}
