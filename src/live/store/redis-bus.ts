/**
 * The bus on Redis pub/sub (docs/deployment.md#the-bus), through node-redis (`redis`, an optional
 * peer dependency loaded only when this bus is chosen). node-redis is Redis's own client, released
 * with the server's features; ioredis says it is kept on a best-effort basis.
 *
 * Two connections: one publishes, one subscribes (a connection that subscribes sends nothing
 * else). Redis runs one command at a time, so a subscriber hears the PUBLISHes of every
 * connection in the order Redis ran them, and one connection's in the order it sent them: the
 * order broker-bus.ts needs. Both connections reconnect on their own, and the subscriber
 * subscribes again; each time it is ready again after a drop, the bus catches up (broker-bus.ts).
 * A publish while the publisher is down fails at once rather than waiting for the reconnect: a
 * frame sent late would follow frames sent after it.
 */
import { missingDriver } from "../../db/driver.ts";
import { log } from "../../log.ts";
import { BrokerBus, type LinkOptions } from "./broker-bus.ts";

/** How often each connection pings Redis, so that a connection cut without a reset is found. */
const PING_MS = 5000;

/** The part of a node-redis client this bus uses. */
interface RedisClientLike {
  connect(): Promise<unknown>;
  duplicate(): RedisClientLike;
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  destroy?(): void;
}
type RedisModule = { createClient(options: Record<string, unknown>): RedisClientLike };

/** Opens a bus on `url` ("redis://…", "rediss://…"), on `channel`; resolves once it is subscribed. */
export async function openRedisBus(url: string, { channel, large, inlineBytes }: LinkOptions): Promise<BrokerBus> {
  const redis = (await import("redis").catch(missingDriver("redis", "A Redis bus (redis:// URLs)"))) as unknown as RedisModule;
  const bus = new BrokerBus("Redis", large, inlineBytes);
  const publisher = redis.createClient({ url, pingInterval: PING_MS, disableOfflineQueue: true });
  const subscriber = publisher.duplicate();
  let readyOnce = false;
  let down = false;
  const onError = (error: unknown) => {
    // node-redis reports each failed reconnect; one line per outage is enough.
    if (down) return;
    down = true;
    log.warn(`live.bus (Redis) connection error, reconnecting: ${error instanceof Error ? error.message : String(error)}`);
  };
  publisher.on("error", onError);
  subscriber.on("error", onError);
  subscriber.on("ready", () => {
    down = false;
    if (!readyOnce) readyOnce = true;
    else void bus.reconnected();
  });
  publisher.on("ready", () => void (down = false));
  const end = async (client: RedisClientLike) => {
    try {
      await (client.close?.() ?? client.quit?.());
    } catch {
      client.destroy?.();
    }
  };
  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(channel, (message) => bus.receive(message));
  } catch (error) {
    await Promise.all([end(publisher), end(subscriber)]);
    throw error;
  }
  bus.attach({
    maxBytes: undefined,
    send: async (text) => void (await publisher.publish(channel, text)),
    close: async () => void (await Promise.all([end(publisher), end(subscriber)])),
  });
  return bus;
}
