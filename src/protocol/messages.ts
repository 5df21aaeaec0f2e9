/**
 * The protocol's message shapes: the event request body, its entries and input reports, and the
 * frame that event replies and SSE events share (docs/protocol.md#event-request,
 * docs/protocol.md#event-reply, docs/protocol.md#sse-stream). The client builds and the server
 * parses exactly these types, so a field name is spelled here only.
 */
import type { JsonValue } from "../json.ts";
import type { Patch } from "./markup.ts";

/** One input's value as the client last saw it, and the client seq of its last change (docs/protocol.md#input-state). */
export type InputReport = { readonly value: string; readonly seq: number };

/** Every input the client considers dirty, by node id. */
export type InputState = Readonly<Record<string, InputReport>>;

/** One user event: a message, its arguments and the handler element that sent it (docs/protocol.md#event-request). */
export type EventEntry = {
  /** The client's event seq: 1 for the page's first event, then one more for each. */
  readonly seq: number;
  readonly msg: string;
  readonly args: readonly JsonValue[];
  /** The svc-id of the element whose handler sent it. */
  readonly handlerId: string | undefined;
};

/**
 * The JSON body of POST /_svc/event: one entry at the top level, or several in `batch`
 * (docs/protocol.md#batches). Every field is optional on the wire; a missing seq reads as 0.
 */
export type EventRequest = Partial<EventEntry> & {
  /** Advisory: the cookie chooses the session (docs/protocol.md#sessions-and-cookies). */
  readonly sessionId?: string;
  /** One page load of the client; with it a seq sent twice is processed once (docs/protocol.md#event-request). */
  readonly page?: string;
  readonly inputState?: InputState;
  readonly batch?: readonly EventEntry[];
  /**
   * The seq of the last frame the client had applied when it built the body: its handler and input
   * ids are ids of that tree, and the server maps them onto its own (docs/protocol.md#ids-that-move).
   */
  readonly lastAppliedSeq?: number;
  /** Only in the unload beacon, which cannot set the CSRF header (docs/protocol.md#csrf). */
  readonly csrf?: string;
};

/** The body fields of an event request, for the server's parser. */
export type EventRequestField = keyof EventRequest;

/**
 * What one patch of a frame did to ids (docs/protocol.md#ids-that-move), as a render's X-Svc-Moves
 * header lists them: a kids list's kept children as [old id, new id] pairs (children not kept
 * left), or an element that left (removed or replaced).
 */
export type Move = { readonly parent: string; readonly kept: readonly (readonly [string, string])[] } | { readonly gone: string };

/** Acks: per input id, the largest reported seq the server has processed (docs/protocol.md#input-state). */
export type InputAcks = Readonly<Record<string, number>>;

/**
 * An event reply's JSON body, and the data of an SSE `patch` event (docs/protocol.md#event-reply).
 * Both carry the session's one counter, `seq`.
 */
export type Frame = {
  /** The session's counter after this frame (docs/protocol.md#sequence-numbers). */
  readonly seq: number;
  /** Per form control, the last input seq the server has applied (docs/protocol.md#input-state). */
  readonly ackInputs?: InputAcks;
  /** The request seq answered; only on event replies, never on SSE frames. */
  readonly respondingTo?: number;
  /** The patches to apply, in order. */
  readonly patches: readonly Patch[];
};

/**
 * The SSE events of GET /_svc/subscribe (docs/protocol.md#sse-stream): a frame; a full render for
 * a stream that resumed from a point the server no longer holds; and, first on a stream opened
 * without Last-Event-ID, the session's current seq (docs/protocol.md#resume); and the session-lost
 * signal, sent when the session ended or was evicted while the stream was open, before the stream
 * closes for good (the client reloads, docs/protocol.md#errors-and-statuses).
 */
export const SSE_EVENTS = { frame: "patch", render: "render", sync: "sync", lost: "lost" } as const;

/**
 * The data of a `render` event: the root element's markup at session seq `seq`. When the stream
 * resumed from a frame the session's log of ids still reaches (`since`, its Last-Event-ID), it
 * carries what the frames since then did to ids (`moves`, as X-Svc-Moves) and the session's stored
 * input seqs (`ackInputs`, as X-Svc-Ack-Inputs), as a render asked for with `?since=` does
 * (docs/protocol.md#resume).
 */
export type RenderEvent = {
  readonly seq: number;
  readonly html: string;
  readonly since?: number;
  readonly moves?: readonly Move[];
  readonly ackInputs?: InputAcks;
};

/** The data of a `sync` event: the session's seq when the stream opened. */
export type SyncEvent = { readonly seq: number };

/** How many of a session's latest frames the server keeps to replay to a resuming stream. */
export const RESUME_FRAMES = 16;
