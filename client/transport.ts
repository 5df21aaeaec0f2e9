/**
 * The client's transport: the session's public id, its CSRF token and rotation ticket, and the
 * POSTs that carry events, sent again until answered (docs/protocol.md#resend), and the meaning of
 * each answer (docs/protocol.md#errors-and-statuses, docs/protocol.md#session-rotation).
 *
 * Every body names this page load (`page`), and the server processes a page's seq once, whichever
 * copy arrives first (src/live/server/session/step.ts, recordIfNew). What an answer asks of the rest of
 * the client (apply a frame, resync, reload) goes through TransportHooks.
 */
import {
  ACK_HEADER,
  type Answer,
  answerOf,
  APP_ERROR,
  CSRF_HEADER,
  EVENT_PATH,
  type EventEntry,
  type EventRequest,
  type Frame as WireFrame,
  type InputAcks,
  type InputState,
  ROTATE_PATH,
  ROTATION_HEADER,
  SEQ_HEADER,
  SID_HEADER,
  STATUS_HEADER,
} from "../src/protocol/mod.ts";
import { type Boot, DEFAULTS, type Host } from "./host.ts";
import { fetchWithin, resendable, resendDelayMs, type ResendDelays } from "./resend.ts";
import { type AppErrorReport, isReport } from "./overlay.ts";
import type { Frame } from "./order.ts";

/** How often a session-rotating answer, or a failed resync, is retried before giving up. */
export const MAX_RETRIES = 8;

/** One posted event: an entry and the inputs it reports (the session and page are added when it is posted). */
/**
 * `lastAppliedSeq` names the frames this tab had applied when it built the body: its handler and
 * input ids are ids of that tree, and the server maps them onto its own (docs/protocol.md#ids-that-move).
 */
export type EventBody = EventEntry & { readonly inputState?: InputState; readonly lastAppliedSeq: number };

/** Several events in one body: a navigation's keepalive POST, or the unload beacon. */
export type BatchBody = { inputState?: InputState; batch: EventEntry[]; lastAppliedSeq: number };

/** What the transport asks of the rest of the client. */
export type TransportHooks = {
  /** The client has stopped for good (the page is reloading). */
  readonly halted: () => boolean;
  /** The session is gone: reload the page. */
  readonly lost: (why: string) => void;
  /** Catch up from a full render. */
  readonly resync: () => Promise<void>;
  /** The SSE stream is open, so the frames of a batch will come over it. */
  readonly streamOpen: () => boolean;
  /** The session is known to be at `seq`: frames up to it that never come are a gap. */
  readonly expect: (seq: number) => void;
  /** A reply's frame; `clamp` is the largest client seq it can acknowledge. */
  readonly receive: (frame: Omit<Frame, "clamp">, clamp: number) => void;
  readonly log: (message: string) => void;
  /** A development server reported an app error: show it. */
  readonly appError: (report: AppErrorReport) => void;
  /** A production server answered an app error with the notice its user is shown. */
  readonly failureNotice: (notice: string) => void;
  /** A request went unanswered and will be sent again (the reconnecting state, client/reconnecting.ts). */
  readonly failed?: (request: object) => void;
  /** That request was answered, or given up with the page. */
  readonly answered?: (request: object) => void;
};

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The session's identity on the wire and the requests that carry events. */
export class Transport {
  /** The session's current public id (X-Svc-Sid). */
  sessionId: string;
  /** The CSRF token: bound to the session id, so a rotation brings a new one (X-Svc-Csrf). */
  csrf: string;
  /** This page load's id: the server processes each of its seqs once. */
  readonly page = pageId();
  private ticket: string | undefined;
  /** The waits of the resend loop (docs/protocol.md#resend). */
  private readonly delays: ResendDelays;

  /** `delays`: the resend loop's waits (retryMs also paces the retries of a rotating session); DEFAULTS fill the rest. */
  constructor(
    private readonly host: Host,
    private readonly boot: Boot,
    private readonly hooks: TransportHooks,
    delays: Partial<ResendDelays> = {},
  ) {
    this.delays = { ...DEFAULTS, ...delays };
    this.sessionId = boot.sessionId;
    this.csrf = boot.csrf;
  }

  /**
   * docs/protocol.md#client-rules 8: the navigation batch as one keepalive POST that survives the
   * navigation.
   */
  postKeepalive(batch: BatchBody): void {
    const request: EventRequest = { sessionId: this.sessionId, page: this.page, ...batch };
    // Sent again unchanged while it is not answered and the page still lives (docs/protocol.md#resend).
    void this.untilAnswered(JSON.stringify(request), { keepalive: true }).then((resp) => {
      if (resp === undefined) return;
      this.readSession(resp);
      // The batch's frames come over SSE; without a stream, catch up from a full render.
      if (resp.ok && !this.hooks.streamOpen()) void this.hooks.resync();
    });
  }

  /** The host can send a beacon (unload). */
  get canBeacon(): boolean {
    return this.host.beacon !== undefined;
  }

  /** docs/protocol.md#client-rules 8 and 9: the unload batch as one beacon, CSRF in the body. */
  beacon(batch: BatchBody): void {
    const request: EventRequest = { csrf: this.csrf, sessionId: this.sessionId, page: this.page, ...batch };
    const body = JSON.stringify(request);
    this.host.beacon?.(this.url(EVENT_PATH), body);
  }

  /**
   * Posts one event until it is answered (docs/protocol.md#resend), then acts on the answer. Every
   * event may be sent again, since the server applies each `(page, seq)` once.
   */
  async post(body: EventBody): Promise<void> {
    for (let attempt = 0;; attempt++) {
      const request: EventRequest = { ...body, sessionId: this.sessionId, page: this.page };
      const resp = await this.untilAnswered(JSON.stringify(request), { keepalive: false });
      if (resp === undefined) return;
      this.readSession(resp);
      const answer = answerOf(resp.status);
      if (answer !== "session-rotating") return this.answered(body, resp, answer);
      // docs/protocol.md#session-rotation: exchange the ticket if this tab holds it, then retry.
      if (attempt >= MAX_RETRIES) return this.hooks.lost("session still rotating");
      if (this.ticket !== undefined) await this.rotate();
      await sleep(this.delays.retryMs * 2 ** attempt);
    }
  }

  /**
   * POSTs `body` to the event route until the app answers (docs/protocol.md#resend): a network
   * error, a timeout or a 502, 503 or 504 sends it again, unchanged, after a growing wait with
   * jitter, while the page lives; the send queue holds later events behind it. Undefined once the
   * client has stopped.
   */
  private async untilAnswered(body: string, { keepalive }: { keepalive: boolean }): Promise<Response | undefined> {
    const token = {};
    try {
      for (let attempt = 0; !this.hooks.halted(); attempt++) {
        const init: RequestInit = { method: "POST", headers: this.headers(), credentials: "same-origin", body, keepalive };
        const resp = await fetchWithin(this.host.fetch, this.url(EVENT_PATH), init, this.delays.timeoutMs).catch((error: unknown) =>
          void this.hooks.log(`svc: ${error}; resending`)
        );
        if (resp !== undefined && !resendable(resp.status)) return resp;
        this.hooks.failed?.(token);
        await sleep(resendDelayMs(resp, attempt, this.delays));
      }
    } finally {
      this.hooks.answered?.(token);
    }
  }

  /** What an answer other than a resend or a rotation asks of the client (docs/protocol.md#errors-and-statuses). */
  private answered(body: EventBody, resp: Response, answer: Answer): Promise<void> | void {
    switch (answer) {
      case "session-lost":
        return this.hooks.lost("session lost"); // or a restarted server (docs/protocol.md#errors-and-statuses)
      case "session-ended":
        return this.hooks.lost("session ended");
      case "done": {
        // Processed already (a batch, or a copy of this entry whose reply never came): the server
        // names its seq, and frames this tab lacks up to it are a gap that resyncs if they do not come.
        const seq = Number(resp.headers.get(SEQ_HEADER));
        if (Number.isSafeInteger(seq) && seq > 0) this.hooks.expect(seq);
        return;
      }
      case "handler-gone":
        // The element that sent the event left the page in a frame this tab had not applied yet.
        // Nothing was processed, and the inputs it reported stay unacked and go again with the
        // next event (docs/protocol.md#ids-that-move). The frames that removed the element are on
        // their way over the stream, and a gap that does not fill resyncs; a full render now would
        // be reconciled by ids of a tree the page has not caught up with. Without a stream, the
        // page catches up from a full render, which keeps dirty inputs (rule 4).
        this.hooks.log(`svc: event ${body.msg} refused: its element left the page`);
        if (!this.hooks.streamOpen()) return this.hooks.resync();
        return;
      case "frame":
        return this.readFrame(resp, body.seq);
      default:
        // "refused" (and "retry-later", which resendable took already).
        return this.refused(body, resp);
    }
  }

  /**
   * A bad body, an unknown message, CSRF, size or an app error: the message is dropped; the inputs
   * it reported stay dirty (unacked) and go with the next event.
   */
  private async refused(body: EventBody, resp: Response): Promise<void> {
    const detail = await resp.text().catch(() => "");
    this.hooks.log(`svc: event ${body.msg} refused: ${resp.status} ${resp.headers.get(STATUS_HEADER) ?? ""} ${detail}`);
    if (resp.headers.get(STATUS_HEADER) !== APP_ERROR) return;
    let reply: { report?: unknown; notice?: unknown };
    try {
      reply = JSON.parse(detail) as typeof reply;
    } catch {
      return;
    }
    // Only a server in development sends a report (docs/live-apps.md#mistakes-are-loud-in-development);
    // in production the page shows the app's notice, which names the log line and nothing else.
    if (isReport(reply.report)) this.hooks.appError(reply.report);
    else if (typeof reply.notice === "string") this.hooks.failureNotice(reply.notice);
  }

  private async readFrame(resp: Response, clamp: number): Promise<void> {
    if ((resp.headers.get("Content-Type") ?? "").includes("text/html")) {
      const html = await resp.text();
      const acks = resp.headers.get(ACK_HEADER);
      const seq = Number(resp.headers.get(SEQ_HEADER));
      this.hooks.receive(acks ? { seq, html, ackInputs: JSON.parse(acks) as InputAcks } : { seq, html }, clamp);
    } else this.hooks.receive((await resp.json()) as WireFrame, clamp);
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
  readSession(resp: Response): void {
    const sid = resp.headers.get(SID_HEADER);
    if (sid) this.sessionId = sid;
    const csrf = resp.headers.get(CSRF_HEADER);
    if (csrf) this.csrf = csrf;
    const ticket = resp.headers.get(ROTATION_HEADER);
    if (ticket) this.ticket = ticket;
  }

  /** An endpoint's URL under the app's base (docs/protocol.md#mounting). */
  url(path: string): string {
    return this.boot.base + path;
  }

  private headers(): Record<string, string> {
    return { "Content-Type": "application/json", [CSRF_HEADER]: this.csrf };
  }
}

/** A random id for one page load: 16 bytes as base64url (Web Crypto, in every browser). */
function pageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
