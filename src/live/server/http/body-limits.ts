/**
 * The shape limits of an event body (docs/protocol.md#limits): nesting depth, the length
 * of every string and the size of every array and object. The depth is checked on the raw text,
 * before JSON.parse, so a body nested 100,000 deep costs one linear scan and no parse; the sizes
 * are checked on the parsed value, whose depth is then bounded. A body over a limit is refused
 * with an error that names the limit (LIMITS in src/protocol/http.ts).
 */
import { err, ok, type Result } from "../../../result.ts";
import { LIMITS } from "../../../protocol/mod.ts";

const QUOTE = 34, BACKSLASH = 92, OPEN_ARRAY = 91, CLOSE_ARRAY = 93, OPEN_OBJECT = 123, CLOSE_OBJECT = 125;

/** Refuses a JSON text that nests deeper than LIMITS.maxDepth (brackets inside strings do not count). */
export function checkDepth(text: string): Result<void> {
  // Nesting deeper than the limit takes more opening brackets than the limit, wherever they stand:
  // a text with no more of them (every event a browser sends) is not scanned character by character.
  if (openingBrackets(text, LIMITS.maxDepth + 1) <= LIMITS.maxDepth) return ok();
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > LIMITS.maxDepth) return limitError("maxDepth", `the body nests more than ${LIMITS.maxDepth} levels deep`);
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--;
    }
  }
  return ok();
}

/** How many "[" and "{" the text holds, counted up to `atMost` (the string search is the runtime's own). */
function openingBrackets(text: string, atMost: number): number {
  let count = 0;
  for (const bracket of BRACKETS) {
    for (let at = text.indexOf(bracket); at >= 0 && count < atMost; at = text.indexOf(bracket, at + 1)) count++;
  }
  return count;
}

const BRACKETS = ["[", "{"] as const;

/**
 * Refuses a parsed value holding a string longer than LIMITS.maxStringLength, or an array or
 * object with more than LIMITS.maxArrayLength entries (`where` names the value in the error).
 * The value's depth is already bounded by checkDepth.
 */
export function checkSizes(value: unknown, where: string): Result<void> {
  if (typeof value === "string") {
    return value.length > LIMITS.maxStringLength
      ? limitError("maxStringLength", `${where} holds a string longer than ${LIMITS.maxStringLength} characters`)
      : ok();
  }
  if (typeof value !== "object" || value === null) return ok();
  const entries = Array.isArray(value) ? value : Object.values(value);
  if (entries.length > LIMITS.maxArrayLength) {
    return limitError("maxArrayLength", `${where} holds an array or object of more than ${LIMITS.maxArrayLength} entries`);
  }
  if (!Array.isArray(value)) {
    for (const key of Object.keys(value)) {
      if (key.length > LIMITS.maxStringLength) {
        return limitError("maxStringLength", `${where} holds a key longer than ${LIMITS.maxStringLength} characters`);
      }
    }
  }
  for (const entry of entries) {
    const checked = checkSizes(entry, where);
    if (!checked.ok) return checked;
  }
  return ok();
}

function limitError(limit: keyof typeof LIMITS, message: string): Result<never> {
  return err("limit_exceeded", `${message} (limit ${limit} = ${LIMITS[limit]})`);
}
