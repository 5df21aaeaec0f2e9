/**
 * The client's send queue (docs/protocol.md#client-rules).
 *
 * Messages go out one at a time, in the order the user caused them, each with the next client seq
 * and the inputState snapshot of every dirty input. One request in flight keeps the server's
 * processing order equal to the user's order over any number of connections: two input events
 * posted at once could otherwise reach the server swapped, and the older value would win. While a
 * request is in flight, a newer input send of the same handler replaces a queued one (the value is
 * read when the request is posted, so nothing typed is lost). Before any other message, pending
 * debounced input sends are queued first, so the server sees the typed values before the message
 * (G2). A click on an anchor, and the tab's unload, send every pending message at once as one
 * `batch` (fetch with keepalive, or a beacon with the CSRF token in the body, rules 8 and 9). That
 * batch also carries, first and under its own seq, the event still in flight: the batch may reach
 * the server before it (another connection), and the navigation message must not overtake the
 * value before it, nor may that value be lost if the navigation aborts its request.
 */
import type { EventEntry } from "../src/protocol/mod.ts";
import { BUSY_ATTR, type Control, eventValue, type Json, reportedForm } from "./dom.ts";
import { handlerIdOf, type InputEntry, reportValue, type Send } from "./inputs.ts";
import type { ClientParts } from "./parts.ts";
import type { BatchBody, EventBody } from "./transport.ts";

/**
 * The request in flight: its entry, and its send (whose handler id a navigation batch re-reads);
 * `carried` once a batch has carried it again.
 */
type InFlight = { readonly entry: EventEntry; readonly send: Send; carried?: boolean };

/** What the queue asks of the rest of the client. */
export type QueueHooks = {
  /** The client has stopped for good (the page is reloading). */
  readonly halted: () => boolean;
  /** The stream reported the session lost while an event was in flight. */
  readonly lostAfterReply: () => boolean;
  /** The session is gone: reload the page. */
  readonly lost: (why: string) => void;
};

/** The parts of the client the queue reads and drives. */
export type QueueParts = ClientParts & { readonly doc: Document; readonly hooks: QueueHooks };

/** Sends in the user's order, one request in flight (docs/protocol.md#client-rules). */
export class SendQueue {
  /** The last client event seq used (docs/protocol.md#sequence-numbers); the first event is 1. */
  seq = 0;
  /** Sends waiting for the request in flight. */
  readonly queue: Send[] = [];
  /** The entry of the request in flight, re-sent ahead of a navigation batch. */
  private inFlight: InFlight | undefined;

  constructor(private readonly parts: QueueParts) {}

  /** An event is on its way (its reply not yet in). */
  get flying(): boolean {
    return this.inFlight !== undefined;
  }

  /** Schedules an input send for an entry: after its debounce, or at once for `ms` <= 0. */
  schedule(entry: InputEntry, send: Send, ms: number): void {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.pending = send;
    if (ms <= 0) this.enqueue(send);
    else {entry.timer = setTimeout(() => {
        entry.timer = undefined;
        this.enqueue(send);
      }, ms);}
  }

  /** Sends the pending debounced send of one entry now (blur). */
  flushEntry(entry: InputEntry): void {
    if (entry.timer === undefined) return;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.pending !== undefined) this.enqueue(entry.pending);
  }

  /** A message caused by the user: pending typed values go first (G2), then the message. */
  dispatch(send: Send): void {
    this.flushDebounced({ pump: true });
    this.enqueue(send);
  }

  /** Queues every pending debounced send (timers cleared); `pump`: post the next one. */
  flushDebounced({ pump }: { pump: boolean }): void {
    for (const entry of this.parts.inputs.entries.values()) {
      if (entry.timer === undefined) continue;
      clearTimeout(entry.timer);
      entry.timer = undefined;
      if (entry.pending !== undefined) this.enqueue(entry.pending, { pump });
    }
  }

  /** Queues one send, and posts the next one unless `pump` is false. */
  enqueue(send: Send, { pump = true }: { pump?: boolean } = {}): void {
    if (this.parts.hooks.halted()) return;
    const last = this.queue[this.queue.length - 1];
    // A newer value of the same input handler supersedes a queued one: the value is read at post
    // time. Not a change, which posts the value it was made with (Send.value).
    if (
      send.control !== undefined && send.value === undefined && last !== undefined && last.control === send.control &&
      last.kind === send.kind && last.msg === send.msg && last.value === undefined
    ) {
      this.queue[this.queue.length - 1] = send;
    } else if (!this.queue.includes(send)) this.queue.push(send);
    if (pump) this.pump();
  }

  /**
   * docs/protocol.md#client-rules 8: a click on an anchor sends every pending message now, in one keepalive batch
   * that survives the navigation, without the loader and without preventing the default.
   */
  navigate(extra: Send | undefined): void {
    this.flushDebounced({ pump: false });
    const sends = this.queue.splice(0);
    if (extra !== undefined) sends.push(extra);
    // The request in flight goes too, even alone: the navigation may abort it (and a proxy then
    // drop it before the server reads it), and the server processes its seq once.
    if ((sends.length === 0 && !this.uncarried()) || this.parts.hooks.halted()) return;
    this.parts.transport.postKeepalive(this.batch(sends));
  }

  /** docs/protocol.md#client-rules 8 and 9: on unload, every pending send in one beacon batch, CSRF in the body. */
  unload(): void {
    if (this.parts.hooks.halted()) return;
    this.flushDebounced({ pump: false });
    const sends = this.queue.splice(0);
    // As in navigate: the request in flight is re-sent even when nothing else is pending, unless
    // a navigation's batch carried it already.
    if ((sends.length === 0 && !this.uncarried()) || !this.parts.transport.canBeacon) return;
    this.parts.transport.beacon(this.batch(sends));
  }

  private batch(sends: Send[]): BatchBody {
    const first = this.seq + 1;
    const inputState = this.parts.inputs.snapshot(first);
    const fresh = sends.map((send): EventEntry => {
      const seq = ++this.seq;
      return { seq, msg: send.msg, args: this.argsOf(send), handlerId: handlerIdOf(send) };
    });
    // The entry in flight goes again under its own seq, its handler id read now like the others'.
    const flying = this.inFlight;
    if (flying !== undefined) flying.carried = true;
    const batch = flying === undefined ? fresh : [{ ...flying.entry, handlerId: handlerIdOf(flying.send) }, ...fresh];
    for (const send of sends) if (send.entry?.pending === send) send.entry.pending = undefined;
    const lastAppliedSeq = this.parts.order.lastAppliedSeq;
    return inputState === undefined ? { batch, lastAppliedSeq } : { inputState, batch, lastAppliedSeq };
  }

  /** A request is in flight that no batch has carried again yet. */
  private uncarried(): boolean {
    return this.inFlight !== undefined && this.inFlight.carried !== true;
  }

  /**
   * An input send posts the control's value as it is now, so a newer debounced send of the same
   * message for that control (typed while this one waited in the queue) would only repeat it. It is
   * dropped: left pending, it would keep the input dirty past the ack of the value it repeats, and
   * the frame answering that value (which may normalise it) would not be applied.
   */
  private dropRepeat(send: Send): void {
    const entry = send.entry;
    const later = entry?.pending;
    if (entry === undefined || later === undefined || later === send || send.control === undefined) return;
    // A change posts the value it was made with, so a later one is another act, not a repeat.
    if (send.value !== undefined || later.value !== undefined) return;
    if (later.control !== send.control || later.msg !== send.msg || later.kind !== send.kind) return;
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.pending = undefined;
    const queued = this.queue.indexOf(later);
    if (queued >= 0) this.queue.splice(queued, 1);
  }

  private argsOf(send: Send): Json[] {
    if (send.control === undefined) return send.args;
    if (send.value !== undefined) return [...send.args, send.value];
    const entry = send.entry;
    const value = entry?.composing ? reportValue(entry) : eventValue(send.control);
    return [...send.args, value];
  }

  /**
   * A control was replaced by another with its identity (a render without moves, client/carry.ts):
   * the sends that post its value, queued, pending or in flight, post the new one's.
   */
  retarget(from: Control, to: Control): void {
    const sends = [...this.queue, ...(this.inFlight === undefined ? [] : [this.inFlight.send])];
    for (const entry of this.parts.inputs.entries.values()) if (entry.pending !== undefined) sends.push(entry.pending);
    for (const send of sends) {
      if (send.control === from) send.control = to;
      if (send.handler === from) send.handler = to;
    }
  }

  private pump(): void {
    if (this.inFlight !== undefined || this.parts.hooks.halted()) return;
    const send = this.queue.shift();
    if (send === undefined) return;
    if (send.control !== undefined && !send.control.isConnected) {
      if (send.entry?.pending === send) send.entry.pending = undefined;
      this.pump();
      return;
    }
    const seq = ++this.seq;
    // The snapshot comes before the send leaves pendingSend, so its own input is reported, under
    // this event's seq (see InputTable.snapshot).
    const carried = send.value === undefined ? undefined : reportedForm(send.value);
    const inputState = this.parts.inputs.snapshot(seq, send.control === undefined ? undefined : send.entry, carried);
    if (send.entry?.pending === send) send.entry.pending = undefined;
    this.dropRepeat(send);
    const entry: EventEntry = { seq, msg: send.msg, args: this.argsOf(send), handlerId: handlerIdOf(send) };
    const lastAppliedSeq = this.parts.order.lastAppliedSeq;
    const body: EventBody = inputState === undefined ? { ...entry, lastAppliedSeq } : { ...entry, inputState, lastAppliedSeq };
    this.inFlight = { entry, send };
    this.parts.doc.documentElement.setAttribute(BUSY_ATTR, "");
    void this.parts.transport.post(body).finally(() => {
      this.inFlight = undefined;
      this.parts.doc.documentElement.removeAttribute(BUSY_ATTR);
      if (this.parts.hooks.lostAfterReply()) return this.parts.hooks.lost("session lost");
      this.pump();
    });
  }
}
