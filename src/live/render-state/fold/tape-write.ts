/**
 * A fold's tape: the `Ui.h` and `Ui.keyed` calls that built a small subtree of a kept page, as a
 * shape shared by all folds of the same calls (src/live/render-state/fold/shape.ts) and the fold's own values
 * (docs/deployment.md#memory, "the compact kept form").
 *
 * Why the calls: between events a session keeps its page, and a page kept as elements holds an
 * object, an attribute bag, a children list and a call record per element, several times its
 * HTML (bench/table.bench.ts, memory; the figures are in bench/RESULTS.md). The calls are what the next render's calls are compared with
 * (src/live/render-state/element-log.ts): an unchanged row is matched call by call against its tape, with nothing
 * built. And a build depends on its call alone, so the calls replayed through `Ui.h` give back the
 * elements they built (`replayTape`, src/live/render-state/fold/tape-read.ts).
 *
 * What cannot be written, and is then kept as elements: an element built outside a session's log
 * (no call: a view constant, a template's node), a lazy part, an element with style props (its
 * injected styles name whole ids), a value that is not plain data (a function, a class instance),
 * and a subtree of more than FOLD_MAX_CALLS calls.
 */
import { CHILDREN, KEYED } from "../call-record.ts";
import { HandlerMessage } from "../../../ui/handler-message.ts";
import { sharedText } from "./shared-texts.ts";
import { Part } from "../lazy-part.ts";
import type { UiElement, UiNode } from "../../../ui/types.ts";
import {
  type Op,
  OP_ARRAY,
  OP_BUILT,
  OP_ELEMENT,
  OP_KEPT,
  OP_KEYED,
  OP_OBJECT,
  OP_RAW,
  OP_REF,
  OP_TEXT,
  OP_VALUE,
  refinedShape,
  type Shape,
} from "./shape.ts";

/**
 * The most calls one fold holds. A fold is matched, replayed and written again as a whole when one
 * of its calls changes, so it is kept to the size of a row or a form field, not of a page.
 */
export const FOLD_MAX_CALLS = 64;

/** A written tape: the shared shape of its calls, and its own values in op order. */
export type Tape = { readonly shape: Shape; readonly values: readonly unknown[] };

/** The tape of the calls that built `root`'s subtree, or undefined when it cannot be written (see above). */
export function writeTape(root: UiElement): Tape | undefined {
  const writer = new TapeWriter();
  if (writer.call(root) === UNWRITABLE) return undefined;
  return refinedShape(writer.ops, writer.count, writer.values);
}

/** What `TapeWriter.call` answers for a subtree that cannot be written. */
const UNWRITABLE = -1;

class TapeWriter {
  readonly ops: Op[] = [];
  readonly values: unknown[] = [];
  count = 0;

  /**
   * Writes the records of `el`'s subtree, children first; the index of `el`'s record, or
   * UNWRITABLE. An element placed twice (a view constant made in the view) is written twice: its
   * replay gives two equal elements, which render alike.
   */
  call(el: UiElement): number {
    const call = el.call;
    if (call === undefined || el instanceof Part || el.extras?.passes !== undefined || el.extras?.pass !== undefined) {
      return UNWRITABLE;
    }
    if (call[0] === KEYED) {
      const inner = this.call(call[2] as UiElement);
      if (inner === UNWRITABLE) return UNWRITABLE;
      this.ops.push(OP_KEYED, inner);
      this.values.push(sharedText(call[1]));
    } else if (!this.element(el, call)) return UNWRITABLE;
    // Checked once the record's children are written, each of which checked its own.
    if (this.count >= FOLD_MAX_CALLS) return UNWRITABLE;
    return this.count++;
  }

  /**
   * Writes a `Ui.h` call's record: its element children's records first (their indexes noted in
   * order), then its own ops and values, straight onto the tape.
   */
  private element(el: UiElement, call: readonly unknown[]): boolean {
    let end = 0;
    while (end < call.length && call[end] !== CHILDREN) end += 2;
    const kept = end < call.length;
    const kids: readonly unknown[] = kept ? call.slice(end + 1) : el.children;
    // The children's records, in order; their indexes wait in `refs` until this record is written.
    let refs: number[] | undefined;
    for (const kid of kids) {
      if (typeof kid !== "object" || (kid as UiNode).kind !== "el") continue;
      const ref = this.call(kid as UiElement);
      if (ref === UNWRITABLE) return false;
      (refs ??= []).push(ref);
    }
    const ops = this.ops, values = this.values;
    ops.push(OP_ELEMENT, el.tag, end / 2);
    for (let i = 0; i < end; i += 2) {
      ops.push(call[i] as string);
      if (!writeValue(call[i + 1], ops, values, 0)) return false;
    }
    ops.push(kept ? OP_KEPT : OP_BUILT, kids.length);
    let r = 0;
    for (const kid of kids) {
      if (typeof kid === "string") {
        ops.push(OP_TEXT);
        values.push(sharedText(kid));
      } else if ((kid as UiNode).kind === "text") {
        ops.push(OP_TEXT);
        values.push(sharedText((kid as { text: string }).text));
      } else if ((kid as UiNode).kind === "raw") {
        ops.push(OP_RAW);
        values.push(sharedText((kid as { html: string }).html));
      } else ops.push(OP_REF, refs![r++]!);
    }
    return true;
  }
}

/** How deep plain data is written; deeper data is kept as elements (as the element log compares it, src/ui/same-value.ts). */
const MAX_DEPTH = 16;

/** Writes a kept value of a call; false when it is not plain data. */
function writeValue(value: unknown, ops: Op[], values: unknown[], depth: number): boolean {
  if (
    value === null || (typeof value !== "object" && typeof value !== "function" && typeof value !== "symbol" && typeof value !== "bigint")
  ) {
    ops.push(OP_VALUE);
    values.push(sharedText(value));
    return true;
  }
  if (typeof value !== "object" || depth > MAX_DEPTH) return false; // a function, a symbol (equal to nothing), a bigint
  // A handler's record stands for the message it was made from: `[name, ...args]`.
  const items = value instanceof HandlerMessage ? [value.msg, ...value.args] : Array.isArray(value) ? value : undefined;
  if (items !== undefined) {
    ops.push(OP_ARRAY, items.length);
    for (const item of items) if (!writeValue(item, ops, values, depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || (value as { kind?: unknown }).kind === "el") return false;
  const keys = Object.keys(value);
  ops.push(OP_OBJECT, keys.length);
  for (const key of keys) {
    ops.push(key);
    if (!writeValue((value as Record<string, unknown>)[key], ops, values, depth + 1)) return false;
  }
  return true;
}
