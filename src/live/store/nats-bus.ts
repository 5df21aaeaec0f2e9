/**
 * The bus on NATS core pub/sub (docs/deployment.md#the-bus), through `@nats-io/transport-node`,
 * an optional peer dependency loaded only when this bus is chosen (Node, Bun and Deno all run it).
 *
 * One connection publishes and subscribes. NATS delivers a publisher's messages in the order it
 * sent them, and a subscriber hears the server's messages in the order the server routed them:
 * the order broker-bus.ts needs. The client reconnects for ever and subscribes again by itself;
 * each time it is back, the bus catches up (broker-bus.ts). A publish while the connection is down
 * fails at once rather than sitting in the client's reconnect buffer: a frame sent late would
 * follow frames sent after it. A notice over the server's max_payload (1 MB by default) travels by
 * reference, as over NOTIFY.
 */
import { missingDriver } from "../../db/driver.ts";
import { log } from "../../log.ts";
import { BrokerBus, type LinkOptions } from "./broker-bus.ts";

/** How often the client pings the server, and how many may go unanswered before it reconnects. */
const PING_MS = 5000;
const MAX_PINGS_OUT = 2;

/** The part of a NATS connection this bus uses. */
interface NatsConnectionLike {
  readonly info?: { readonly max_payload?: number };
  publish(subject: string, payload: string): void;
  subscribe(subject: string, options: { callback: (error: Error | null, message: { string(): string }) => void }): unknown;
  flush(): Promise<void>;
  status(): AsyncIterable<{ readonly type: string }>;
  close(): Promise<void>;
}
type NatsModule = { connect(options: Record<string, unknown>): Promise<NatsConnectionLike> };

/** Opens a bus on the NATS `servers` ("nats://host:port", or several of one cluster), on `subject`. */
export async function openNatsBus(
  servers: string | readonly string[],
  { channel: subject, large, inlineBytes }: LinkOptions,
): Promise<BrokerBus> {
  const nats = (await import("@nats-io/transport-node").catch(
    missingDriver("@nats-io/transport-node", "A NATS bus (nats:// URLs)"),
  )) as unknown as NatsModule;
  const bus = new BrokerBus("NATS", large, inlineBytes);
  const connection = await nats.connect({
    servers: typeof servers === "string" ? servers : [...servers],
    maxReconnectAttempts: -1,
    pingInterval: PING_MS,
    maxPingOut: MAX_PINGS_OUT,
  });
  let down = false;
  connection.subscribe(subject, {
    callback: (error, message) => {
      if (error === null) bus.receive(message.string());
    },
  });
  // The subscription is in place once the server answered a flush sent after it.
  try {
    await connection.flush();
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === "disconnect" && !down) {
        down = true;
        log.warn("live.bus (NATS) connection lost, reconnecting");
      } else if (status.type === "reconnect") {
        down = false;
        void bus.reconnected();
      }
    }
  })();
  bus.attach({
    maxBytes: connection.info?.max_payload,
    send: (text) => {
      if (down) return Promise.reject(new Error("the NATS connection is down"));
      connection.publish(subject, text);
      return Promise.resolve();
    },
    close: () => connection.close(),
  });
  return bus;
}
