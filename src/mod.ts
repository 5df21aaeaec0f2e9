/** svc-live: everything, re-exported from the per-area entry points (README.md#install). */
export * from "./auth/mod.ts";
export * from "./server/mod.ts";
export * from "./live/mod.ts";
export * from "./ui/mod.ts";
export * from "./db/mod.ts";
export { SvcError, type ErrorCode } from "./errors.ts";
export { Result, Task, ok, err, map, andThen, mapErr, unwrapOr, andThenResult, type Ok, type Err } from "./result.ts";
export type { JsonValue, JsonObject, JsonPrimitive } from "./json.ts";
export { setLogSink, type LogSink, type LogLevel } from "./log.ts";
export { createElement } from "./jsx/jsx-runtime.ts";
