/**
 * The live client: per-input state, the send queue, replies and SSE frames in order, resync and
 * session signals (docs/protocol.md#client-rules, docs/protocol.md#session-rotation, docs/protocol.md#errors-and-statuses).
 *
 * LiveClient composes three parts and the stream: SendQueue (client/send-queue.ts) sends the
 * user's messages in order, one request in flight; Transport (client/transport.ts) posts them,
 * sends each again until it is answered (client/resend.ts) and reads each answer; Recovery (client/recovery.ts) resyncs from a full render
 * and reloads a lost session.
 *
 * Replies and SSE frames go through FrameOrder (rule 3); each applied frame first raises acks
 * (rule 2), then its patches go to the Applier. A desync resyncs from GET /_svc/render.
 */
import { showAppError, showFailureNotice } from "./overlay.ts";
import {
  type Frame as WireFrame,
  type RenderEvent,
  ROOT_ID,
  STREAM_SINCE_PARAM,
  SUBSCRIBE_PATH,
  type SyncEvent,
} from "../src/protocol/mod.ts";
import { Applier, Desync, type PageApplier } from "./apply.ts";
import { fillPage } from "./dom.ts";
import { type Boot, DEFAULTS, type Host, type Options } from "./host.ts";
import { type InputEntry, InputTable, type Send } from "./inputs.ts";
import { type Frame, FrameOrder } from "./order.ts";
import { Reconnecting } from "./reconnecting.ts";
import { Recovery } from "./recovery.ts";
import { SendQueue } from "./send-queue.ts";
import { type Stream, subscribe } from "./sse.ts";
import { Transport } from "./transport.ts";

export { type Boot, DEFAULTS, type Host, type Options };

/** The browser side of one live page: the send queue, the transport and recovery, composed. */
export class LiveClient {
  readonly inputs: InputTable;
  readonly order: FrameOrder;
  readonly applier: PageApplier;
  readonly options: Required<Options>;
  readonly transport: Transport;
  readonly sends: SendQueue;
  readonly recovery: Recovery;
  /** The reconnecting state the page shows while its events go unanswered (client/reconnecting.ts). */
  readonly reconnecting: Reconnecting;
  private stream: Stream | undefined;
  private closed = false;

  /**
   * `applierOf` makes what frames are written through: the DOM alone by default; the split client
   * passes its own, which keeps the page's tree (client/split/apply.ts).
   */
  constructor(
    readonly host: Host,
    readonly boot: Boot,
    options: Options = {},
    applierOf: (doc: Document, inputs: InputTable) => PageApplier = (doc, inputs) => new Applier(doc, inputs),
  ) {
    this.options = { ...DEFAULTS, ...options };
    // The page's markup leaves out the ids its places give (docs/protocol.md#derived-ids).
    fillPage(host.doc);
    this.inputs = new InputTable(host.doc);
    this.reconnecting = new Reconnecting(host.doc, this.options.reconnectingMs);
    this.applier = applierOf(host.doc, this.inputs);
    this.order = new FrameOrder(boot.seq, (frame) => this.applyFrame(frame), () => void this.resync(), this.options.gapMs);
    this.transport = new Transport(host, boot, {
      // A closed client sends nothing again (its page is going away, or a test is done with it).
      halted: () => this.halted || this.closed,
      lost: (why) => this.recovery.lost(why),
      resync: () => this.resync(),
      streamOpen: () => this.stream?.open === true,
      receive: (frame, clamp) => this.receive(frame, clamp),
      expect: (seq) => this.order.expect(seq),
      log: (message) => this.log(message),
      appError: (report) => showAppError(host.doc, report),
      failureNotice: (notice) => showFailureNotice(host.doc, notice),
      failed: (request) => this.reconnecting.failed(request),
      answered: (request) => this.reconnecting.answered(request),
    }, this.options);
    this.sends = new SendQueue({
      doc: host.doc,
      inputs: this.inputs,
      order: this.order,
      transport: this.transport,
      hooks: {
        halted: () => this.halted,
        lostAfterReply: () => this.recovery.lostAfterReply,
        lost: (why) => this.recovery.lost(why),
      },
    });
    this.recovery = new Recovery({
      host,
      inputs: this.inputs,
      order: this.order,
      applier: this.applier,
      transport: this.transport,
      retryMs: this.options.retryMs,
      hooks: {
        flying: () => this.sends.flying,
        lastSeq: () => this.seq,
        close: () => this.close(),
        retarget: (from, to) => this.sends.retarget(from, to),
        log: (message) => this.log(message),
      },
    });
  }

  /** The session's current public id. */
  get sessionId(): string {
    return this.transport.sessionId;
  }

  /** The last client event seq used (docs/protocol.md#sequence-numbers); the first event is 1. */
  get seq(): number {
    return this.sends.seq;
  }

  /** Sends waiting for the request in flight. */
  get queue(): Send[] {
    return this.sends.queue;
  }

  /** The client has stopped for good (the page is reloading). */
  get halted(): boolean {
    return this.recovery.halted;
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
    // The stream names this page load, so that the frames answering its own events come once, in
    // their replies; and the last frame it applied, so that the frames stamped before the stream
    // opened come on it instead of after a gap and a resync (docs/protocol.md#resume).
    const page = encodeURIComponent(this.transport.page);
    const url = () => `${this.transport.url(SUBSCRIBE_PATH)}?page=${page}&${STREAM_SINCE_PARAM}=${this.order.lastAppliedSeq}`;
    this.stream = subscribe(Source, url, {
      frame: parsed((data) => this.receive(JSON.parse(data) as WireFrame, this.seq)),
      // A stream resumed from too far back (docs/protocol.md#resume).
      render: parsed((data) => this.recovery.streamRender(JSON.parse(data) as RenderEvent)),
      // A new stream: frames up to this seq went out before it opened, and must come some other way.
      sync: parsed((data) => this.order.expect((JSON.parse(data) as SyncEvent).seq)),
      // The session ended or was evicted while this page was open (docs/protocol.md#errors-and-statuses).
      lost: () => this.recovery.lostByStream(),
    });
  }

  /** Stops the client for good, without a reload: nothing is sent or applied any more (the split client's endSession). */
  stop(): void {
    this.recovery.halted = true;
    this.close();
  }

  /** Closes the stream, clears every debounce timer and stops sending unanswered events again. */
  close(): void {
    this.closed = true;
    this.stream?.close();
    this.stream = undefined;
    for (const entry of this.inputs.entries.values()) if (entry.timer !== undefined) clearTimeout(entry.timer);
  }

  /** A reply or SSE frame; `clamp` is the largest client seq it can acknowledge. */
  receive(frame: Omit<Frame, "clamp">, clamp: number): void {
    this.order.push({ ...frame, clamp });
  }

  // ---- sends (client/send-queue.ts) --------------------------------------------------------

  /** Schedules an input send for an entry: after its debounce, or at once for `ms` <= 0. */
  schedule(entry: InputEntry, send: Send, ms: number): void {
    this.sends.schedule(entry, send, ms);
  }

  /** Sends the pending debounced send of one entry now (blur). */
  flushEntry(entry: InputEntry): void {
    this.sends.flushEntry(entry);
  }

  /** A message caused by the user: pending typed values go first (G2), then the message. */
  dispatch(send: Send): void {
    this.sends.dispatch(send);
  }

  /**
   * Queues every pending debounced send (timers cleared), and posts the next one when `pump` is
   * true. Positional for the tests that drive a client by hand; nothing in the client calls it
   * (the send queue takes `pump` as an option).
   */
  flushDebounced(pump: boolean): void {
    this.sends.flushDebounced({ pump });
  }

  /** Queues one send, and posts the next one unless `pump` is false. */
  enqueue(send: Send, options: { pump?: boolean } = {}): void {
    this.sends.enqueue(send, options);
  }

  /** docs/protocol.md#client-rules 8: a click on an anchor sends every pending message in one keepalive batch. */
  navigate(extra: Send | undefined): void {
    this.sends.navigate(extra);
  }

  /** docs/protocol.md#client-rules 8 and 9: on unload, every pending send in one beacon batch. */
  unload(): void {
    this.sends.unload();
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

  /** A desync or a gap that does not fill: catch up from a full render (client/recovery.ts). */
  resync(): Promise<void> {
    return this.recovery.resync();
  }

  /** Logs through the host (console.warn by default). */
  log(message: string): void {
    (this.host.log ?? ((m: string) => console.warn(m)))(message);
  }
}
