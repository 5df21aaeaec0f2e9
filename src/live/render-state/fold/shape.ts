/**
 * A fold's shape: the static part of the calls that built a small subtree (src/live/render-state/fold/tape-write.ts
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
 *                                                      build rewrites them (src/live/render-state/element-log.ts)
 *   value = VALUE                                      the next value: a string, number, boolean,
 *                                                      null or undefined
 *         | CONST value                                the same value in every fold of the shape
 *         | ARRAY length value{length}
 *         | OBJECT count (name value){count}
 *   text  = TEXT | CONST_TEXT text                     (a child text, or a kept string item)
 *
 * TEXT, RAW and VALUE each take the next entry of the fold's values, in op order. REF refers to an
 * element child by the index of its record: records are in call order, children first.
 *
 * Constants. The values every row of a list shares (a class, an input's type, a handler's message
 * name, a button's label) are written into the shape once the first folds of its ops agree on them
 * (`refinedShape`), so that a fold keeps only what is its own: a slot less per shared value, on
 * every row of every session.
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
export const OP_CONST = 11;
export const OP_CONST_TEXT = 12;

/** An op, or a constant written among them (src/live/render-state/fold/shape.ts refine). */
export type Op = number | string | boolean | null;

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
 * Shapes met so far, by a hash of their ops, each bucket's ops compared in full: a page of one row
 * function has one. Bounded, as an app may make shapes without end (a row whose attribute names
 * come from data); a shape dropped here stays with the folds that hold it, and the next fold of
 * that shape makes its own. A hash rather than the ops written out as a key: a page's first render
 * and a session rendered again from its model write every row, and writing their ops out cost as
 * much as the rest of the fold.
 */
const SHAPES = new Map<number, Shape[]>();
const SHAPES_LIMIT = 4096;
let shapeCount = 0;

/** The shape of these ops (`records` of them), shared with every fold of the same ops. */
export function shapeOf(ops: Op[], records: number): Shape {
  const hash = opsHash(ops);
  const bucket = SHAPES.get(hash);
  if (bucket !== undefined) { for (const known of bucket) if (sameOps(known.ops, ops)) return known; }
  const shape = { ops, records, ...recordStarts(ops, records) };
  if (shapeCount >= SHAPES_LIMIT) {
    SHAPES.clear();
    shapeCount = 0;
  }
  const list = SHAPES.get(hash);
  if (list === undefined) SHAPES.set(hash, [shape]);
  else list.push(shape);
  shapeCount++;
  return shape;
}

/** A hash of ops: numbers and booleans whole, strings by their length and ends (the buckets compare them in full). */
function opsHash(ops: readonly Op[]): number {
  let h = 0x811c9dc5 ^ ops.length;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    if (typeof op === "number") h = Math.imul(h ^ (op | 0), 0x01000193);
    else if (typeof op === "string") {
      h = Math.imul(h ^ (op.length + 0x9e37), 0x01000193);
      if (op.length > 0) h = Math.imul(h ^ op.charCodeAt(0) ^ (op.charCodeAt(op.length - 1) << 16), 0x01000193);
    } else h = Math.imul(h ^ (op === true ? 0x51 : op === false ? 0x52 : 0x53), 0x01000193);
  }
  return h >>> 0;
}

/** The same ops, one by one (a constant is a string, a finite number, a boolean or null: `===` tells them apart). */
function sameOps(a: readonly Op[], b: readonly Op[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
  for (; kids > 0; kids--) at += ops[at] === OP_REF || ops[at] === OP_CONST_TEXT ? 2 : 1;
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
  return op === OP_CONST ? at + 2 : at + 1;
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
    if (ops[at] === OP_REF || ops[at] === OP_CONST_TEXT) at += 2;
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
  if (op === OP_CONST) return 0;
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

/**
 * What is known of the folds of one list of ops: the first few folds' values, and the shape with
 * the values they all share as constants, once they have been compared.
 */
type Family = { readonly plain: Shape; samples: (readonly unknown[])[]; refined: Refined | undefined };
type Refined = { readonly shape: Shape; readonly constant: readonly boolean[]; readonly values: readonly unknown[] };

/** How many folds of a shape are compared before its shared values become constants. */
const SAMPLES = 4;
const FAMILIES = new Map<number, Family[]>();
let familyCount = 0;

/**
 * The shape and values a fold of these ops and values keeps: with the values its family shares
 * written into the shape as constants when they are this fold's too (see the top of this file),
 * else the plain shape and all its values.
 */
export function refinedShape(ops: Op[], records: number, values: unknown[]): { shape: Shape; values: readonly unknown[] } {
  const hash = opsHash(ops);
  let family: Family | undefined;
  const bucket = FAMILIES.get(hash);
  if (bucket !== undefined) { for (const known of bucket) if (sameOps(known.plain.ops, ops)) family = known; }
  if (family === undefined) {
    if (familyCount >= SHAPES_LIMIT) {
      FAMILIES.clear();
      familyCount = 0;
    }
    family = { plain: shapeOf(ops, records), samples: [], refined: undefined };
    const list = FAMILIES.get(hash);
    if (list === undefined) FAMILIES.set(hash, [family]);
    else list.push(family);
    familyCount++;
  }
  const refined = family.refined;
  if (refined !== undefined) {
    const own = ownValues(refined, values);
    if (own !== undefined) return { shape: refined.shape, values: own };
  } else if (family.samples.length < SAMPLES) {
    family.samples.push(values);
    if (family.samples.length === SAMPLES) family.refined = refine(family.plain, family.samples);
  }
  return { shape: family.plain, values: values.slice() };
}

/** The values of a fold less the refined shape's constants, or undefined when one of them differs. */
function ownValues(refined: Refined, values: readonly unknown[]): unknown[] | undefined {
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    if (!refined.constant[i]) count++;
    else if (!Object.is(values[i], refined.values[i])) return undefined;
  }
  // Made at its final length: a list grown by pushes keeps spare room, in every fold of a page.
  const own = new Array<unknown>(count);
  for (let i = 0, w = 0; i < values.length; i++) if (!refined.constant[i]) own[w++] = values[i];
  return own;
}

/**
 * A value the shape's key tells apart from every other: a string, a boolean, null, or a finite
 * number other than -0 (its ops are written out as JSON, which would write undefined, NaN and -0
 * as other values).
 */
function canBeConstant(value: unknown): boolean {
  return typeof value === "string" || typeof value === "boolean" || value === null ||
    (typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0));
}

/**
 * The shape of `plain`'s ops with the values all `samples` share as constants, and which values
 * those are; undefined when they share none. Only attribute values and texts become constants: a
 * key tells rows apart, and raw markup stays a value.
 */
/** A value the walk has not made a constant (yet). */
const NOT_CONSTANT = false;

function refine(plain: Shape, samples: readonly (readonly unknown[])[]): Refined | undefined {
  const first = samples[0]!;
  const shared = first.map((value, i) => canBeConstant(value) && samples.every((sample) => Object.is(sample[i], value)));
  // Which values became constants, set as the walk writes them: the filter of every later fold's values.
  const constant = first.map(() => NOT_CONSTANT);
  const ops: Op[] = [];
  const source = plain.ops;
  let at = 0;
  let value = 0;
  const asConstant = (): boolean => {
    if (!shared[value]) return false;
    constant[value] = true;
    return true;
  };
  // A walk by the grammar, copying ops and writing constants in place of the value ops they fill.
  const copyValue = (): void => {
    const op = source[at]!;
    if (op === OP_VALUE) {
      if (asConstant()) ops.push(OP_CONST, first[value] as Op);
      else ops.push(OP_VALUE);
      value++;
      at++;
      return;
    }
    const n = source[at + 1] as number;
    ops.push(op, n);
    at += 2;
    for (let k = 0; k < n; k++) {
      if (op === OP_OBJECT) ops.push(source[at++]!);
      copyValue();
    }
  };
  for (let record = 0; record < plain.records; record++) {
    if (source[at] === OP_KEYED) {
      ops.push(OP_KEYED, source[at + 1]!);
      at += 2;
      value++;
      continue;
    }
    const count = source[at + 2] as number;
    ops.push(source[at]!, source[at + 1]!, count);
    at += 3;
    for (let k = 0; k < count; k++) {
      ops.push(source[at++]!);
      copyValue();
    }
    const kids = source[at + 1] as number;
    ops.push(source[at]!, kids);
    at += 2;
    for (let k = 0; k < kids; k++) {
      const op = source[at++]!;
      if (op === OP_REF) ops.push(op, source[at++]!);
      else if (op === OP_TEXT && asConstant()) ops.push(OP_CONST_TEXT, first[value++] as Op);
      else {
        ops.push(op);
        value++;
      }
    }
  }
  if (!constant.some((c) => c)) return undefined;
  return { shape: shapeOf(ops, plain.records), constant, values: first };
}
