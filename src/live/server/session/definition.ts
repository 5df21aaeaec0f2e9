/**
 * What an application gives Live.app: the Elm-style quartet (docs/live-apps.md#the-app-definition). `update` returns
 * the new model, or [model, cmd]; `subscriptions` returns the timers the model wants.
 */
import type { JsonObject, JsonValue } from "../../../json.ts";
import type { UiElement } from "../../../ui/node.ts";
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

/** A live app's definition: `init`, `update`, `view` and optional `subscriptions`. */
export type LiveDefinition<Model> = {
  readonly init: (context: InitContext) => Update<Model>;
  readonly update: (model: Model, msg: string, args: readonly JsonValue[]) => Update<Model>;
  readonly view: (model: Model) => UiElement;
  readonly subscriptions?: (model: Model) => readonly Sub[];
};

/** Splits an update's result into the model and its command. */
export function splitUpdate<Model>(result: Update<Model>): [Model, Cmd | undefined] {
  if (Array.isArray(result) && result.length === 2 && isCmd(result[1])) return [result[0] as Model, result[1] as Cmd];
  return [result as Model, undefined];
}
