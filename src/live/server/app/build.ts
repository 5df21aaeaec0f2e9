/**
 * `Live.app(definition, options)`: the one way an app builds its `LiveApp`
 * (src/live/server/app/app.ts), its definition checked and made ready to run first.
 */
import type { UntypedMessages } from "../../../ui/messages.ts";
import { type LiveDefinition, type RunningDefinition, updateByMessage } from "../session/definition.ts";
import { forRunning } from "../session/development.ts";
import { LiveApp } from "./app.ts";
import type { LiveAppOptions } from "./options.ts";

/**
 * Builds a live app from its definition (docs/live-apps.md#the-app-definition): `init` makes a
 * session's model, `update` turns a message into the next model (or `[model, command]`), `view`
 * renders the model, and svc-live sends each page only what changed. The result is a Hono app:
 * serve its `fetch`, or mount it with `app.route(path, live)`.
 *
 * `Messages`, when given, maps each message's name to the arguments `update` receives
 * (docs/live-apps.md#typed-messages): `update` gets `msg` and `args` narrowed together, and the
 * view's handler props are checked against it. Without it, any message name is accepted.
 *
 * The secret is resolved here: `SVC_AUTH_TOKEN_SECRET` (or the `secret` option) under 32 bytes
 * throws, and so does a missing one while the production gate is on (docs/auth.md#production-gate).
 *
 * @param definition `init`, `update`, `view`, and optionally `subscriptions` and `messages`
 * @param options the page's title and head, a `name` for a second app, session bounds, a store
 *   (docs/live-apps.md#options)
 * @returns the live app
 * @throws {TypeError} for a definition without `init`, `update` and `view`, or a bad option
 * @throws {SvcError} `secret_too_short`, or `secret_missing` in production
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * type Model = { count: number };
 * type Messages = { Inc: []; Add: [amount: number] };
 *
 * export const app = Live.app<Model, Messages>({
 *   init: () => ({ count: 0 }),
 *   update: (model, msg, args) => {
 *     switch (msg) {
 *       case "Inc":
 *         return { count: model.count + 1 };
 *       case "Add":
 *         return { count: model.count + args[0] };
 *     }
 *   },
 *   view: (model) =>
 *     Ui.h("p", {}, `Clicked ${model.count} times `, Ui.h("button", { onClick: "Inc" }, "+1"), Ui.h("button", { onClick: ["Add", 10] }, "+10")),
 *   messages: { Inc: true, Add: true },
 * }, { title: "Counter" });
 *
 * export default { fetch: app.fetch };
 * ```
 */
export function app<Model, Messages = UntypedMessages>(
  definition: LiveDefinition<Model, Messages>,
  options?: LiveAppOptions,
): LiveApp<Model> {
  // The message map is the type checker's alone: at run time every message arrives as a name and JSON arguments.
  return new LiveApp(forRunning(withUpdateFunction(definition as unknown as LiveDefinition<Model>), options ?? {}), options);
}

/**
 * The definition with `update` as one function: handlers per message become one that dispatches
 * by name, and their names are the messages development checks the view against, unless the
 * definition lists its `messages` itself.
 */
function withUpdateFunction<Model>(definition: LiveDefinition<Model>): RunningDefinition<Model> {
  const handlers = definition?.update;
  if (typeof handlers !== "object" || handlers === null) return definition as RunningDefinition<Model>;
  const messages = definition.messages ?? Object.fromEntries(Object.keys(handlers).map((name) => [name, true as const]));
  return { ...definition, update: updateByMessage(handlers), messages };
}
