/**
 * The messages the demo's pages send, each with the arguments update receives for it (the client
 * adds a field's value to an input or change message and a form's fields to a submit message).
 * The views name them with `ui.msg`, which checks each against this map where it is written.
 */
import { type FormFields, Ui } from "../../../src/mod.ts";

export type ViewMessages = {
  ShowForm: [form: string];
  Strength: [password: string];
  Go: [page: string];
  SetName: [value: string];
  SetHandle: [value: string];
  CommitProfile: [value: string];
  SetDraft: [value: string];
  AddItem: [fields: FormFields];
  RemoveItem: [id: number];
  MoveItem: [id: number, delta: number];
  Search: [query: string];
  SignOut: [];
  SetRole: [id: number, role: string];
  Revoke: [id: number];
  Disable: [id: number];
  Enable: [id: number];
};

/** The view builders, with `msg` checked against the demo's messages. */
export const ui = Ui.typed<ViewMessages>();
