/**
 * Commands: values an app's update returns beside the new model (CONTRIBUTING.md: update returns a model
 * or [model, cmd]). The runtime carries them out after the update: a background task whose
 * completion dispatches a message (and so produces an SSE frame), a batch, and session commands.
 */
import type { JsonValue } from "../../../json.ts";

const CMD = Symbol.for("svc.live.cmd");

/** A message to dispatch: its name, then its arguments. */
export type Dispatch = readonly [msg: string, ...args: JsonValue[]];

/** A command an update returns beside the model: a task, a batch, a session binding or ending (docs/live-apps.md). */
export type Cmd =
  | { readonly [CMD]: true; readonly kind: "none" }
  | { readonly [CMD]: true; readonly kind: "batch"; readonly cmds: readonly Cmd[] }
  | { readonly [CMD]: true; readonly kind: "task"; readonly run: () => Promise<Dispatch | undefined> }
  | { readonly [CMD]: true; readonly kind: "rotate" }
  | { readonly [CMD]: true; readonly kind: "bind"; readonly userId: string }
  | { readonly [CMD]: true; readonly kind: "end" };

export function isCmd(value: unknown): value is Cmd {
  return typeof value === "object" && value !== null && (value as { [CMD]?: unknown })[CMD] === true;
}

/** The command that does nothing. */
export const none: Cmd = { [CMD]: true, kind: "none" };

/**
 * Several commands as one, for an `update` that has more than one thing to start: each runs as if
 * returned alone, in the order given. A batch may hold batches and `Live.none`.
 *
 * @example
 * ```ts
 * import { Live } from "svc-live";
 *
 * declare function saveDraft(text: string): Promise<void>;
 * declare function notifyTeam(text: string): Promise<void>;
 *
 * // In update, for a "Publish" message: save and notify, each reporting back on its own.
 * const publish = (text: string) =>
 *   Live.batch(
 *     Live.task(() => saveDraft(text), (r) => (r.ok ? ["Saved"] : ["SaveFailed"])),
 *     Live.task(() => notifyTeam(text), () => undefined),
 *   );
 * ```
 */
export function batch(...cmds: Cmd[]): Cmd {
  return { [CMD]: true, kind: "batch", cmds };
}

/**
 * A command that runs background work (docs/live-apps.md#commands): `work` runs off the event's
 * path; when it settles, `toMsg` turns its outcome into the message to dispatch (or undefined for
 * none), whose frame reaches the page over the event stream. A rejection reaches `toMsg` as
 * `{ ok: false, error }`, so a failing task never goes unnoticed. The message may arrive after newer
 * input: compare it with the model. A task whose session has ended is dropped.
 *
 * @param work the work, started when `update` returns the command
 * @param toMsg the message for its outcome, `["Name", ...args]`, or undefined for none
 * @returns the command, for `update` to return as `[model, command]`
 * @example
 * ```ts
 * import { Live } from "svc-live";
 *
 * type Model = { query: string; results: string[] };
 * type Messages = { Search: [value: string]; Found: [query: string, results: string[]]; Failed: [query: string] };
 * declare function searchBooks(query: string): Promise<string[]>;
 *
 * const update = (model: Model, msg: keyof Messages, args: readonly unknown[]) => {
 *   if (msg === "Search") {
 *     const query = String(args[0]);
 *     return [{ ...model, query }, Live.task(() => searchBooks(query), (r) => (r.ok ? ["Found", query, r.value] : ["Failed", query]))] as const;
 *   }
 *   if (msg === "Found" && args[0] === model.query) return { ...model, results: args[1] as string[] };
 *   return model;
 * };
 * ```
 */
export function task<T>(
  work: () => Promise<T>,
  toMsg: (outcome: { ok: true; value: T } | { ok: false; error: unknown }) => Dispatch | undefined,
): Cmd {
  return {
    [CMD]: true,
    kind: "task",
    run: () => work().then((value) => toMsg({ ok: true, value }), (error: unknown) => toMsg({ ok: false, error })),
  };
}

/** Moves the session to a new id (the fixation defence; docs/protocol.md#session-rotation). */
export const rotateSession: Cmd = { [CMD]: true, kind: "rotate" };

/**
 * Binds the session to a user (docs/auth.md#live-sessions-and-the-gate): the first bind and every change to a
 * different user move the session to a new id (fixation defence). The id takes the canonical form
 * of the admin APIs: a string verbatim, an integer as its decimal text. Once bound, the revocation
 * gate (`app.withRevocation(db)`) ends the session when that user is revoked or disabled.
 *
 * @param userId the signed-in user's id, as `Auth.login` returns it
 * @throws {TypeError} for an empty string or a number that is not a safe integer
 * @example
 * ```ts
 * import { Auth, type Db, Live } from "svc-live";
 *
 * declare const db: Db;
 * type Model = { user: string | null; error: string };
 *
 * // A sign-in form's submit: log in, then bind the session to the user who signed in.
 * const signIn = (model: Model, email: string, password: string) =>
 *   [model, Live.task(() => Auth.login(db, email, password), (r) =>
 *     r.ok && r.value.ok ? ["SignedIn", String(r.value.value)] : ["SignInFailed"])] as const;
 *
 * const signedIn = (model: Model, userId: string) => [{ ...model, user: userId }, Live.bindSessionUser(userId)] as const;
 * ```
 */
export function bindSessionUser(userId: string | number | bigint): Cmd {
  const canonical = typeof userId === "string" ? userId : typeof userId === "bigint" || Number.isSafeInteger(userId) ? String(userId) : "";
  if (canonical === "") throw new TypeError("Live.bindSessionUser: the user id must be a non-empty string or a safe integer");
  return { [CMD]: true, kind: "bind", userId: canonical };
}

/**
 * Ends the session on the server: its snapshot and binding end and its id is dead (docs/auth.md#sign-out).
 * The page's next event or stream finds no session and the browser loads the page afresh, so
 * return it from the update that signs the user out.
 *
 * @example
 * ```ts
 * import { Live } from "svc-live";
 *
 * type Model = { user: string | null };
 * const update = (model: Model, msg: "SignOut" | "Noop") => (msg === "SignOut" ? [{ user: null }, Live.endSession()] as const : model);
 * ```
 */
export function endSession(): Cmd {
  return { [CMD]: true, kind: "end" };
}

/** Flattens batches into the list of commands to carry out, in order. */
export function flatten(cmd: Cmd | undefined): Cmd[] {
  if (cmd === undefined || cmd.kind === "none") return [];
  return cmd.kind === "batch" ? cmd.cmds.flatMap(flatten) : [cmd];
}
