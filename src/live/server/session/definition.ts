/**
 * What an application gives Live.app: the Elm-style quartet (docs/live-apps.md#the-app-definition). `update` returns
 * the new model, or [model, cmd]; `subscriptions` returns the timers the model wants.
 */
import type { JsonObject, JsonValue } from "../../../json.ts";
import type { UiElement } from "../../../ui/node.ts";
import type { IsUntyped, MessageNames, UntypedMessages, UpdateCall } from "../../../ui/messages.ts";
import { type Cmd, isCmd } from "./commands.ts";
import type { Sub } from "./subscriptions.ts";

/** What `update` (and `init`) returns: the new model, or the model and a command. */
export type Update<Model> = Model | readonly [Model, Cmd];

/** What `init` is given when a page load starts a session. */
export type InitContext = {
  /** The page URL the session started on. */
  readonly url: URL;
  /** Verified sliding-token claims, when the app uses withAuthSliding and the request carries one. */
  readonly auth: JsonObject | undefined;
  /**
   * The page request that starts the session, for what the URL should not carry: a cookie the app
   * set (a one-time notice after a form POST), a header. Read it; its body is not the app's.
   */
  readonly request: Request;
};

/**
 * A live app's definition: `init`, `update`, `view` and optional `subscriptions`
 * (docs/live-apps.md#the-app-definition). `Messages`, when given, maps each message's name to the
 * arguments `update` receives (docs/live-apps.md#typed-messages): `update` then gets `msg` and
 * `args` narrowed together, and the view's handler props are checked against it.
 */
export type LiveDefinition<Model, Messages = UntypedMessages> = {
  /** Makes the model when a page load starts a session. */
  readonly init: (context: InitContext) => Update<Model>;
  /**
   * Returns the new model (or `[model, cmd]`) for a message and its arguments: one function of
   * `(model, msg, args)`, or one handler per message (`{ Add: (model, fields) => … }`), which
   * under a message map must have every message's, so that one left out is a compile error
   * naming it.
   */
  readonly update: UpdateFunction<Model, Messages> | UpdateHandlers<Model, Messages>;
  /** Renders the model as one root element; a function of the model alone. */
  readonly view: (model: Model) => UiElement<Messages>;
  /** The timers the model wants. */
  readonly subscriptions?: (model: Model) => readonly Sub[];
  /**
   * The messages the app handles, each name set to `true`: under a message map, every one of its
   * names and nothing else. In development a handler naming any other message is logged
   * (docs/live-apps.md#mistakes-are-loud-in-development).
   */
  readonly messages?: MessageNames<Messages>;
};

/** `update` as one function of `(model, msg, args)`, narrowed together under a message map. */
export type UpdateFunction<Model, Messages = UntypedMessages> = (...call: UpdateCall<Model, Messages>) => Update<Model>;

/** A definition as an app runs it: its `update` one function (src/live/server/app/build.ts makes it so). */
export type RunningDefinition<Model> = LiveDefinition<Model> & { readonly update: UpdateFunction<Model> };

/**
 * `update` written as one handler per message: each takes the model and that message's arguments.
 * Under a message map every message must have its handler (one left out is the compiler's
 * "Property 'Remove' is missing"); without one, any names.
 */
export type UpdateHandlers<Model, Messages> = IsUntyped<Messages> extends true
  ? { readonly [name: string]: (model: Model, ...args: JsonValue[]) => Update<Model> }
  : { readonly [K in keyof Messages & string]-?: (model: Model, ...args: Extract<Messages[K], readonly unknown[]>) => Update<Model> };

/**
 * The one `update` function of handlers per message: a message without a handler (one the map
 * does not declare, reaching an app at run time) throws, naming it, and is reported as update's
 * error (docs/live-apps.md#mistakes-are-loud-in-development).
 */
export function updateByMessage<Model>(
  handlers: UpdateHandlers<Model, UntypedMessages>,
): (model: Model, msg: string, args: readonly JsonValue[]) => Update<Model> {
  return (model, msg, args) => {
    const handler = Object.hasOwn(handlers, msg) ? handlers[msg] : undefined;
    if (typeof handler !== "function") throw new Error(`update has no handler for the message ${JSON.stringify(msg)}`);
    return handler(model, ...args);
  };
}

/**
 * What `Live.unhandled` accepts: a message name no `case` is left for, which is `never` once every
 * message has one. Any other name is turned into a sentence naming it, so that the compiler's
 * error says which message has no case (`"Remove"` is not assignable to `"no case in update for
 * Remove"`).
 */
export type Unhandled<K extends string> = [K] extends [never] ? never : string extends K ? K : `no case in update for ${K}`;

/**
 * Ends a `switch` over an update's messages: `default: return Live.unhandled(msg);`. Under a
 * message map, a message without its `case` is a compile error that names it. When it runs (an
 * untyped app, or a message the map does not declare) it throws, naming the message, and the error
 * is reported as update's (docs/live-apps.md#mistakes-are-loud-in-development).
 *
 * @param msg the message, narrowed by the cases before: `never` when they cover the map
 * @throws {Error} always, naming the message, when it is reached
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * type Messages = { Inc: []; Dec: [] };
 * export const app = Live.app<number, Messages>({
 *   init: () => 0,
 *   update: (count, msg, _args) => {
 *     switch (msg) {
 *       case "Inc": return count + 1;
 *       case "Dec": return count - 1;
 *       default: return Live.unhandled(msg); // a new message without its case fails to compile here
 *     }
 *   },
 *   view: (count) => Ui.h("button", { onClick: "Inc" }, String(count)),
 * });
 * ```
 */
export function unhandled<K extends string>(msg: Unhandled<K>): never {
  throw new Error(`update has no case for the message ${JSON.stringify(msg)}`);
}

/**
 * An update's result, checked: `undefined` is what a `switch` without a `case` for `msg` returns,
 * and is reported as that, naming the message, rather than as whatever later fails to read it.
 */
export function checkedUpdate<Model>(result: Update<Model> | undefined, msg: string): Update<Model> {
  if (result === undefined) {
    throw new Error(
      `update returned undefined for the message ${JSON.stringify(msg)}: it must return the model (or [model, command]) for every message`,
    );
  }
  return result;
}

/** Splits an update's result into the model and its command. */
export function splitUpdate<Model>(result: Update<Model>): [Model, Cmd | undefined] {
  if (Array.isArray(result) && result.length === 2 && isCmd(result[1])) return [result[0] as Model, result[1] as Cmd];
  return [result as Model, undefined];
}
