/** The demo's model: one live session's state, signed out or signed in. */
import type { StrengthLabel } from "../../src/mod.ts";
import type { UserRow } from "./store.ts";

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

export type Item = { readonly id: number; readonly text: string };

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
  readonly items: readonly Item[];
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

export const SAMPLE_ITEMS: readonly Item[] = [
  { id: 1, text: "Write the view" },
  { id: 2, text: "Handle the messages" },
  { id: 3, text: "Ship it" },
];

export function signedOut(url: URL): SignedOut {
  const form = url.searchParams.get("form") === "signup" ? "signup" : "login";
  return { form, error: url.searchParams.get("error") ?? "", email: url.searchParams.get("email") ?? "", strength: "" };
}

export function signedIn(userId: string): SignedIn {
  return {
    userId, email: undefined, role: "user", page: "home", name: "", handle: "",
    saveAsked: 0, saveDone: 0, saveFailed: false,
    items: SAMPLE_ITEMS, nextItem: SAMPLE_ITEMS.length + 1, draft: "", query: "", users: [], notice: "",
  };
}
