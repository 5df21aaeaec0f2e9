/**
 * The client's recovery: a resync from GET /_svc/render when frames desync or a gap does not fill
 * (docs/protocol.md#client-rules), a full render adopted by reconciling, and the reload when the
 * session is lost or ended (docs/protocol.md#errors-and-statuses).
 */
import {
  ACK_HEADER,
  answerOf,
  CSRF_HEADER,
  ID_ATTR,
  type InputAcks,
  type Move,
  MOVES_HEADER,
  RENDER_PATH,
  type RenderEvent,
  ROOT_ID,
  SEQ_HEADER,
} from "../src/protocol/mod.ts";
import type { PageApplier } from "./apply.ts";
import { carryDirty, landCarried } from "./carry.ts";
import type { Control } from "./dom.ts";
import type { Host } from "./host.ts";
import type { ClientParts } from "./parts.ts";
import { MAX_RETRIES, sleep } from "./transport.ts";
import { resendable } from "./resend.ts";

/** The longest wait between two tries of a resync, ms. */
const RETRY_CAP_MS = 5_000;

/** What recovery asks of the rest of the client. */
export type RecoveryHooks = {
  /** An event is on its way (its reply not yet in). */
  readonly flying: () => boolean;
  /** The last client event seq used. */
  readonly lastSeq: () => number;
  /** Stops the stream and the debounce timers. */
  readonly close: () => void;
  /** A dirty control's entry moved to another node with its identity: its sends follow (client/carry.ts). */
  readonly retarget: (from: Control, to: Control) => void;
  readonly log: (message: string) => void;
};

/** The parts of the client recovery reads and drives. */
export type RecoveryParts = ClientParts & {
  readonly host: Host;
  readonly applier: PageApplier;
  /** First retry delay of a failed resync, ms (doubles each time). */
  readonly retryMs: number;
  readonly hooks: RecoveryHooks;
};

/** Resync, full renders and the reload of a lost session. */
export class Recovery {
  /** The client has stopped for good (the page is reloading). */
  halted = false;
  /** The stream reported the session lost while an event was in flight: reload once its reply is in. */
  lostAfterReply = false;
  private resyncing: Promise<void> | undefined;

  constructor(private readonly parts: RecoveryParts) {}

  /**
   * The stream says the session ended. An event still on its way may be the one that ended it (a
   * sign-out), and its reply carries the cookies that end the sign-in too: reloading before it
   * arrives would load the page with them still set. So the reload waits for that reply.
   */
  lostByStream(): void {
    if (!this.parts.hooks.flying()) this.lost("session lost");
    else this.lostAfterReply = true;
  }

  /** session-lost (or a server restart): the page reloads (docs/protocol.md#errors-and-statuses). */
  lost(why: string): void {
    if (this.halted) return;
    this.parts.hooks.log(`svc: ${why}; reloading`);
    this.halted = true;
    this.parts.hooks.close();
    this.parts.host.reload();
  }

  /**
   * A desync (or a gap that does not fill): the current render replaces the DOM by reconciling, so
   * dirty inputs keep their nodes and values (rule 4), and lastAppliedSeq moves to its seq.
   */
  resync(): Promise<void> {
    this.resyncing ??= this.fetchRender().finally(() => (this.resyncing = undefined));
    return this.resyncing;
  }

  /**
   * A stream that resumed from too far back got a render instead of the frames it missed
   * (docs/protocol.md#resume). Its moves are those since the stream's last frame, which is this
   * page's last applied frame only when nothing was held back or overtaken: then it is adopted as
   * it is. Otherwise a render reconciled by id alone could match a dirty input's node with another
   * (ids moved), so the page resyncs with its own `since`. During a resync it is left to that.
   */
  streamRender(render: RenderEvent): void {
    const { order } = this.parts;
    if (this.resyncing !== undefined || !Number.isSafeInteger(render.seq) || render.seq <= order.lastAppliedSeq) return;
    if (render.moves !== undefined && render.since === order.lastAppliedSeq) {
      this.adoptRender(render.html, render.seq, render.moves, render.ackInputs);
    } else void this.resync();
  }

  private async fetchRender(): Promise<void> {
    const { order, transport } = this.parts;
    order.pause();
    for (let attempt = 0; !this.halted; attempt++) {
      // `since`: the server says what its frames since then did to ids (docs/protocol.md#ids-that-move).
      // Frames are held meanwhile, so the page's ids stay those of `since`.
      const since = order.lastAppliedSeq;
      const resp = await this.parts.host
        .fetch(`${transport.url(RENDER_PATH)}?since=${since}`, {
          headers: { [CSRF_HEADER]: transport.csrf },
          credentials: "same-origin",
        })
        .catch(() => undefined);
      if (resp !== undefined && answerOf(resp.status) === "session-lost") return this.lost("session lost");
      if (resp?.ok) {
        transport.readSession(resp);
        const seq = Number(resp.headers.get(SEQ_HEADER));
        const moves = resp.headers.get(MOVES_HEADER);
        const acks = resp.headers.get(ACK_HEADER);
        const html = await resp.text();
        this.adoptRender(
          html,
          seq,
          moves === null ? undefined : parseJson<Move[]>(moves, []),
          acks === null ? undefined : parseJson<InputAcks>(acks, {}),
        );
        return;
      }
      // No answer (a network error, 502, 503, 504: a replica going away) is waited out like an
      // event's (docs/protocol.md#resend); a refusal more than MAX_RETRIES times reloads the page.
      if (attempt >= MAX_RETRIES && resp !== undefined && !resendable(resp.status)) return this.lost("resync failed");
      await sleep(Math.min(RETRY_CAP_MS, this.parts.retryMs * 2 ** attempt));
    }
  }

  /**
   * A full render at session seq `seq` (a resync, or a stream resumed from too far back) replaces
   * the page by reconciling, and frames continue after it. One older than what is already applied
   * (a resync overtaken by a stream's render) changes nothing.
   */
  adoptRender(html: string, seq: number, moves?: readonly Move[], acks?: InputAcks): void {
    const { order, inputs, applier } = this.parts;
    if (!Number.isSafeInteger(seq)) return;
    if (seq >= order.lastAppliedSeq) {
      // The render is reconciled by id: the page's ids first move to the render's, or a node whose
      // id another node has taken since would be matched with that node.
      if (moves !== undefined) applier.move(moves);
      // Then the acks of the frames the render stands for, before the authority rule reads them.
      if (acks !== undefined) inputs.ack(acks, seq, this.parts.hooks.lastSeq());
      // Without moves (the session's log does not reach back so far) ids cannot be trusted: dirty
      // entries are carried over to the controls with their identity (client/carry.ts).
      const carried = moves === undefined ? carryDirty(inputs, this.parts.host.doc) : [];
      applier.root(html, seq);
      const root = this.parts.host.doc.querySelector(`[${ID_ATTR}="${ROOT_ID}"]`);
      const lost = root === null ? carried : landCarried(inputs, root, carried, this.parts.hooks.retarget);
      for (const held of lost) {
        this.parts.hooks.log(`svc: a typed value could not be matched with a control of the render (${held.value.length} characters)`);
      }
    }
    order.resume(seq, (skipped) => inputs.ack(skipped.ackInputs, skipped.seq, skipped.clamp));
  }
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
