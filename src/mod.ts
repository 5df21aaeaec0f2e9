/** svc-live: everything, re-exported from the per-area entry points (README.md#install). */
export * from "./auth/mod.ts";
export * from "./server/mod.ts";
export * from "./live/mod.ts";
export * from "./ui/mod.ts";
export * from "./db/mod.ts";
export { type ErrorCode, SvcError } from "./errors.ts";
export { andThen, andThenResult, type Err, err, map, mapErr, type Ok, ok, Result, Task, unwrapOr } from "./result.ts";
export type { JsonObject, JsonPrimitive, JsonValue } from "./json.ts";
export { type LogLevel, type LogSink, setLogSink } from "./log.ts";
export { createElement } from "./jsx/jsx-runtime.ts";
export type { JsxMessages, Register } from "./jsx/register.ts";
