/**
 * The demo's init and update. Effects (database reads and writes, the admin's actions) are
 * commands: Live.task runs them off the event path and dispatches the named message when done.
 */
import { Auth, type Cmd, type Db, type InitContext, type JsonValue, Live, type Update } from "../../src/mod.ts";
import { type Model, nextItemId, type Page, type SignedIn, signedIn, type SignedOut, signedOut } from "./model.ts";
import { readFlash } from "./flash.ts";
import { displayName, displayNameWhileTyping, handle } from "./normalise.ts";
import { ADMIN_ROLE, type DemoStore, type Item, type UserRow } from "./store.ts";

export type Deps = { readonly db: Db; readonly store: DemoStore; readonly now: () => number };

const str = (value: JsonValue | undefined): string => (typeof value === "string" ? value : "");
const num = (value: JsonValue | undefined): number => (typeof value === "number" ? value : NaN);

export function makeInit(deps: Deps) {
  return ({ auth, request }: InitContext): Update<Model> => {
    const sub = auth?.sub;
    const userId = typeof sub === "string" || typeof sub === "number" ? String(sub) : undefined;
    if (userId === undefined) return { now: deps.now(), session: { kind: "out", ...signedOut(readFlash(request)) } };
    return [{ now: deps.now(), session: { kind: "in", ...signedIn(userId) } }, loadAccount(deps, userId)];
  };
}

function loadAccount(deps: Deps, userId: string): Cmd {
  return Live.task(() => deps.store.account(userId), (outcome) => {
    if (!outcome.ok || outcome.value === undefined) return ["AccountMissing"];
    const { email, role, profile, items } = outcome.value;
    return ["AccountLoaded", email, role, profile.name, profile.handle, items.map((item) => ({ ...item }))];
  });
}

export function makeUpdate(deps: Deps) {
  return (model: Model, msg: string, args: readonly JsonValue[]): Update<Model> => {
    if (msg === "Tick") return { ...model, now: deps.now() };
    const session = model.session;
    if (session.kind === "out") {
      const next = signedOutUpdate(session, msg, args);
      return next === session ? model : { ...model, session: { kind: "out", ...next } };
    }
    const result = signedInUpdate(deps, session, msg, args);
    const [next, cmd] = Array.isArray(result) ? result : [result, undefined];
    const updated: Model = next === session ? model : { ...model, session: { kind: "in", ...next } };
    return cmd === undefined ? updated : [updated, cmd];
  };
}

function signedOutUpdate(model: SignedOut, msg: string, args: readonly JsonValue[]): SignedOut {
  switch (msg) {
    case "ShowForm":
      return { ...model, form: str(args[0]) === "signup" ? "signup" : "login", error: "" };
    case "Strength": {
      const password = str(args[0]);
      const label = password === "" ? undefined : Auth.passwordStrength(password);
      return { ...model, strength: label?.ok ? label.value : "" };
    }
    default:
      return model;
  }
}

type InUpdate = SignedIn | readonly [SignedIn, Cmd];

function signedInUpdate(deps: Deps, model: SignedIn, msg: string, args: readonly JsonValue[]): InUpdate {
  switch (msg) {
    case "AccountLoaded": {
      const items = (Array.isArray(args[4]) ? args[4] : []) as unknown as Item[];
      return {
        ...model,
        email: str(args[0]),
        role: str(args[1]),
        name: str(args[2]),
        handle: str(args[3]),
        items,
        itemsLoaded: true,
        nextItem: nextItemId(items),
      };
    }
    case "AccountMissing":
      // The user row is gone: nothing to show, so end the session (the page reloads signed out).
      return [model, Live.endSession()];
    case "Go": {
      const page: Page = str(args[0]) === "admin" && model.role === ADMIN_ROLE ? "admin" : "home";
      return page === "admin"
        ? [{ ...model, page, notice: "" }, adminTask(deps, model.userId, () => Promise.resolve(""))]
        : { ...model, page };
    }
    case "SetName":
      return { ...model, name: displayNameWhileTyping(str(args[0])) };
    case "SetHandle":
      return { ...model, handle: handle(str(args[0])) };
    case "CommitProfile": {
      const next = { ...model, name: displayName(model.name), saveAsked: model.saveAsked + 1, saveFailed: false };
      const seq = next.saveAsked;
      const cmd = Live.task(
        () => deps.store.saveProfile(model.userId, { name: next.name, handle: next.handle }),
        (o) => ["ProfileSaved", seq, o.ok],
      );
      return [next, cmd];
    }
    case "ProfileSaved":
      return { ...model, saveDone: Math.max(model.saveDone, num(args[0])), saveFailed: args[1] !== true };
    case "SetDraft":
      return { ...model, draft: str(args[0]) };
    case "AddItem": {
      const text = model.draft.trim();
      if (text === "" || !model.itemsLoaded) return model;
      return withItems(deps, { ...model, nextItem: model.nextItem + 1, draft: "" }, [...model.items, { id: model.nextItem, text }]);
    }
    case "RemoveItem":
      return withItems(deps, model, model.items.filter((item) => item.id !== num(args[0])));
    case "MoveItem":
      return withItems(deps, model, moved(model.items, num(args[0]), num(args[1])));
    case "ItemsSaved":
      return args[0] === true ? model : { ...model, itemsFailed: true };
    case "Search":
      return { ...model, query: str(args[0]) };
    case "SignOut":
      return [model, Live.endSession()];
    case "UsersLoaded":
      return { ...model, users: (args[0] ?? []) as unknown as UserRow[], notice: str(args[1]) };
    case "SetRole":
    case "Revoke":
    case "Disable":
    case "Enable":
      return [model, adminAction(deps, model.userId, msg, num(args[0]), str(args[1]))];
    default:
      return model;
  }
}

/** The list changed: the new list in the model, and a save of it for this user (the list is theirs, not the session's). */
function withItems(deps: Deps, model: SignedIn, items: readonly Item[]): InUpdate {
  if (items === model.items || !model.itemsLoaded) return model;
  const save = Live.task(() => deps.store.saveItems(model.userId, items), (outcome) => ["ItemsSaved", outcome.ok]);
  return [{ ...model, items, itemsFailed: false }, save];
}

function moved<T extends { id: number }>(items: readonly T[], id: number, delta: number): readonly T[] {
  const from = items.findIndex((item) => item.id === id);
  const to = from + (delta < 0 ? -1 : 1);
  if (from < 0 || to < 0 || to >= items.length) return items;
  const copy = [...items];
  [copy[from], copy[to]] = [copy[to]!, copy[from]!];
  return copy;
}

/**
 * Runs an admin action and reloads the user list. The application owns the "is the caller an
 * admin" check (docs/auth.md#revocation-and-suspension): it reads the role from the database on
 * every action, never trusting the model alone.
 */
function adminTask(deps: Deps, actor: string, action: () => Promise<string>): Cmd {
  return Live.task(
    async () => {
      if (!(await deps.store.isAdmin(actor))) return { users: [], notice: "Only admins can do that." };
      const notice = await action();
      return { users: await deps.store.users(), notice };
    },
    (
      outcome,
    ) => (outcome.ok ? ["UsersLoaded", outcome.value.users, outcome.value.notice] : ["UsersLoaded", [], "The database is unavailable."]),
  );
}

function adminAction(deps: Deps, actor: string, msg: string, target: number, role: string): Cmd {
  return adminTask(deps, actor, async () => {
    if (!Number.isSafeInteger(target)) return "No such user.";
    const id = String(target);
    const done = msg === "SetRole"
      ? await Auth.setRole(deps.db, target, role === ADMIN_ROLE ? ADMIN_ROLE : "user")
      : msg === "Revoke"
      ? await Auth.revokeUser(deps.db, id)
      : msg === "Disable"
      ? await Auth.disableUser(deps.db, id)
      : await Auth.enableUser(deps.db, id);
    if (!done.ok) return `Could not do that: ${done.error.code}.`;
    const verb = { SetRole: `role set to ${role}`, Revoke: "sessions revoked", Disable: "disabled", Enable: "enabled" }[msg];
    return `User ${id}: ${verb}.`;
  });
}
