/**
 * The messages TSX views send (docs/live-apps.md#typed-messages). TypeScript gives every JSX
 * element of a file one set of prop types, whatever view it goes in, so JSX handler props cannot
 * follow each app's message map as `Ui.h` and `Ui.html` do. So a TSX handler takes a message that
 * `ui.msg` of `Ui.typed<Messages>()` wrote, checked against the app's map where it is written; a
 * raw name or tuple (`onClick={["Remvoe", id]}`) does not compile, since nothing could check it.
 * A project whose TSX serves one message map may declare it here instead: every `onClick`,
 * `onInput`, `onChange`, `onSubmit` and `onKeydown` of its TSX then takes raw messages, checked
 * against that map (or any message, declaring `UntypedMessages`).
 */
import type { HandlerProps } from "../ui/attrs.ts";
import type { CheckedMessage } from "../ui/messages.ts";

/**
 * Where a project declares the messages of its TSX views, by module augmentation.
 *
 * @example
 * ```ts
 * type Messages = { Draft: [value: string]; Add: [fields: { readonly [name: string]: string }]; Remove: [id: number] };
 *
 * declare module "svc-live" {
 *   interface Register {
 *     messages: Messages;
 *   }
 * }
 * ```
 */
// deno-lint-ignore no-empty-interface -- filled in by the project, through declaration merging
export interface Register {}

/**
 * What the compiler shows for a raw name or tuple in a TSX handler prop, in a project that declares
 * no messages in {@link Register}: such a prop takes a `CheckedMessage`, which `ui.msg` writes.
 */
export type TsxMessageHint =
  "a TSX handler takes ui.msg(name, ...args) from Ui.typed<Messages>(), which checks the message against the app's map (or declare the project's messages in Register)";

/** The handler props of TSX elements: checked against the messages declared in {@link Register}, else messages `ui.msg` wrote. */
export type JsxHandlerProps = Register extends { readonly messages: infer M } ? HandlerProps<M> : {
  /** A click dispatches this message: `ui.msg("Inc")`, or `ui.msg("Remove", id)` with its arguments. */
  readonly onClick?: CheckedMessage | TsxMessageHint | null | false;
  /** Each edit of the control dispatches this message, with the control's value as its last argument. */
  readonly onInput?: CheckedMessage | TsxMessageHint | null | false;
  /** A committed change (a checkbox ticked, a select chosen, a field left) dispatches this message, with the control's value last. */
  readonly onChange?: CheckedMessage | TsxMessageHint | null | false;
  /** A form's submit dispatches this message, with the form's fields last; the page does not navigate. */
  readonly onSubmit?: CheckedMessage | TsxMessageHint | null | false;
  /** A key press dispatches this message; `{ key: "Enter", msg: ui.msg("Send") }` only for that key. */
  readonly onKeydown?:
    | CheckedMessage
    | TsxMessageHint
    | { readonly key: string; readonly msg: CheckedMessage | TsxMessageHint }
    | null
    | false;
};
