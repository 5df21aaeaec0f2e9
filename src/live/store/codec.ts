/**
 * How a live app's model is written to a shared session store and read back
 * (docs/deployment.md#several-replicas). The default is JSON, which fits a model of plain data:
 * objects, arrays, strings, finite numbers, booleans and null. A model holding anything else (a
 * Date, a Map, a class instance, a function, undefined in an array, NaN) would come back changed
 * from JSON, so it needs a codec of the app's own; `checkPlainJson` finds the first such value
 * so the app is refused when it is defined, with the path to blame, not at its first save.
 */
import { SvcError } from "../../errors.ts";

export type ModelCodec<Model> = {
  /** The model as text; must not throw for any model the app produces. */
  readonly encode: (model: Model) => string;
  /** The model `encode` wrote. */
  readonly decode: (text: string) => Model;
};

export const jsonCodec: ModelCodec<unknown> = {
  encode: (model) => JSON.stringify(model),
  decode: (text) => JSON.parse(text) as unknown,
};

/** The path and kind of the first value in `value` that JSON would not give back as it is. */
export function checkPlainJson(value: unknown, path = "model"): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `${path} is ${value}, which JSON writes as null`;
    case "undefined":
      return `${path} is undefined, which JSON drops`;
    case "bigint":
    case "function":
    case "symbol":
      return `${path} is a ${typeof value}, which JSON cannot write`;
  }
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = checkPlainJson(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? "object";
    return `${path} is a ${name}, which JSON does not give back as one`;
  }
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    // An absent optional field is fine: JSON drops it and it reads back as absent.
    if (field === undefined) continue;
    const found = checkPlainJson(field, /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Checks that a model survives the codec: with the default JSON codec, that it is plain data;
 * with the app's own, that decode(encode(model)) encodes to the same text. Throws SvcError
 * "model_not_serialisable" naming what is wrong.
 */
export function assertStorable<Model>(model: Model, codec: ModelCodec<Model> | undefined): void {
  if (codec === undefined) {
    const found = checkPlainJson(model);
    if (found !== undefined) {
      throw new SvcError(
        "model_not_serialisable",
        `a shared session store needs a model it can write: ${found}; keep the model to plain JSON data or pass a codec ({ encode, decode }) in the live app's options`,
      );
    }
    return;
  }
  let text: string;
  try {
    text = codec.encode(model);
    if (typeof text !== "string") throw new TypeError(`encode returned a ${typeof text}, not a string`);
    if (codec.encode(codec.decode(text)) !== text) throw new TypeError("decode(encode(model)) encodes differently");
  } catch (error) {
    throw new SvcError(
      "model_not_serialisable",
      `the live app's codec does not round-trip its model: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
