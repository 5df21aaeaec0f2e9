/**
 * The live client: per-input state, the send queue, replies and SSE frames in order, resync and
 * session signals (docs/protocol.md#client-rules, docs/protocol.md#session-rotation, docs/protocol.md#errors-and-statuses).
 *
 * Sends. Messages go out one at a time, in the order the user caused them, each with the next
 * client seq and the inputState snapshot of every dirty input. One request in flight keeps the
 * server's processing order equal to the user's order over any number of connections: two input
 * events posted at once could otherwise reach the server swapped, and the older value would win.
 * While a request is in flight, a newer input send of the same handler replaces a queued one (the
 * value is read when the request is posted, so nothing typed is lost). Before any other message,
 * pending debounced input sends are queued first, so the server sees the typed values before the
 * message (G2). A click on an anchor, and the tab's unload, send every pending message at once as
 * one `batch` (fetch with keepalive, or a beacon with the CSRF token in the body, rules 8 and 9).
 * That batch also carries, first and under its own seq, the event still in flight: the batch may
 * reach the server before it (another connection), and the navigation message must not overtake
 * the value before it, nor may that value be lost if the navigation aborts its request. Every body
 * names this page load (`page`), and the server processes a page's seq once, whichever copy
 * arrives first (src/live/server/session.ts, firstSight).
 *
 * Replies and SSE frames go through FrameOrder (rule 3); each applied frame first raises acks
 * (rule 2), then its patches go to the Applier. A desync resyncs from GET /_svc/render.
 */
import {
  ACK_HEADER,
  answerOf,
  CSRF_HEADER,
  EVENT_PATH,
  type EventEntry,
  type EventRequest,
  type Frame as WireFrame,
  type InputAcks,
  type InputState,
  type Move,
  MOVES_HEADER,
  RENDER_PATH,
  type RenderEvent,
  retryAfterMs,
  ROOT_ID,
  ROTATE_PATH,
  ROTATION_HEADER,
  SEQ_HEADER,
  SID_HEADER,
  STATUS_HEADER,
  SUBSCRIBE_PATH,
  type SyncEvent,
} from "../src/protocol/mod.ts";
import { Applier, Desync } from "./apply.ts";
import { BUSY_ATTR, eventValue, type Json } from "./dom.ts";
import { handlerIdOf, type InputEntry, InputTable, reportValue, type Send } from "./inputs.ts";
import { type Frame, FrameOrder } from "./order.ts";
import { type EventSourceCtor, type Stream, subscribe } from "./sse.ts";

/** What the client needs from the page (injectable, so the core runs without a network). */
export type Host = {
  readonly doc: Document;
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
  readonly EventSource?: EventSourceCtor | undefined;
  readonly beacon?: ((url: string, body: string) => boolean) | undefined;
  readonly reload: () => void;
  readonly FormData?: typeof FormData;
  readonly log?: (message: string) => void;
};

/** The values the page carries in its meta tags. */
export type Boot = { csrf: string; seq: number; base: string; sessionId: string };

export type Options = {
  /** Debounce of input sends, ms (data-svc-debounce on an element overrides). */
  debounceMs?: number;
  /** How long a frame waits for a missing earlier one before a resync, ms. */
  gapMs?: number;
  /** First retry delay for session-rotating and network failures, ms (doubles each time). */
  retryMs?: number;
};

export const DEFAULTS = { debounceMs: 150, gapMs: 1500, retryMs: 100 } as const;
const MAX_RETRIES = 8;

/** One posted event: an entry and the inputs it reports (the session and page are added when it is posted). */
/**
 * `lastAppliedSeq` names the frames this tab had applied when it built the body: its handler and
 * input ids are ids of that tree, and the server maps them onto its own (docs/protocol.md#ids-that-move).
 */
type EventBody = EventEntry & { readonly inputState?: InputState; readonly lastAppliedSeq: number };
/** The request in flight: its entry, and its send (whose handler id a navigation batch re-reads). */
type InFlight = { readonly entry: EventEntry; readonly send: Send };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class LiveClient {
  readonly inputs: InputTable;
  readonly order: FrameOrder;
  readonly applier: Applier;
  readonly options: Required<Options>;
  sessionId: string;
  /** The last client event seq used (docs/protocol.md#sequence-numbers); the first event is 1. */
  seq = 0;
  /** Sends waiting for the request in flight. */
  readonly queue: Send[] = [];
  halted = false;
  /** The entry of the request in flight, re-sent ahead of a navigation batch. */
  private inFlight: InFlight | undefined;
  /** The stream reported the session lost while an event was in flight: reload once its reply is in. */
  private lostAfterReply = false;
  /** This page load's id: the server processes each of its seqs once. */
  private readonly page = pageId();
  private ticket: string | undefined;
  /** The CSRF token: bound to the session id, so a rotation brings a new one (X-Svc-Csrf). */
  private csrf: string;
  private stream: Stream | undefined;
  private resyncing: Promise<void> | undefined;

  constructor(
    readonly host: Host,
    readonly boot: Boot,
    options: Options = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.sessionId = boot.sessionId;
    this.csrf = boot.csrf;
    this.inputs = new InputTable(host.doc);
    this.applier = new Applier(host.doc, this.inputs);
    this.order = new FrameOrder(boot.seq, (frame) => this.applyFrame(frame), () => void this.resync(), this.options.gapMs);
  }

  /** Opens the SSE subscription (when the host has EventSource). */
  connect(): void {
    const Source = this.host.EventSource;
    if (Source === undefined || this.stream !== undefined) return;
    const parsed = (read: (data: string) => void) => (data: string) => {
      try {
        read(data);
      } catch (error) {
        this.log(`svc: bad SSE event: ${String(error)}`);
      }
    };
    // The stream names this page load, so that the frames answering its own events come once, in their replies.
    this.stream = subscribe(Source, `${this.url(SUBSCRIBE_PATH)}?page=${encodeURIComponent(this.page)}`, {
      frame: parsed((data) => this.receive(JSON.parse(data) as WireFrame, this.seq)),
      render: parsed((data) => {
        const render = JSON.parse(data) as RenderEvent;
        this.adoptRender(render.html, render.seq);
      }),
      // A new stream: frames up to this seq went out before it opened, and must come some other way.
      sync: parsed((data) => this.order.expect((JSON.parse(data) as SyncEvent).seq)),
      // The session ended or was evicted while this page was open (docs/protocol.md#errors-and-statuses).
      lost: () => this.lostByStream(),
    });
  }

  close(): void {
    this.stream?.close();
    this.stream = undefined;
    for (const entry of this.inputs.entries.values()) if (entry.timer !== undefined) clearTimeout(entry.timer);
  }

  /** A reply or SSE frame; `clamp` is the largest client seq it can acknowledge. */
  receive(frame: Omit<Frame, "clamp">, clamp: number): void {
    this.order.push({ ...frame, clamp });
  }

  // ---- sends -------------------------------------------------------------------------------

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
    this.flushDebounced(true);
    this.enqueue(send);
  }

  /** Queues every pending debounced send (timers cleared). */
  flushDebounced(pump: boolean): void {
    for (const entry of this.inputs.entries.values()) {
      if (entry.timer === undefined) continue;
      clearTimeout(entry.timer);
      entry.timer = undefined;
      if (entry.pending !== undefined) this.enqueue(entry.pending, pump);
    }
  }

  enqueue(send: Send, pump = true): void {
    if (this.halted) return;
    const last = this.queue[this.queue.length - 1];
    // A newer value of the same input handler supersedes a queued one: the value is read at post time.
    if (
      send.control !== undefined && last !== undefined && last.control === send.control && last.kind === send.kind && last.msg === send.msg
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
    this.flushDebounced(false);
    const sends = this.queue.splice(0);
    if (extra !== undefined) sends.push(extra);
    if (sends.length === 0 || this.halted) return;
    const request: EventRequest = { sessionId: this.sessionId, page: this.page, ...this.batch(sends) };
    const body = JSON.stringify(request);
    this.host
      .fetch(this.url(EVENT_PATH), { method: "POST", headers: this.headers(), body, credentials: "same-origin", keepalive: true })
      .then(
        (resp) => {
          this.readSession(resp);
          // The batch's frames come over SSE; without a stream, catch up from a full render.
          if (resp.ok && this.stream?.open !== true) void this.resync();
        },
        (error: unknown) => this.log(`svc: navigation flush failed: ${String(error)}`),
      );
  }

  /** docs/protocol.md#client-rules 8 and 9: on unload, every pending send in one beacon batch, CSRF in the body. */
  unload(): void {
    if (this.halted) return;
    this.flushDebounced(false);
    const sends = this.queue.splice(0);
    if (sends.length === 0 || this.host.beacon === undefined) return;
    const request: EventRequest = { csrf: this.csrf, sessionId: this.sessionId, page: this.page, ...this.batch(sends) };
    const body = JSON.stringify(request);
    this.host.beacon(this.url(EVENT_PATH), body);
  }

  private batch(sends: Send[]): { inputState?: InputState; batch: EventEntry[]; lastAppliedSeq: number } {
    const first = this.seq + 1;
    const inputState = this.inputs.snapshot(first);
    const fresh = sends.map((send): EventEntry => {
      const seq = ++this.seq;
      return { seq, msg: send.msg, args: this.argsOf(send), handlerId: handlerIdOf(send) };
    });
    // The entry in flight goes again under its own seq, its handler id read now like the others'.
    const flying = this.inFlight;
    const batch = flying === undefined ? fresh : [{ ...flying.entry, handlerId: handlerIdOf(flying.send) }, ...fresh];
    for (const send of sends) if (send.entry?.pending === send) send.entry.pending = undefined;
    const lastAppliedSeq = this.order.lastAppliedSeq;
    return inputState === undefined ? { batch, lastAppliedSeq } : { inputState, batch, lastAppliedSeq };
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
    if (later.control !== send.control || later.msg !== send.msg || later.kind !== send.kind) return;
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.pending = undefined;
    const queued = this.queue.indexOf(later);
    if (queued >= 0) this.queue.splice(queued, 1);
  }

  private argsOf(send: Send): Json[] {
    if (send.control === undefined) return send.args;
    const entry = send.entry;
    const value = entry?.composing ? reportValue(entry) : eventValue(send.control);
    return [...send.args, value];
  }

  private pump(): void {
    if (this.inFlight !== undefined || this.halted) return;
    const send = this.queue.shift();
    if (send === undefined) return;
    if (send.control !== undefined && !send.control.isConnected) {
      if (send.entry?.pending === send) send.entry.pending = undefined;
      this.pump();
      return;
    }
    const seq = ++this.seq;
    // The snapshot comes before the send leaves pendingSend, so its own input is reported.
    const inputState = this.inputs.snapshot(seq);
    if (send.entry?.pending === send) send.entry.pending = undefined;
    this.dropRepeat(send);
    const entry: EventEntry = { seq, msg: send.msg, args: this.argsOf(send), handlerId: handlerIdOf(send) };
    const lastAppliedSeq = this.order.lastAppliedSeq;
    const body: EventBody = inputState === undefined ? { ...entry, lastAppliedSeq } : { ...entry, inputState, lastAppliedSeq };
    this.inFlight = { entry, send };
    this.host.doc.documentElement.setAttribute(BUSY_ATTR, "");
    void this.post(body, send.control !== undefined).finally(() => {
      this.inFlight = undefined;
      this.host.doc.documentElement.removeAttribute(BUSY_ATTR);
      if (this.lostAfterReply) return this.lost("session lost");
      this.pump();
    });
  }

  /** Posts one event; `idempotent` sends (a full input value) are retried on a network failure. */
  private async post(body: EventBody, idempotent: boolean, attempt = 0): Promise<void> {
    let resp: Response;
    const request: EventRequest = { ...body, sessionId: this.sessionId, page: this.page };
    try {
      resp = await this.host.fetch(this.url(EVENT_PATH), {
        method: "POST",
        headers: this.headers(),
        credentials: "same-origin",
        body: JSON.stringify(request),
      });
    } catch (error) {
      if (idempotent && attempt < 3 && !this.halted) {
        await sleep(this.options.retryMs * 2 ** attempt);
        return this.post(body, idempotent, attempt + 1);
      }
      this.log(`svc: event ${body.msg} not sent: ${String(error)}`);
      return;
    }
    this.readSession(resp);
    const backoff = this.options.retryMs * 2 ** attempt;
    switch (answerOf(resp.status)) {
      case "session-lost":
        return this.lost("session lost"); // or a restarted server (docs/protocol.md#errors-and-statuses)
      case "session-ended":
        return this.lost("session ended");
      case "session-rotating":
        // docs/protocol.md#session-rotation: exchange the ticket if this tab holds it, then retry.
        if (attempt >= MAX_RETRIES) return this.lost("session still rotating");
        if (this.ticket !== undefined) await this.rotate();
        await sleep(backoff);
        return this.post(body, idempotent, attempt + 1);
      case "retry-later":
        // The server could not check the session's access yet; it says when to retry.
        if (attempt >= MAX_RETRIES) return this.refused(body, resp);
        await sleep(retryAfterMs(resp.headers) ?? backoff);
        return this.post(body, idempotent, attempt + 1);
      case "done":
        return;
      case "handler-gone":
        // The element that sent the event left the page in a frame this tab had not applied yet.
        // Nothing was processed, and the inputs it reported stay unacked and go again with the
        // next event (docs/protocol.md#ids-that-move). The frames that removed the element are on
        // their way over the stream, and a gap that does not fill resyncs; a full render now would
        // be reconciled by ids of a tree the page has not caught up with. Without a stream, the
        // page catches up from a full render, which keeps dirty inputs (rule 4).
        this.log(`svc: event ${body.msg} refused: its element left the page`);
        if (this.stream?.open !== true) return this.resync();
        return;
      case "refused":
        return this.refused(body, resp);
      case "frame":
        return this.readFrame(resp, body.seq);
    }
  }

  /**
   * A bad body, an unknown message, CSRF, size or an app error: the message is dropped; the inputs
   * it reported stay dirty (unacked) and go with the next event.
   */
  private async refused(body: EventBody, resp: Response): Promise<void> {
    const detail = await resp.text().catch(() => "");
    this.log(`svc: event ${body.msg} refused: ${resp.status} ${resp.headers.get(STATUS_HEADER) ?? ""} ${detail}`);
  }

  private async readFrame(resp: Response, clamp: number): Promise<void> {
    if ((resp.headers.get("Content-Type") ?? "").includes("text/html")) {
      const html = await resp.text();
      const acks = resp.headers.get(ACK_HEADER);
      const seq = Number(resp.headers.get(SEQ_HEADER));
      this.receive(acks ? { seq, html, ackInputs: JSON.parse(acks) as InputAcks } : { seq, html }, clamp);
    } else this.receive((await resp.json()) as WireFrame, clamp);
  }

  private async rotate(): Promise<void> {
    const ticket = this.ticket;
    this.ticket = undefined;
    if (ticket === undefined) return;
    const resp = await this.host
      .fetch(this.url(ROTATE_PATH), {
        method: "POST",
        headers: { [ROTATION_HEADER]: ticket, [CSRF_HEADER]: this.csrf },
        credentials: "same-origin",
      })
      .catch(() => undefined);
    if (resp !== undefined) this.readSession(resp);
  }

  /**
   * X-Svc-Sid: adopt the session's current public id, and X-Svc-Csrf its token; X-Svc-Rotation:
   * keep the ticket.
   */
  private readSession(resp: Response): void {
    const sid = resp.headers.get(SID_HEADER);
    if (sid) this.sessionId = sid;
    const csrf = resp.headers.get(CSRF_HEADER);
    if (csrf) this.csrf = csrf;
    const ticket = resp.headers.get(ROTATION_HEADER);
    if (ticket) this.ticket = ticket;
  }

  /**
   * The stream says the session ended. An event still on its way may be the one that ended it (a
   * sign-out), and its reply carries the cookies that end the sign-in too: reloading before it
   * arrives would load the page with them still set. So the reload waits for that reply.
   */
  private lostByStream(): void {
    if (this.inFlight === undefined) this.lost("session lost");
    else this.lostAfterReply = true;
  }

  /** session-lost (or a server restart): the page reloads (docs/protocol.md#errors-and-statuses). */
  private lost(why: string): void {
    if (this.halted) return;
    this.log(`svc: ${why}; reloading`);
    this.halted = true;
    this.close();
    this.host.reload();
  }

  // ---- frames ------------------------------------------------------------------------------

  private applyFrame(frame: Frame): void {
    // docs/protocol.md#client-rules 2: acks first, so the patches below see the inputs as the server saw them.
    this.inputs.ack(frame.ackInputs, frame.seq, frame.clamp);
    try {
      if (frame.html !== undefined) this.applier.patches([{ id: ROOT_ID, replace: frame.html }], frame.seq);
      else this.applier.patches(frame.patches ?? [], frame.seq);
    } catch (error) {
      if (!(error instanceof Desync)) throw error;
      this.log(`svc: ${error.message}; resyncing`);
      void this.resync();
    }
  }

  /**
   * A desync (or a gap that does not fill): the current render replaces the DOM by reconciling, so
   * dirty inputs keep their nodes and values (rule 4), and lastAppliedSeq moves to its seq.
   */
  resync(): Promise<void> {
    this.resyncing ??= this.fetchRender().finally(() => (this.resyncing = undefined));
    return this.resyncing;
  }

  private async fetchRender(): Promise<void> {
    this.order.pause();
    for (let attempt = 0; !this.halted; attempt++) {
      // `since`: the server says what its frames since then did to ids (docs/protocol.md#ids-that-move).
      const resp = await this.host
        .fetch(`${this.url(RENDER_PATH)}?since=${this.order.lastAppliedSeq}`, {
          headers: { [CSRF_HEADER]: this.csrf },
          credentials: "same-origin",
        })
        .catch(() => undefined);
      if (resp !== undefined && answerOf(resp.status) === "session-lost") return this.lost("session lost");
      if (resp?.ok) {
        this.readSession(resp);
        const seq = Number(resp.headers.get(SEQ_HEADER));
        const moves = resp.headers.get(MOVES_HEADER);
        const acks = resp.headers.get(ACK_HEADER);
        this.adoptRender(await resp.text(), seq, moves ?? undefined, acks ?? undefined);
        return;
      }
      if (attempt >= MAX_RETRIES) return this.lost("resync failed");
      await sleep(this.options.retryMs * 2 ** attempt);
    }
  }

  /**
   * A full render at session seq `seq` (a resync, or a stream resumed from too far back) replaces
   * the page by reconciling, and frames continue after it. One older than what is already applied
   * (a resync overtaken by a stream's render) changes nothing.
   */
  private adoptRender(html: string, seq: number, moves?: string, acks?: string): void {
    if (!Number.isSafeInteger(seq)) return;
    if (seq >= this.order.lastAppliedSeq) {
      // The render is reconciled by id: the page's ids first move to the render's, or a node whose
      // id another node has taken since would be matched with that node.
      if (moves !== undefined) this.applier.move(parseJson<Move[]>(moves, []));
      // Then the acks of the frames the render stands for, before the authority rule reads them.
      if (acks !== undefined) this.inputs.ack(parseJson<Record<string, number>>(acks, {}), seq, this.seq);
      this.applier.root(html, seq);
    }
    this.order.resume(seq, (skipped) => this.inputs.ack(skipped.ackInputs, skipped.seq, skipped.clamp));
  }

  // ---- helpers -----------------------------------------------------------------------------

  private url(path: string): string {
    return this.boot.base + path;
  }

  private headers(): Record<string, string> {
    return { "Content-Type": "application/json", [CSRF_HEADER]: this.csrf };
  }

  log(message: string): void {
    (this.host.log ?? ((m: string) => console.warn(m)))(message);
  }
}

/** A random id for one page load: 16 bytes as base64url (Web Crypto, in every browser). */
function pageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A header's JSON (X-Svc-Moves, X-Svc-Ack-Inputs); an unreadable one counts as `none`. */
function parseJson<T extends object>(text: string, none: T): T {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === "object" && parsed !== null && Array.isArray(parsed) === Array.isArray(none) ? (parsed as T) : none;
  } catch {
    return none;
  }
}
