/**
 * svc-live: server-driven live user interfaces with authentication built in, on Hono and
 * Web-standard APIs; the same code runs under Node, Bun and Deno (README.md).
 *
 * This module re-exports everything; each area also has its own entry point:
 *
 * - `svc-live/live`: `Live.app` builds a live app from `init`, `update` and `view`; `Live.task`,
 *   `Live.batch`, `Live.every` and the other commands and subscriptions (docs/live-apps.md).
 * - `svc-live/ui`: `Ui.h`, `Ui.html`, `Ui.keyed`, `Ui.lazy`, `Ui.raw`, `Ui.text` build views, and
 *   the types of typed messages (docs/live-apps.md#typed-messages).
 * - `svc-live/auth`: `Auth.register`, `Auth.login`, passwords, tokens, sliding tokens and
 *   revocation (docs/auth.md).
 * - `svc-live/server`: `Server.slidingSession`, `Server.tokenSession`, guards, cookies and the
 *   production gate (docs/auth.md#hono-middleware).
 * - `svc-live/db`: `Db.open(url)` for SQLite or Postgres.
 * - `svc-live/jsx-runtime`: TSX views (`"jsxImportSource": "svc-live"`).
 *
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * type Messages = { Inc: [] };
 * export const app = Live.app<{ count: number }, Messages>({
 *   init: () => ({ count: 0 }),
 *   update: (model, msg, _args) => (msg === "Inc" ? { count: model.count + 1 } : model),
 *   view: (model) => Ui.h("button", { onClick: "Inc" }, `Clicked ${model.count} times`),
 * });
 * export default { fetch: app.fetch };
 * ```
 *
 * @module
 */
export * from "./auth/mod.ts";
export * from "./server/mod.ts";
export * from "./live/mod.ts";
export * from "./ui/mod.ts";
export * from "./db/mod.ts";
export { type ErrorCode, SvcError } from "./errors.ts";
export { andThen, andThenResult, type Err, err, map, mapErr, type Ok, ok, unwrapOr } from "./result.ts";
export { Result, Task } from "./result-namespaces.ts";
export type { JsonObject, JsonPrimitive, JsonValue } from "./json.ts";
export { type LogLevel, type LogSink, setLogSink } from "./log.ts";
export { createElement } from "./jsx/jsx-runtime.ts";
export type { JsxHandlerProps, Register, TsxMessageHint } from "./jsx/register.ts";
