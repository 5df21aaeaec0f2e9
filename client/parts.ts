/**
 * The parts of the live client that its send queue (client/send-queue.ts) and its recovery
 * (client/recovery.ts) both read: LiveClient (client/client.ts) makes one of each.
 */
import type { InputTable } from "./inputs.ts";
import type { FrameOrder } from "./order.ts";
import type { Transport } from "./transport.ts";

/** The per-input state, the frames in order, and the transport of one live page. */
export type ClientParts = {
  readonly inputs: InputTable;
  readonly order: FrameOrder;
  readonly transport: Transport;
};
