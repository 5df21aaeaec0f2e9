// The messages that the live-server tests' sign-in apps share (docs/auth.md#live-sessions-and-the-gate,
// docs/auth.md#sign-out): each app adds its own messages around them.
import { type JsonValue, Live } from "../../src/mod.ts";
import type { Update } from "../../src/live/mod.ts";

/** The part of a sign-in test app's model that the shared messages touch. */
export type SignInModel = { user: string; n: number };

/**
 * The shared messages: `SignIn` shows the user in `args[0]` and binds the session to them, `SignOut`
 * ends the session, `Inc` counts. Undefined for any other message, which the app handles itself.
 */
export function signInUpdate<M extends SignInModel>(model: M, msg: string, args: readonly JsonValue[]): Update<M> | undefined {
  switch (msg) {
    case "SignIn":
      return [{ ...model, user: String(args[0]) }, Live.bindSessionUser(String(args[0]))] as const;
    case "SignOut":
      return [model, Live.endSession()] as const;
    case "Inc":
      return { ...model, n: model.n + 1 };
    default:
      return undefined;
  }
}
