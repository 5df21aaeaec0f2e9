/**
 * The per-input client entries (docs/protocol.md#input-state) and the dirtiness test the
 * authority rule reads.
 *
 * An entry is created the first time the user changes a control (an input, change or composition
 * event) and deleted when the control leaves the DOM. Entries are keyed by the control's DOM node,
 * never by its svc-id: ids move under the user (a keep-and-rename shifts every id below a list that
 * grows above the input, docs/protocol.md#ids-that-move), and a table keyed by ids would have to
 * replay each patch's renames as one simultaneous mapping to keep an entry on its node. The id is
 * read from the node whenever it is needed (inputState, acks), so it is always the id of the frames
 * applied so far. Dirty, per
 * docs/protocol.md#input-state: a debounce is pending (or its send waits in the queue), a send is not
 * yet acked (lastSentSeq > lastAckedSeq), or a composition is open. Focus alone does not make a
 * tracked input dirty; an untracked input (no input or change handler) is protected by focus plus
 * "typed since focus".
 */
import { ID_ATTR, type InputReport, messageAttr } from "../src/protocol/mod.ts";
import { type Control, controlValue, idOf, type Json } from "./dom.ts";

/** One message waiting to be posted (docs/protocol.md#input-state, pendingSend). */
export type Send = {
  msg: string;
  args: Json[];
  /** The handler element: its id is read when the send is posted (see handlerIdOf). */
  handler: Element;
  kind: string;
  /** For input and change: the control whose value is appended when the send is posted. */
  control?: Control;
  /**
   * For a change: the value the control had when the user changed it, which the send posts rather
   * than the control's value when it is posted. A change is an act of its own: a choice made while
   * earlier sends wait (a select set to "" and then to "l") is posted as made, each in its turn.
   */
  value?: Json;
  /** The entry this send belongs to (its pendingSend). */
  entry?: InputEntry;
};

/**
 * The handler id a send posts: read from the handler node when the request body is built, with the
 * lastAppliedSeq the body carries, so the two always describe the same tree.
 */
export function handlerIdOf(send: Send): string {
  return send.handler.getAttribute(ID_ATTR) ?? "";
}

export type InputEntry = {
  el: Control;
  /** Most recent DOM value typed (or applied by rule 1 case 4). */
  liveValue: string;
  /** The seq of the event that first reported the value last reported (see snapshot). */
  lastSentSeq: number;
  /** The value last reported in inputState. */
  sentValue: string | undefined;
  /** The value last carried by a send of this input's own message (see snapshot). */
  carriedValue: string | undefined;
  lastAckedSeq: number;
  /**
   * The server seq of the frame that last raised lastAckedSeq. docs/protocol.md#client-rules 1.3 compares a frame
   * with the point the entry was acknowledged; the client's event seq and the server's outSeq are
   * different counters, so that point is kept here in the server's counter.
   */
  ackFrame: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  pending: Send | undefined;
  composing: boolean;
  /** Typed since the control last took focus (protects an untracked input). */
  typed: boolean;
  /** The text committed by the last compositionend: an identical input event right after is not re-sent. */
  imeValue: string | undefined;
};

export type { InputReport };

/**
 * The value an entry reports and sends: its DOM value, except while a composition is open, when
 * the uncommitted text is not the user's yet (docs/protocol.md#client-rules 7) and the last committed value stands.
 */
export function reportValue(entry: InputEntry): string {
  return entry.composing ? entry.liveValue : controlValue(entry.el);
}

/**
 * A frame wrote the control's value (docs/protocol.md#client-rules 1, case 4): the entry now shows
 * the server's value, and what it reported or carried before no longer says what the server holds.
 * So the user's next value takes a new seq even when it equals one reported earlier (text typed
 * again after the server replaced it), and stays dirty until that seq is acked.
 */
export function showsServerValue(entry: InputEntry): void {
  entry.liveValue = controlValue(entry.el);
  entry.sentValue = undefined;
  entry.carriedValue = undefined;
}

/** Whether the control has an input or change handler (a tracked input). */
export function isTracked(el: Element): boolean {
  return el.hasAttribute(messageAttr("input")) || el.hasAttribute(messageAttr("change"));
}

const isRadio = (el: Control): el is HTMLInputElement => el.tagName === "INPUT" && (el as HTMLInputElement).type === "radio";

export class InputTable {
  /** Entries by their control's node (see the module comment). */
  readonly entries = new Map<Control, InputEntry>();

  constructor(private readonly doc: Document) {}

  /** The entry of this control, when it has one. */
  of(el: Element): InputEntry | undefined {
    return this.entries.get(el as Control);
  }

  /** The entry of the control whose svc-id is currently `id`, when it has one. */
  get(id: string): InputEntry | undefined {
    for (const entry of this.entries.values()) if (idOf(entry.el) === id) return entry;
    return undefined;
  }

  /** The control's entry, created on first use. Controls without an id get none. */
  ensure(el: Control): InputEntry | undefined {
    if (idOf(el) === null) return undefined;
    let entry = this.entries.get(el);
    if (entry === undefined) {
      entry = {
        el,
        liveValue: controlValue(el),
        lastSentSeq: 0,
        sentValue: undefined,
        lastAckedSeq: 0,
        ackFrame: 0,
        timer: undefined,
        pending: undefined,
        composing: false,
        typed: false,
        imeValue: undefined,
        carriedValue: undefined,
      };
      this.entries.set(el, entry);
    }
    return entry;
  }

  /** docs/protocol.md#input-state: the dirtiness test. */
  dirty(entry: InputEntry): boolean {
    if (entry.timer !== undefined || entry.pending !== undefined || entry.composing) return true;
    if (entry.lastSentSeq > entry.lastAckedSeq) return true;
    return !isTracked(entry.el) && entry.typed && this.doc.activeElement === entry.el;
  }

  /**
   * Whether `control` is a radio whose group (same name, same form) has a dirty entry: the user
   * picked one of them, and until that is acked no frame may check another (which would uncheck
   * the pick) or uncheck the pick.
   */
  radioGroupDirty(control: Control): boolean {
    if (!isRadio(control) || control.name === "") return false;
    for (const entry of this.entries.values()) {
      const el = entry.el;
      if (isRadio(el) && el.name === control.name && el.form === control.form && this.dirty(entry)) return true;
    }
    return false;
  }

  /**
   * The inputState of an event with seq `seq`: every dirty input with its DOM value, under its
   * current id, and the seq when the user last typed it (docs/protocol.md#input-state). A value
   * that changed since it was last reported takes `seq`, which becomes its lastSentSeq ("send
   * flushes I"). A value reported again unchanged (still unacked while other events go out) keeps
   * the seq it was first reported with: a newer seq would keep the input dirty past the ack of the
   * event that carried the value, so the frame of that event, which may normalise it ("a" shown as
   * "A"), would be dropped, and an unchanged render never sends the value again.
   *
   * `carrying`: the entry whose own send this event is (its message carries the value). A value
   * that no send of the input carried before takes `seq` even when it was reported before: the
   * model takes the value with this event, so an ack of the earlier report (the value seen, the
   * model still without it) must not make the input clean, or a render in between (a resync)
   * would write the older model's value over it. A value carried before keeps its seq, as above.
   * `carried`: what that send carries, when it is not the DOM's value now (a change posts the
   * value it was made with, Send.value): the DOM's value then waits for the send that carries it.
   * A change's send (`carried` given) always takes `seq`: each change is an act of its own, and the
   * model may have moved between two that carry the same value (a radio picked, another of its
   * group picked, the first picked again, while requests wait), so the ack of the earlier one must
   * not make the input clean while the later one is still to be seen.
   */
  snapshot(seq: number, carrying?: InputEntry, carried?: string): Record<string, InputReport> | undefined {
    let state: Record<string, InputReport> | undefined;
    for (const entry of this.entries.values()) {
      const id = idOf(entry.el);
      if (id === null || !this.dirty(entry)) continue;
      const value = reportValue(entry);
      const carries = entry === carrying ? carried ?? value : undefined;
      const carriedAnew = entry === carrying && (carried !== undefined || entry.carriedValue !== carries);
      if (entry.sentValue !== value || entry.lastSentSeq === 0 || carriedAnew) {
        entry.sentValue = value;
        entry.lastSentSeq = seq;
      }
      if (entry === carrying) entry.carriedValue = carries;
      (state ??= {})[id] = { value, seq: entry.lastSentSeq };
    }
    return state;
  }

  /**
   * docs/protocol.md#client-rules 2: raises lastAckedSeq from a frame's ackInputs. The frame's ids are those of the
   * tree before its patches, which is what the DOM shows when acks are read. An ack above `clamp`
   * (the client seq the frame can answer at most) comes from an earlier page of the same session,
   * whose seqs the server still holds, and is read as `clamp`.
   */
  ack(acks: Readonly<Record<string, number>> | undefined, frameSeq: number, clamp: number): void {
    if (acks === undefined || this.entries.size === 0) return;
    const byId = new Map<string, InputEntry>();
    for (const entry of this.entries.values()) {
      const id = idOf(entry.el);
      if (id !== null) byId.set(id, entry);
    }
    for (const id of Object.keys(acks)) {
      const entry = byId.get(id);
      const value = acks[id];
      if (entry === undefined || typeof value !== "number") continue;
      const acked = Math.min(value, clamp);
      if (acked > entry.lastAckedSeq) {
        entry.lastAckedSeq = acked;
        entry.ackFrame = frameSeq;
      }
    }
  }

  /** docs/protocol.md#input-state, "I leaves the DOM": its entry (and pending debounce) is deleted. */
  sweep(): void {
    for (const [el, entry] of this.entries) {
      if (el.isConnected) continue;
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      this.entries.delete(el);
    }
  }
}
