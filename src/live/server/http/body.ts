/**
 * Parsing and checking an event request body (docs/protocol.md#event-request).
 *
 * Everything is checked before the session is touched, so a hostile body (not JSON, wrong types,
 * a seq that is not a safe integer, oversized lists) gets a 400 and leaves the session's model,
 * seqs and stored input seqs exactly as they were. Missing seq is 0 and missing inputState is
 * empty (docs/protocol.md#versioning: old clients get the pre-upgrade behaviour).
 */
import type { JsonValue } from "../../../json.ts";
import { attempt, err, ok, type Result } from "../../../result.ts";
import { type EventEntry, type EventRequestField, type InputReport, LIMITS } from "../../../protocol/mod.ts";
import { checkDepth, checkSizes } from "./body-limits.ts";

export type { EventEntry, InputReport };

export type EventBody = {
  readonly sessionId: string | undefined;
  /** One entry for a single event; the batch's entries, in order, for a batch. */
  readonly entries: readonly EventEntry[];
  readonly isBatch: boolean;
  readonly inputState: ReadonlyMap<string, InputReport>;
  readonly csrf: string | undefined;
  /**
   * The sending page's id (one page load of the client), an extension of the spec's body: with it
   * an entry sent twice (see recordIfNew, src/live/server/session/step.ts) is processed once. Optional.
   */
  readonly page: string | undefined;
  /**
   * The last server frame the client had applied when it built the body, an extension of the spec's
   * body: its handler and input ids are ids of that tree (docs/protocol.md#ids-that-move). Optional.
   */
  readonly lastAppliedSeq: number | undefined;
};

/** A JSON object read off the wire: its fields are spelled by the protocol's types, their values not yet checked. */
type Fields<Field extends string = string> = Partial<Record<Field, unknown>>;
type BodyFields = Fields<EventRequestField>;
type EntryFields = Fields<keyof EventEntry>;

const isObject = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);
const isSeq = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
const isName = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value.length <= LIMITS.maxNameLength;

function optionalName<Field extends string>(fields: Fields<Field>, field: Field): Result<string | undefined> {
  const value = fields[field];
  if (value === undefined || value === null) return ok(undefined);
  return isName(value)
    ? ok(value)
    : err("invalid_argument", `${field} must be a non-empty string of at most ${LIMITS.maxNameLength} characters`);
}

function entryOf(fields: EntryFields, where: string): Result<EventEntry> {
  const seq = fields.seq ?? 0;
  if (!isSeq(seq)) return err("invalid_argument", `${where}seq must be a non-negative safe integer`);
  if (!isName(fields.msg)) {
    return err("invalid_argument", `${where}msg must be a non-empty string of at most ${LIMITS.maxNameLength} characters`);
  }
  const args = fields.args ?? [];
  if (!Array.isArray(args)) return err("invalid_argument", `${where}args must be an array`);
  if (args.length > LIMITS.maxArgs) return err("invalid_argument", `${where}args has more than ${LIMITS.maxArgs} entries`);
  const sized = checkSizes(args, `${where}args`);
  if (!sized.ok) return sized;
  const handlerId = optionalName(fields, "handlerId");
  if (!handlerId.ok) return handlerId;
  return ok({ seq, msg: fields.msg, args: args as JsonValue[], handlerId: handlerId.value });
}

function inputStateOf(value: unknown): Result<Map<string, InputReport>> {
  const reports = new Map<string, InputReport>();
  if (value === undefined || value === null) return ok(reports);
  if (!isObject(value)) return err("invalid_argument", "inputState must be an object");
  const ids = Object.keys(value);
  if (ids.length > LIMITS.maxInputs) return err("invalid_argument", `inputState has more than ${LIMITS.maxInputs} entries`);
  for (const id of ids) {
    const report = value[id];
    if (!isName(id) || !isObject(report) || typeof report.value !== "string" || !isSeq(report.seq)) {
      return err("invalid_argument", "inputState entries must be { value: string, seq: non-negative safe integer }");
    }
    const sized = checkSizes(report.value, "inputState");
    if (!sized.ok) return sized;
    reports.set(id, { value: report.value, seq: report.seq });
  }
  return ok(reports);
}

/** Parses the raw body text (already size-checked). */
export function parseEventBody(text: string): Result<EventBody> {
  const shallow = checkDepth(text);
  if (!shallow.ok) return shallow;
  const parsed = attempt((): unknown => JSON.parse(text), "invalid_argument", "the body is not JSON");
  if (!parsed.ok) return parsed;
  if (!isObject(parsed.value)) return err("invalid_argument", "the body must be a JSON object");
  return bodyOf(parsed.value);
}

function bodyOf(parsed: BodyFields): Result<EventBody> {
  const sessionId = optionalName(parsed, "sessionId");
  if (!sessionId.ok) return sessionId;
  const page = optionalName(parsed, "page");
  if (!page.ok) return page;
  const csrf = parsed.csrf === undefined ? undefined : typeof parsed.csrf === "string" ? parsed.csrf : null;
  if (csrf === null) return err("invalid_argument", "csrf must be a string");
  const inputState = inputStateOf(parsed.inputState);
  if (!inputState.ok) return inputState;
  const lastAppliedSeq = parsed.lastAppliedSeq ?? undefined;
  if (lastAppliedSeq !== undefined && !isSeq(lastAppliedSeq)) {
    return err("invalid_argument", "lastAppliedSeq must be a non-negative safe integer");
  }

  const entries: EventEntry[] = [];
  const isBatch = parsed.batch !== undefined;
  if (isBatch) {
    // docs/protocol.md#batches: with a batch, the top-level msg, args, handlerId and seq are ignored.
    if (!Array.isArray(parsed.batch)) return err("invalid_argument", "batch must be an array");
    if (parsed.batch.length > LIMITS.maxBatch) return err("invalid_argument", `batch has more than ${LIMITS.maxBatch} entries`);
    for (const [i, entry] of parsed.batch.entries()) {
      if (!isObject(entry)) return err("invalid_argument", `batch[${i}] must be an object`);
      const checked = entryOf(entry, `batch[${i}].`);
      if (!checked.ok) return checked;
      entries.push(checked.value);
    }
  } else {
    const checked = entryOf(parsed, "");
    if (!checked.ok) return checked;
    entries.push(checked.value);
  }
  return ok({ sessionId: sessionId.value, entries, isBatch, inputState: inputState.value, csrf, page: page.value, lastAppliedSeq });
}

/** Reads at most `limit` bytes of a request body; undefined when it is larger. */
export async function readBodyLimited(req: Request, limit: number): Promise<string | undefined> {
  const declared = Number(req.headers.get("Content-Length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) return undefined;
  if (Number.isFinite(declared)) {
    // A declared length within the limit: read it whole (the runtime's own, faster path), and
    // still refuse a body that turns out longer than it said. `req.body` is not touched on this
    // path: a server adapter's lazy request (@hono/node-server's) reads a body it is asked for as
    // text straight from the socket, but builds a whole stream-backed Request for `.body`.
    const text = await req.text();
    // A UTF-16 unit is at most 3 UTF-8 bytes: only a long text needs its bytes counted.
    return text.length > limit || (text.length * 3 > limit && new TextEncoder().encode(text).length > limit) ? undefined : text;
  }
  if (req.body === null) return "";
  const reader = req.body.getReader();
  // An event body is small and usually arrives as one chunk: decoded as it is, without a copy.
  const first = await reader.read();
  if (first.done) return "";
  if (first.value.byteLength > limit) {
    await reader.cancel();
    return undefined;
  }
  const chunks: Uint8Array[] = [first.value];
  let size = first.value.byteLength;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return UTF8.decode(first.value);
  const joined = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return UTF8.decode(joined);
}

/** Decodes whole bodies only (no `stream` option), so one decoder serves every request. */
const UTF8 = new TextDecoder();
