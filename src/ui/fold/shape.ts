/**
 * A fold's shape: the static part of the calls that built a small subtree (src/ui/fold/tape-write.ts
 * writes it), shared by every fold of the same shape, in every session.
 *
 * Why shared: the rows of a list are built by one row function, so they make the same calls with
 * the same tags, the same attribute names and the same structure, and differ only in their values
 * (texts, attribute values, handler arguments). A fold keeps its values in a list of its own, and
 * its shape is one object for all of them: what LiveView does with a template's static parts,
 * found here from the calls, with no template compiler.
 *
 * The ops. A list of small numbers and strings, read from a record's start:
 *
 *   E  tag count (name value){count} kids      a `Ui.h` call
 *   K  inner                                   a `Ui.keyed` call (its key is the next value)
 *   kids  = BUILT n (TEXT | RAW | REF index){n}        the children as built
 *         | KEPT n (TEXT | RAW | REF index){n}         the call's own children, for a tag whose
 *                                                      build rewrites them (src/ui/element-log.ts)
 *   value = VALUE                                      the next value: a string, number, boolean,
 *                                                      null or undefined
 *         | ARRAY length value{length}
 *         | OBJECT count (name value){count}
 *
 * TEXT, RAW and VALUE each take the next entry of the fold's values, in op order. REF refers to an
 * element child by the index of its record: records are in call order, children first.
 */

export const OP_ELEMENT = 1;
export const OP_KEYED = 2;
export const OP_BUILT = 3;
export const OP_KEPT = 4;
export const OP_TEXT = 5;
export const OP_RAW = 6;
export const OP_REF = 7;
export const OP_VALUE = 8;
export const OP_ARRAY = 9;
export const OP_OBJECT = 10;

export type Op = number | string;

/** A shape: its ops, and where each record starts in them and in a fold's values. */
export type Shape = {
  readonly ops: readonly Op[];
  /** The number of records (calls). */
  readonly records: number;
  /** The op index of each record's start. */
  readonly opAt: Int32Array;
  /** The index in a fold's values of each record's first value. */
  readonly valueAt: Int32Array;
};

/**
 * Shapes met so far, by their ops written out: a page of one row function has one. Bounded, as an
 * app may make shapes without end (a row whose attribute names come from data); a shape dropped
 * here stays with the folds that hold it, and the next fold of that shape makes its own.
 */
const SHAPES = new Map<string, Shape>();
const SHAPES_LIMIT = 4096;

/** The shape of these ops (`records` of them), shared with every fold of the same ops. */
export function shapeOf(ops: Op[], records: number): Shape {
  const text = JSON.stringify(ops);
  const known = SHAPES.get(text);
  if (known !== undefined) return known;
  const shape = { ops, records, ...recordStarts(ops, records) };
  if (SHAPES.size >= SHAPES_LIMIT) SHAPES.clear();
  SHAPES.set(text, shape);
  return shape;
}

/** Where each record starts, in the ops and in the values. */
function recordStarts(ops: readonly Op[], records: number): { opAt: Int32Array; valueAt: Int32Array } {
  const opAt = new Int32Array(records);
  const valueAt = new Int32Array(records);
  let at = 0;
  let values = 0;
  for (let r = 0; r < records; r++) {
    opAt[r] = at;
    valueAt[r] = values;
    const end = skipRecord(ops, at);
    values += countValues(ops, at);
    at = end;
  }
  return { opAt, valueAt };
}

/** Where the record at `at` ends. */
function skipRecord(ops: readonly Op[], at: number): number {
  if (ops[at] === OP_KEYED) return at + 2;
  let count = ops[at + 2] as number;
  at += 3;
  for (; count > 0; count--) at = skipValue(ops, at + 1);
  let kids = ops[at + 1] as number;
  at += 2;
  for (; kids > 0; kids--) at += ops[at] === OP_REF ? 2 : 1;
  return at;
}

function skipValue(ops: readonly Op[], at: number): number {
  const op = ops[at];
  if (op === OP_ARRAY) {
    let length = ops[at + 1] as number;
    at += 2;
    for (; length > 0; length--) at = skipValue(ops, at);
    return at;
  }
  if (op === OP_OBJECT) {
    let count = ops[at + 1] as number;
    at += 2;
    for (; count > 0; count--) at = skipValue(ops, at + 1);
    return at;
  }
  return at + 1;
}

/** How many values the record at `at` takes. */
function countValues(ops: readonly Op[], at: number): number {
  if (ops[at] === OP_KEYED) return 1;
  // Names and tags are strings, and so are never one of the value ops, which are numbers; an index
  // or count equal to a value op's number is read as such only where an op is expected.
  let values = 0;
  let count = ops[at + 2] as number;
  at += 3;
  for (; count > 0; count--) {
    const next = skipValue(ops, at + 1);
    values += valuesIn(ops, at + 1);
    at = next;
  }
  let kids = ops[at + 1] as number;
  at += 2;
  for (; kids > 0; kids--) {
    if (ops[at] === OP_REF) at += 2;
    else {
      values++;
      at++;
    }
  }
  return values;
}

function valuesIn(ops: readonly Op[], at: number): number {
  const op = ops[at];
  if (op === OP_VALUE) return 1;
  let n = ops[at + 1] as number;
  let total = 0;
  at += 2;
  for (; n > 0; n--) {
    if (op === OP_OBJECT) at++; // the field's name
    total += valuesIn(ops, at);
    at = skipValue(ops, at);
  }
  return total;
}
