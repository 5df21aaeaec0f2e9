/**
 * The messages TSX views send, declared once for a project (docs/live-apps.md#typed-messages).
 * TypeScript gives every JSX element of a file one set of prop types, whatever view it goes in, so
 * JSX handler props cannot follow each app's message map as `Ui.h` and `Ui.html` do. A project
 * whose views are TSX declares its messages here instead, and every `onClick`, `onInput`,
 * `onChange`, `onSubmit` and `onKeydown` of its TSX is checked against them. Without it, any
 * message is accepted, and an app checks its own where it writes them, with `ui.msg` from
 * `Ui.typed<Messages>()`.
 */
import type { UntypedMessages } from "../ui/messages.ts";

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

/** The message map TSX handler props are checked against: the one declared in {@link Register}, else any message. */
export type JsxMessages = Register extends { readonly messages: infer M } ? M : UntypedMessages;
