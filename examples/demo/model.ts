/** The demo's model: one live session's state, signed out or signed in. */
import type { StrengthLabel } from "../../src/mod.ts";
import type { Item, UserRow } from "./store.ts";

export type Page = "home" | "admin";
export type AuthForm = "login" | "signup";

export type SignedOut = {
  readonly form: AuthForm;
  /** The error code a failed login or sign-up redirected with ("" for none). */
  readonly error: string;
  /** The email to prefill after a failed attempt. */
  readonly email: string;
  /** The strength of the password typed so far (the password itself never enters the model). */
  readonly strength: StrengthLabel | "";
};

export type SignedIn = {
  readonly userId: string;
  /** undefined until the account has loaded. */
  readonly email: string | undefined;
  readonly role: string;
  readonly page: Page;
  readonly name: string;
  readonly handle: string;
  /** Save state of the profile: the number of the last save asked, and of the last one done. */
  readonly saveAsked: number;
  readonly saveDone: number;
  readonly saveFailed: boolean;
  /** The user's to-do list, stored per user (store.ts); empty until it has loaded. */
  readonly items: readonly Item[];
  readonly itemsLoaded: boolean;
  /** Whether the last save of the list failed. */
  readonly itemsFailed: boolean;
  readonly nextItem: number;
  readonly draft: string;
  readonly query: string;
  readonly users: readonly UserRow[];
  readonly notice: string;
};

export type Model = {
  /** Milliseconds since the epoch, moved by the clock subscription. */
  readonly now: number;
  readonly session: ({ readonly kind: "out" } & SignedOut) | ({ readonly kind: "in" } & SignedIn);
};

/** The signed-out page, showing a failed attempt's notice when the page load carries one. */
export function signedOut(flash: Pick<SignedOut, "form" | "error" | "email"> | undefined): SignedOut {
  return { form: flash?.form ?? "login", error: flash?.error ?? "", email: flash?.email ?? "", strength: "" };
}

/** The next free item id after `items`. */
export function nextItemId(items: readonly Item[]): number {
  return items.reduce((max, item) => Math.max(max, item.id), 0) + 1;
}

export function signedIn(userId: string): SignedIn {
  return {
    userId,
    email: undefined,
    role: "user",
    page: "home",
    name: "",
    handle: "",
    saveAsked: 0,
    saveDone: 0,
    saveFailed: false,
    items: [],
    itemsLoaded: false,
    itemsFailed: false,
    nextItem: 1,
    draft: "",
    query: "",
    users: [],
    notice: "",
  };
}
