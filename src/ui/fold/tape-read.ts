/**
 * Reading a fold's tape (src/ui/fold/tape-write.ts, src/ui/fold/shape.ts): comparing a call of the
 * render under way with one of its records, and replaying the records into elements.
 *
 * A comparison answers exactly what the element log's comparison of the same call with the element
 * the record stands for would (src/ui/call-record.ts sameCall, src/ui/same-value.ts): the tag, the
 * bag's names in order with the same values as data, and the children as the build flattens them,
 * an element child being the stand-in of the record it refers to. A hit is therefore always what
 * a build would give. Tags and names are the shape's strings, which the view writes as the same
 * literals each time, and values compare with `===`: a row that matches allocates nothing but its
 * stand-ins.
 *
 * The comparisons are not re-entrant (no app code runs in them), which lets the children walk keep
 * its state in module variables rather than an object per call.
 */
import { type Attrs, CHILDREN_PROP } from "../attrs.ts";
import { KEYED, recordCall } from "../call-record.ts";
import { builders } from "./builders.ts";
import type { Child, UiElement, UiNode } from "../types.ts";
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

/** Whether `value` is the stand-in of record `index` of `source`'s tape (src/ui/fold/fold-part.ts). */
export type IsRef = (value: unknown, source: object, index: number) => boolean;

// Where the comparison is: the shape's ops, the fold's values, the next op and value.
let ops: readonly Op[] = [];
let values: readonly unknown[] = [];
let op = 0;
let value = 0;

/**
 * Whether record `record` of `tape` is the `Ui.h` call `tag, attrs, children` (`source` owns its
 * stand-ins). This runs for every call of every unchanged row on every event, so its usual case
 * (plain values, children that are texts and elements with no nested lists) is read with local
 * variables, and only the rest goes through the shared walkers below.
 */
export function matchElementCall(
  tape: Tape,
  record: number,
  source: object,
  isRef: IsRef,
  tag: string,
  attrs: Attrs | null | undefined,
  children: readonly Child[],
): boolean {
  const shape = tape.shape;
  const code = shape.ops;
  let at = shape.opAt[record]!;
  if (code[at] !== OP_ELEMENT || code[at + 1] !== tag) return false;
  const kept = tape.values;
  let next = shape.valueAt[record]!;
  const count = code[at + 2] as number;
  at += 3;
  let seen = 0;
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
        if (code[at + 2] !== v) return false; // never NaN (src/ui/fold/shape.ts canBeConstant)
        at += 3;
      } else {
        ops = code;
        values = kept;
        op = at + 1;
        value = next;
        if (!sameValue(v)) return false;
        at = op;
        next = value;
      }
      seen++;
    }
  }
  if (seen !== count) return false;
  const left = code[at + 1] as number;
  if (code[at] === OP_BUILT) return sameBuiltKids(code, kept, at + 2, next, left, children, source, isRef);
  ops = code;
  values = kept;
  op = at + 2;
  value = next;
  kidsLeft = left;
  kidSource = source;
  kidIsRef = isRef;
  const same = keptItems(children);
  kidSource = undefined;
  return same && kidsLeft === 0;
}

/**
 * Whether a call's children, flattened as the build flattens them (src/ui/call-record.ts
 * sameBuiltChildren), are the `left` child ops from `at` (the fold's values from `next`): texts
 * merged where they meet, an element the stand-in of the record it refers to, raw HTML its markup.
 * Children holding a nested list are flattened once and compared again, from the same place.
 */
function sameBuiltKids(
  code: readonly Op[],
  kept: readonly unknown[],
  at: number,
  next: number,
  left: number,
  children: readonly Child[],
  source: object,
  isRef: IsRef,
): boolean {
  const start = at, startValue = next, count = left;
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
    if (Array.isArray(child)) return sameBuiltKids(code, kept, start, startValue, count, flatChildren(children, []), source, isRef);
    const node = child as UiNode;
    if (node.kind === "text") {
      text += node.text;
      continue;
    }
    if (text !== "") {
      const end = textOp(code, kept, at, next, left, text);
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
    if (textOp(code, kept, at, next, left, text) < 0) return false;
    left--;
  }
  return left === 0;
}

/** `children` with their nested lists spread in place, into `out`. */
function flatChildren(children: readonly Child[], out: Child[]): Child[] {
  for (const child of children) {
    if (Array.isArray(child)) flatChildren(child as readonly Child[], out);
    else out.push(child);
  }
  return out;
}

/** Where the child op at `at` ends when it is the text `text` (a value, or a constant of the shape); -1 when not. */
function textOp(code: readonly Op[], kept: readonly unknown[], at: number, next: number, left: number, text: string): number {
  if (left === 0) return -1;
  const mark = code[at];
  if (mark === OP_TEXT) return kept[next] === text ? at + 1 : -1;
  return mark === OP_CONST_TEXT && code[at + 1] === text ? at + 2 : -1;
}

/** Whether record `record` of `tape` is the `Ui.keyed` call `key, node`. */
export function matchKeyedCall(tape: Tape, record: number, source: object, isRef: IsRef, key: string, node: UiElement): boolean {
  const shape = tape.shape;
  const at = shape.opAt[record]!;
  return shape.ops[at] === OP_KEYED && tape.values[shape.valueAt[record]!] === key && isRef(node, source, shape.ops[at + 1] as number);
}

/** Whether the value at the ops' place is `v` as data (src/ui/same-value.ts sameValue); moves past it. */
function sameValue(v: unknown): boolean {
  const kind = ops[op++];
  if (kind === OP_VALUE) {
    const kept = values[value++];
    // NaN is the one value unequal to itself; 0 and -0 render alike.
    return kept === v || (kept !== kept && v !== v);
  }
  if (kind === OP_CONST) return ops[op++] === v; // never NaN (src/ui/fold/shape.ts canBeConstant)
  const n = ops[op++] as number;
  if (kind === OP_ARRAY) {
    if (!Array.isArray(v) || v.length !== n) return false;
    for (let k = 0; k < n; k++) if (!sameValue(v[k])) return false;
    return true;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v) || (v as { kind?: unknown }).kind === "el") return false;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  let seen = 0;
  for (const name in v) {
    if (!Object.prototype.hasOwnProperty.call(v, name) || seen === n || ops[op] !== name) return false;
    op++;
    if (!sameValue((v as Record<string, unknown>)[name])) return false;
    seen++;
  }
  return seen === n;
}

// The kept-items walk's state: how many child ops are left, and whose stand-ins count.
let kidsLeft = 0;
let kidSource: object | undefined;
let kidIsRef: IsRef = () => false;

/** The next child op is a text, and it is `text`. */
function textKid(text: string): boolean {
  if (kidsLeft === 0) return false;
  const kind = ops[op];
  if (kind === OP_TEXT) {
    if (values[value] !== text) return false;
    op++;
    value++;
  } else if (kind === OP_CONST_TEXT) {
    if (ops[op + 1] !== text) return false;
    op += 2;
  } else return false;
  kidsLeft--;
  return true;
}

/** An element or raw child against the next child op: the stand-in of the record it refers to, or the same markup. */
function nodeKid(node: UiNode): boolean {
  if (kidsLeft === 0) return false;
  const kind = ops[op];
  if (kind === OP_REF) {
    if (!kidIsRef(node, kidSource!, ops[op + 1] as number)) return false;
    op += 2;
  } else {
    if (node.kind !== "raw" || kind !== OP_RAW || values[value] !== node.html) return false;
    op++;
    value++;
  }
  kidsLeft--;
  return true;
}

/** The call's children as items (src/ui/call-record.ts keptChildrenEnd) against the KEPT ops. */
function keptItems(children: readonly Child[]): boolean {
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child === null || child === undefined || child === true || child === false || child === "") continue;
    if (typeof child === "string") {
      if (!textKid(child)) return false;
    } else if (typeof child === "number") {
      if (!textKid(String(child))) return false;
    } else if (Array.isArray(child)) {
      if (!keptItems(child as readonly Child[])) return false;
    } else if ((child as UiNode).kind === "text") {
      const text = (child as { text: string }).text;
      if (text !== "" && !textKid(text)) return false;
    } else if (!nodeKid(child as UiNode)) return false;
  }
  return true;
}

/**
 * The elements of a tape's records, in order: each call made again through the builders, outside
 * any session's log, with the call it keeps recorded as the log records it. The last is the root.
 */
export function replayTape(tape: Tape): UiElement[] {
  const { element: elementOf, keyed: keyedElement, raw } = builders();
  const shape: Shape = tape.shape;
  const elements: UiElement[] = [];
  ops = shape.ops;
  values = tape.values;
  op = 0;
  value = 0;
  for (let record = 0; record < shape.records; record++) {
    if (ops[op] === OP_KEYED) {
      const key = values[value++] as string;
      const inner = elements[ops[op + 1] as number]!;
      op += 2;
      const element = keyedElement(key, inner);
      element.call = [KEYED, key, inner];
      elements.push(element);
      continue;
    }
    const tag = ops[op + 1] as string;
    let count = ops[op + 2] as number;
    op += 3;
    let attrs: Record<string, unknown> | null = null;
    for (; count > 0; count--) {
      const name = ops[op++] as string;
      (attrs ??= {})[name] = readValue();
    }
    let kids = ops[op + 1] as number;
    op += 2;
    const children: Child[] = [];
    for (; kids > 0; kids--) {
      const kind = ops[op++];
      if (kind === OP_REF) children.push(elements[ops[op++] as number]!);
      else if (kind === OP_CONST_TEXT) children.push(ops[op++] as string);
      else if (kind === OP_TEXT) children.push(values[value++] as string);
      else children.push(raw(values[value++] as string));
    }
    // The builders run no app code, so the reading state stays this replay's.
    const element = elementOf(tag, attrs as Attrs | null, children);
    recordCall(element, attrs as Attrs | null, children);
    elements.push(element);
  }
  return elements;
}

/** The value at the ops' place, as the call had it (an array or plain object made again); moves past it. */
function readValue(): unknown {
  const kind = ops[op++];
  if (kind === OP_VALUE) return values[value++];
  if (kind === OP_CONST) return ops[op++];
  const n = ops[op++] as number;
  if (kind === OP_ARRAY) {
    const items = new Array<unknown>(n);
    for (let k = 0; k < n; k++) items[k] = readValue();
    return items;
  }
  const fields: Record<string, unknown> = {};
  for (let k = 0; k < n; k++) {
    const name = ops[op++] as string;
    fields[name] = readValue();
  }
  return fields;
}
