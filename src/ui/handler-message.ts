/**
 * A handler's message as an element keeps it (`onInput: ["SetQty", 3]`): the message's name and
 * its own copy of the arguments, which nothing writes into.
 *
 * Why a class: the session memo keeps the record itself where the next render's call is compared
 * with the message, in place of a second copy of it (src/live/render-state/element-log.ts), and a class tells a
 * record from plain data (src/ui/same-value.ts).
 *
 * Why one argument is kept in the record: a message with a single plain argument (a row's index,
 * an item's id) is the usual handler of a list, repeated on every row of a kept page; keeping the
 * argument in a field rather than in a list of its own halves the record (docs/deployment.md#memory).
 * Its `args` list is made when asked for, which happens when the element is built and written out,
 * not per event: the server dispatches the arguments the client sends.
 */
import type { JsonValue } from "../json.ts";
import type { MessageRecord } from "./types.ts";

export class HandlerMessage implements MessageRecord {
  /**
   * `many`: the arguments, or undefined when there is exactly one and it is plain (a string,
   * number, boolean or null), kept in `one`.
   */
  private constructor(readonly msg: string, private readonly one: JsonValue, private readonly many: readonly JsonValue[] | undefined) {}

  /** The record of `msg` with the arguments after the name in `message` (none when undefined). */
  static of(msg: string, message: readonly JsonValue[] | undefined): HandlerMessage {
    if (message === undefined || message.length === 1) return new HandlerMessage(msg, null, NO_ARGS);
    const first = message[1]!;
    if (message.length === 2 && isPlain(first)) return new HandlerMessage(msg, first, undefined);
    return new HandlerMessage(msg, null, message.slice(1));
  }

  get args(): readonly JsonValue[] {
    return this.many ?? [this.one];
  }

  /** Whether `value`, a handler prop's value, is the message this record was made from. */
  madeFrom(value: unknown): boolean {
    if (!Array.isArray(value) || value[0] !== this.msg) return false;
    const many = this.many;
    if (many === undefined) return value.length === 2 && value[1] === this.one;
    if (value.length !== many.length + 1) return false;
    for (let k = 0; k < many.length; k++) if (value[k + 1] !== many[k]) return false;
    return true;
  }

  /** Whether every argument is plain: a record whose message the caller cannot change in place. */
  get plain(): boolean {
    return this.many === undefined || this.many.every(isPlain);
  }
}

/** The arguments of a message named alone: one shared list, since records are never written into. */
const NO_ARGS: readonly JsonValue[] = Object.freeze([]);

function isPlain(value: JsonValue): boolean {
  return typeof value !== "object" || value === null;
}
