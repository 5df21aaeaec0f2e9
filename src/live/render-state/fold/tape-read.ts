/**
 * Reading a fold's tape (src/live/render-state/fold/tape-write.ts, src/live/render-state/fold/shape.ts): comparing a call of the
 * render under way with one of its records, and replaying the records into elements.
 *
 * A comparison answers exactly what the element log's comparison of the same call with the element
 * the record stands for would (src/live/render-state/call-record.ts sameCall, src/ui/same-value.ts): the tag, the
 * bag's names in order with the same values as data, and the children as the build flattens them,
 * an element child being the stand-in of the record it refers to. A hit is therefore always what
 * a build would give. Tags and names are the shape's strings, which the view writes as the same
 * literals each time, and values compare with `===`: a row that matches allocates nothing but its
 * stand-ins.
 *
 * No app code runs in a comparison, so one cursor per session's log (`TapeCursor`) holds where
 * each comparison is, rather than an object per call.
 */
import { type Attrs, CHILDREN_PROP } from "../../../ui/attrs.ts";
import { KEYED, recordCall } from "../call-record.ts";
import { elementOf, keyedElement, raw } from "../../../ui/node.ts";
import type { Child, UiElement, UiNode } from "../../../ui/types.ts";
import {
  type Op,
  OP_ARRAY,
  OP_BUILT,
  OP_CONST,
  OP_CONST_TEXT,
  OP_ELEMENT,
  OP_KEYED,
  OP_RAW,
  OP_REF,
  OP_TEXT,
  OP_VALUE,
  type Shape,
} from "./shape.ts";
import type { Tape } from "./tape-write.ts";

/** Whether `value` is the stand-in of record `index` of `source`'s tape (src/live/render-state/fold/fold-part.ts). */
export type IsRef = (value: unknown, source: object, index: number) => boolean;

/** A `Ui.h` call a record is compared with: its tag, attribute bag and children, as the view wrote them. */
export type ElementCall = {
  readonly tag: string;
  readonly attrs: Attrs | null | undefined;
  readonly children: readonly Child[];
};

/** A `Ui.keyed` call a record is compared with: its key and the element it keys. */
export type KeyedCall = { readonly key: string; readonly node: UiElement };

/**
 * Where a comparison is in a tape: the shape's ops and the fold's values, the next op and value,
 * how many child ops are left, and whose stand-ins count. One per session's log, read by one
 * comparison at a time (no app code runs in one), so a comparison allocates nothing.
 */
export class TapeCursor {
  ops: readonly Op[] = [];
  values: readonly unknown[] = [];
  op = 0;
  value = 0;
  left = 0;
  source: object | undefined;

  /** `isRef`: how a stand-in is told (src/live/render-state/fold/fold-part.ts isRecordRef). */
  constructor(readonly isRef: IsRef) {}

  /** The cursor at op `op` and value `value` of `tape`. */
  at(tape: Tape, op: number, value: number): this {
    this.ops = tape.shape.ops;
    this.values = tape.values;
    this.op = op;
    this.value = value;
    return this;
  }

  /** Whether the value at the ops' place is `v` as data (src/ui/same-value.ts sameValue); moves past it. */
  sameValue(v: unknown): boolean {
    const ops = this.ops;
    const kind = ops[this.op++];
    if (kind === OP_VALUE) {
      const kept = this.values[this.value++];
      // NaN is the one value unequal to itself; 0 and -0 render alike.
      return kept === v || (kept !== kept && v !== v);
    }
    if (kind === OP_CONST) return ops[this.op++] === v; // never NaN (src/live/render-state/fold/shape.ts canBeConstant)
    const n = ops[this.op++] as number;
    if (kind === OP_ARRAY) {
      if (!Array.isArray(v) || v.length !== n) return false;
      for (let k = 0; k < n; k++) if (!this.sameValue(v[k])) return false;
      return true;
    }
    if (typeof v !== "object" || v === null || Array.isArray(v) || (v as { kind?: unknown }).kind === "el") return false;
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    let seen = 0;
    for (const name in v) {
      if (!Object.prototype.hasOwnProperty.call(v, name) || seen === n || ops[this.op] !== name) return false;
      this.op++;
      if (!this.sameValue((v as Record<string, unknown>)[name])) return false;
      seen++;
    }
    return seen === n;
  }

  /**
   * Whether a call's children, flattened as the build flattens them (src/live/render-state/call-record.ts
   * sameBuiltChildren), are the `left` child ops from the cursor's place: texts merged where they
   * meet, an element the stand-in of the record it refers to, raw HTML its markup. Children holding
   * a nested list are flattened once and compared again, from the same place.
   */
  builtKids(children: readonly Child[]): boolean {
    const code = this.ops, kept = this.values, source = this.source!, isRef = this.isRef;
    let at = this.op, next = this.value, left = this.left;
    let text = "";
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child === null || child === undefined || child === true || child === false) continue;
      if (typeof child === "string") {
        text = text === "" ? child : text + child;
        continue;
      }
      if (typeof child === "number") {
        text += String(child);
        continue;
      }
      if (Array.isArray(child)) return this.builtKids(flatChildren(children, []));
      const node = child as UiNode;
      if (node.kind === "text") {
        text += node.text;
        continue;
      }
      if (text !== "") {
        const end = left === 0 ? -1 : this.textEnd(at, next, text);
        if (end < 0) return false;
        if (code[at] === OP_TEXT) next++;
        at = end;
        left--;
        text = "";
      }
      if (left === 0) return false;
      const mark = code[at];
      if (mark === OP_REF) {
        if (!isRef(node, source, code[at + 1] as number)) return false;
        at += 2;
      } else if (mark === OP_RAW && node.kind === "raw" && kept[next] === node.html) {
        at++;
        next++;
      } else return false;
      left--;
    }
    if (text !== "") {
      if (left === 0 || this.textEnd(at, next, text) < 0) return false;
      left--;
    }
    return left === 0;
  }

  /** Where the child op at `at` (its value at `next`) ends when it is the text `text` (a value, or a constant of the shape); -1 when not. */
  private textEnd(at: number, next: number, text: string): number {
    const mark = this.ops[at];
    if (mark === OP_TEXT) return this.values[next] === text ? at + 1 : -1;
    return mark === OP_CONST_TEXT && this.ops[at + 1] === text ? at + 2 : -1;
  }

  /** The call's children as items (src/live/render-state/call-record.ts keptChildrenEnd) against the KEPT ops. */
  keptItems(children: readonly Child[]): boolean {
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child === null || child === undefined || child === true || child === false || child === "") continue;
      if (typeof child === "string") {
        if (!this.textKid(child)) return false;
      } else if (typeof child === "number") {
        if (!this.textKid(String(child))) return false;
      } else if (Array.isArray(child)) {
        if (!this.keptItems(child as readonly Child[])) return false;
      } else if ((child as UiNode).kind === "text") {
        const text = (child as { text: string }).text;
        if (text !== "" && !this.textKid(text)) return false;
      } else if (!this.nodeKid(child as UiNode)) return false;
    }
    return true;
  }

  /** The next child op is a text, and it is `text`. */
  private textKid(text: string): boolean {
    if (this.left === 0) return false;
    const ops = this.ops;
    const kind = ops[this.op];
    if (kind === OP_TEXT) {
      if (this.values[this.value] !== text) return false;
      this.op++;
      this.value++;
    } else if (kind === OP_CONST_TEXT) {
      if (ops[this.op + 1] !== text) return false;
      this.op += 2;
    } else return false;
    this.left--;
    return true;
  }

  /** An element or raw child against the next child op: the stand-in of the record it refers to, or the same markup. */
  private nodeKid(node: UiNode): boolean {
    if (this.left === 0) return false;
    const ops = this.ops;
    const kind = ops[this.op];
    if (kind === OP_REF) {
      if (!this.isRef(node, this.source!, ops[this.op + 1] as number)) return false;
      this.op += 2;
    } else {
      if (node.kind !== "raw" || kind !== OP_RAW || this.values[this.value] !== node.html) return false;
      this.op++;
      this.value++;
    }
    this.left--;
    return true;
  }
}

/**
 * Whether record `record` of `tape` (which owns its stand-ins) is the `Ui.h` call `call`. This runs
 * for every call of every unchanged row on every event, so its usual case (plain values) is read
 * with local variables, and only the rest goes through the cursor.
 */
export function matchElementCall(cursor: TapeCursor, tape: Tape, record: number, call: ElementCall): boolean {
  const shape = tape.shape;
  const code = shape.ops;
  let at = shape.opAt[record]!;
  if (code[at] !== OP_ELEMENT || code[at + 1] !== call.tag) return false;
  const kept = tape.values;
  let next = shape.valueAt[record]!;
  const count = code[at + 2] as number;
  at += 3;
  let seen = 0;
  const attrs = call.attrs;
  if (attrs !== null && attrs !== undefined) {
    for (const name in attrs) {
      if (name === CHILDREN_PROP) continue;
      if (seen === count || code[at] !== name) return false;
      const v = (attrs as { [name: string]: unknown })[name];
      const kind = code[at + 1];
      if (kind === OP_VALUE) {
        const was = kept[next];
        // NaN is the one value unequal to itself; 0 and -0 render alike.
        if (was !== v && (was === was || v === v)) return false;
        at += 2;
        next++;
      } else if (kind === OP_CONST) {
        if (code[at + 2] !== v) return false; // never NaN (src/live/render-state/fold/shape.ts canBeConstant)
        at += 3;
      } else {
        cursor.at(tape, at + 1, next);
        if (!cursor.sameValue(v)) return false;
        at = cursor.op;
        next = cursor.value;
      }
      seen++;
    }
  }
  if (seen !== count) return false;
  const built = code[at] === OP_BUILT;
  cursor.at(tape, at + 2, next);
  cursor.left = code[at + 1] as number;
  cursor.source = tape;
  const same = built ? cursor.builtKids(call.children) : cursor.keptItems(call.children) && cursor.left === 0;
  cursor.source = undefined;
  return same;
}

/** `children` with their nested lists spread in place, into `out`. */
function flatChildren(children: readonly Child[], out: Child[]): Child[] {
  for (const child of children) {
    if (Array.isArray(child)) flatChildren(child as readonly Child[], out);
    else out.push(child);
  }
  return out;
}

/** Whether record `record` of `tape` (which owns its stand-ins) is the `Ui.keyed` call `call`. */
export function matchKeyedCall(cursor: TapeCursor, tape: Tape, record: number, call: KeyedCall): boolean {
  const shape = tape.shape;
  const at = shape.opAt[record]!;
  return shape.ops[at] === OP_KEYED && tape.values[shape.valueAt[record]!] === call.key &&
    cursor.isRef(call.node, tape, shape.ops[at + 1] as number);
}

/**
 * The elements of a tape's records, in order: each call made again through the builders, outside
 * any session's log, with the call it keeps recorded as the log records it. The last is the root.
 */
export function replayTape(tape: Tape): UiElement[] {
  const shape: Shape = tape.shape;
  const elements: UiElement[] = [];
  const read = new TapeCursor(NO_REFS).at(tape, 0, 0);
  const ops = read.ops, values = read.values;
  for (let record = 0; record < shape.records; record++) {
    if (ops[read.op] === OP_KEYED) {
      const key = values[read.value++] as string;
      const inner = elements[ops[read.op + 1] as number]!;
      read.op += 2;
      const element = keyedElement(key, inner);
      element.call = [KEYED, key, inner];
      elements.push(element);
      continue;
    }
    const tag = ops[read.op + 1] as string;
    let count = ops[read.op + 2] as number;
    read.op += 3;
    let attrs: Record<string, unknown> | null = null;
    for (; count > 0; count--) {
      const name = ops[read.op++] as string;
      (attrs ??= {})[name] = readValue(read);
    }
    let kids = ops[read.op + 1] as number;
    read.op += 2;
    const children: Child[] = [];
    for (; kids > 0; kids--) {
      const kind = ops[read.op++];
      if (kind === OP_REF) children.push(elements[ops[read.op++] as number]!);
      else if (kind === OP_CONST_TEXT) children.push(ops[read.op++] as string);
      else if (kind === OP_TEXT) children.push(values[read.value++] as string);
      else children.push(raw(values[read.value++] as string));
    }
    // The builders run no app code, so the reading state stays this replay's.
    const element = elementOf(tag, attrs as Attrs | null, children);
    recordCall(element, attrs as Attrs | null, children);
    elements.push(element);
  }
  return elements;
}

/** The value at the ops' place, as the call had it (an array or plain object made again); moves past it. */
function readValue(read: TapeCursor): unknown {
  const ops = read.ops;
  const kind = ops[read.op++];
  if (kind === OP_VALUE) return read.values[read.value++];
  if (kind === OP_CONST) return ops[read.op++];
  const n = ops[read.op++] as number;
  if (kind === OP_ARRAY) {
    const items = new Array<unknown>(n);
    for (let k = 0; k < n; k++) items[k] = readValue(read);
    return items;
  }
  const fields: Record<string, unknown> = {};
  for (let k = 0; k < n; k++) {
    const name = ops[read.op++] as string;
    fields[name] = readValue(read);
  }
  return fields;
}

/** A replay compares no stand-ins. */
const NO_REFS: IsRef = () => false;
