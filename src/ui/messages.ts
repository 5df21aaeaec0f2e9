/**
 * Typed messages (docs/live-apps.md#typed-messages): an app may declare its messages as a map from
 * each message's name to the arguments `update` receives, and the handler props of its view are
 * then checked against it. Types only; nothing here runs.
 *
 * The arguments a handler names are not all the arguments `update` gets: the client adds the
 * control's value to an input or change message and the form's fields to a submit message
 * (docs/live-apps.md#handlers-and-messages). So `Draft: [value: string]` is sent by
 * `onInput: "Draft"`, `Rename: [id: number, value: string]` by `onInput: ["Rename", id]`, and
 * `Toggle: [id: number, checked: boolean]` by a checkbox's `onChange: ["Toggle", id]`.
 */
import type { JsonValue } from "../json.ts";

/**
 * The shape of a message map: each message's name to the arguments `update` receives for it.
 *
 * @example
 * ```ts
 * type TodoMessages = {
 *   Draft: [value: string];                           // onInput: "Draft" (the client adds the value)
 *   Add: [fields: { readonly [name: string]: string }]; // onSubmit: "Add" (the client adds the fields)
 *   Remove: [id: number];                             // onClick: ["Remove", id]
 * };
 * ```
 */
export type MessageMap<M> = { readonly [K in keyof M]: readonly unknown[] };

/** The messages of an app that declares none: any name, any JSON arguments. */
export type UntypedMessages = { readonly [name: string]: readonly JsonValue[] };

/** A message a handler dispatches: a name, or a name followed by JSON arguments. */
export type Message = string | readonly [string, ...JsonValue[]];

declare const writtenByUiMsg: unique symbol;

/**
 * A message that `ui.msg` of `Ui.typed<Messages>()` wrote, and so checked against the app's map
 * where it was written. The mark is a type only; at run time it is the name, or the name and its
 * arguments. TSX handler props take it in a project that declares no `Register`.
 */
export type CheckedMessage = Message & {
  /** The mark of a message `ui.msg` wrote; never set at run time. */
  readonly [writtenByUiMsg]: true;
};

/** Whether `M` is the untyped map (any name), rather than a declared one. */
export type IsUntyped<M> = unknown extends M ? true : string extends keyof M ? true : false;

/** The names of the messages of map `M`. */
export type MessageName<M> = keyof M & string;

/** The form fields a submit message's last argument holds: each field's name to its value. */
export type FormFields = { readonly [name: string]: string };

/**
 * The handler's own form of message `K` whose arguments are `P`: its name alone when `P` may be
 * empty, else `[K, ...P]`. The handler types below spell this out rather than name this alias, so
 * that an error shows the forms themselves (`"Draft" | readonly ["Draft"]`), not this name.
 */
export type HandlerForm<K extends string, P extends readonly unknown[]> = ([] extends P ? K : never) | readonly [K, ...P];

/**
 * What the client adds to an input or change message (docs/live-apps.md#handlers-and-messages): a
 * field's or a select's value, a string; a checkbox's or a radio's checked state, a boolean.
 */
export type ControlValue = string | boolean;

/**
 * What an `onClick` or `onKeydown` handler may name under the message map `M`: `"Name"` for a
 * message without arguments, `["Name", ...args]` with the arguments `M` gives it.
 */
export type ClickMessage<M> = IsUntyped<M> extends true ? Message : {
  [K in MessageName<M>]: M[K] extends readonly unknown[] ? ([] extends M[K] ? K : never) | readonly [K, ...M[K]] : never;
}[MessageName<M>];

/**
 * What an `onInput` or `onChange` handler may name under `M`: a message whose last argument takes
 * the control's value ({@link ControlValue}: a string for a field or a select, a boolean for a
 * checkbox or a radio), named with the arguments before it.
 */
export type ValueMessage<M> = IsUntyped<M> extends true ? Message : {
  [K in MessageName<M>]: M[K] extends readonly [...infer P, infer V] ? string extends V ? ([] extends P ? K : never) | readonly [K, ...P]
    : boolean extends V ? ([] extends P ? K : never) | readonly [K, ...P]
    : never
    : never;
}[MessageName<M>];

/**
 * What an `onSubmit` handler may name under `M`: a message whose last argument takes the form's
 * fields ({@link FormFields}), named with the arguments before it.
 */
export type SubmitMessage<M> = IsUntyped<M> extends true ? Message : {
  [K in MessageName<M>]: M[K] extends readonly [...infer P, infer V]
    ? FormFields extends V ? ([] extends P ? K : never) | readonly [K, ...P] : never
    : never;
}[MessageName<M>];

/**
 * A keydown handler under `M`: a message, or one with a key filter (`{ key: "Enter", msg: "Send" }`).
 * Written as a condition, as the handler types above are, so that an error shows the forms rather
 * than this name.
 */
export type KeyMessage<M> = IsUntyped<M> extends true ? Message | { readonly key: string; readonly msg: Message }
  : ClickMessage<M> | { readonly key: string; readonly msg: ClickMessage<M> };

/**
 * The `(model, msg, args)` calls `update` receives under `M`, as a union of tuples, so that checking
 * `msg` narrows `args` and a `switch` over `msg` can be checked for exhaustiveness.
 */
export type UpdateCall<Model, M> = IsUntyped<M> extends true ? [model: Model, msg: string, args: readonly JsonValue[]]
  : { [K in MessageName<M>]: [model: Model, msg: K, args: M[K]] }[MessageName<M>];

declare const messagesBrand: unique symbol;

/**
 * The mark an element of a typed view carries, at the type level only, of the message map its
 * handlers follow: it lets `Ui.h` take the map from where its element goes, and it fits where that
 * view's elements go and where any element goes; an element without the mark fits anywhere.
 */
export interface MessageMark<M> {
  /** Never set at run time. */
  readonly [messagesBrand]?: (messages: M) => M;
}

/**
 * A hole of a `Ui.html` template under `M`. A template's markup is text, so a message written in
 * it (`onClick="Save"`) is checked when the app runs (docs/live-apps.md#typed-messages); a hole is
 * checked here: a message in a hole must be one of `M`'s, and so a list in a hole holds elements,
 * numbers and other lists, not bare strings (`Ui.text(s)` makes one a node). Untyped, a hole is anything.
 */
export type HtmlHole<M, Node> =
  | (IsUntyped<M> extends true ? unknown : never)
  | string
  | number
  | boolean
  | null
  | undefined
  | Node
  | KeyMessage<M>
  | ValueMessage<M>
  | SubmitMessage<M>
  | HtmlList<Node>
  | HtmlStyle;

/**
 * A style prop's value in a typed template's hole: declarations (`{ color: "teal" }`), a media
 * query map, or an animation. Objects only, so a list in a hole is read as a list.
 */
export type HtmlStyle = { readonly [property: string]: string | number | { readonly [property: string]: string | number } } | {
  readonly keyframes: { readonly [selector: string]: { readonly [property: string]: string | number } };
  readonly duration: string;
};

/** A list in a typed template's hole: nodes, numbers and lists of them. */
export type HtmlList<Node> = readonly (Node | number | boolean | null | undefined | HtmlList<Node>)[];

/**
 * The runtime list of an app's messages, as an object whose keys are the names
 * (`{ Draft: true, Add: true }`): under a declared map, exactly its names.
 */
export type MessageNames<M> = { readonly [K in keyof M]: true };
