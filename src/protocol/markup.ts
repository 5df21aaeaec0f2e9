/**
 * The protocol's markup: node ids, the attributes the renderer writes for the client, and the
 * patch shape (docs/protocol.md#node-ids, docs/protocol.md#patches).
 *
 * The server and the browser client both import this module (through the protocol folder's index), so it
 * stays dependency-free and browser-safe: constants, types and small pure functions only.
 */

/** The node id attribute written on every rendered element (docs/protocol.md#node-ids). */
export const ID_ATTR = "svc-id";
/** The keyed helper's attribute; first in key priority (docs/protocol.md#keys). */
export const KEY_ATTR = "svc-key";
/**
 * Reserved: the renderer once wrote a handler element's id here and its event kinds in ON_ATTR. The
 * client now posts the element's `svc-id` as `handlerId` and finds handlers by their message
 * attributes (docs/protocol.md#markup-attributes); an app still may not write these names.
 */
export const HID_ATTR = "data-svc-hid";
/** Reserved, see HID_ATTR. */
export const ON_ATTR = "data-svc-on";
/** The key filter of a keydown handler (e.g. `Enter`): the client sends only for that key. */
export const KEY_FILTER_ATTR = "data-svc-keyfilter";

/**
 * Each handler kind's message, for the client to post back: `data-svc-<kind>` (data-svc-click,
 * data-svc-input, ...) holds the message name (`Inc`), or a JSON array (`["Add",1]`) when it has
 * arguments. The server checks a posted message against its own tree: only a message the current
 * render shows is dispatched (docs/protocol.md#markup-attributes).
 */
export const MSG_ATTR_PREFIX = "data-svc-";
/**
 * The attribute that carries a handler's message for an event kind (`data-svc-click`), for a test
 * that reads the rendered markup.
 *
 * @example
 * ```ts
 * import { Live, messageAttr, Ui } from "svc-live";
 *
 * const html = Live.render(Ui.h("button", { onClick: "Save" }, "Save"));
 * console.log(html.includes(`${messageAttr("click")}="Save"`)); // true
 * ```
 */
export const messageAttr = (kind: EventKind): string => MSG_ATTR_PREFIX + kind;

/** Event kinds a handler attribute can name, in the order they are written to `data-svc-on`. */
export const EVENT_KINDS = ["click", "input", "change", "submit", "keydown"] as const;
/** An event a handler can listen to. */
export type EventKind = (typeof EVENT_KINDS)[number];

/** Style passes whose output is an injected `<style>` with id `<owner>.~<pass>` (docs/protocol.md#injected-styles). */
export const PASSES = ["mq", "pc", "tr", "anim"] as const;
/** A style pass that injects a `<style>` (docs/protocol.md#injected-styles). */
export type Pass = (typeof PASSES)[number];

/** The id of the root element (docs/protocol.md#node-ids). */
export const ROOT_ID = "r";

/** What joins a parent's id and a child's segment (docs/protocol.md#id-grammar). */
export const ID_SEPARATOR = ".";

/**
 * The id of a child whose parent has id `parentId` and whose own segment is `seg`
 * (docs/protocol.md#id-grammar).
 *
 * @example
 * ```ts
 * import { childId, ROOT_ID } from "svc-live";
 *
 * console.log(childId(ROOT_ID, "#li:a")); // "r.#li:a": the <li> keyed "a" under the root
 * ```
 */
export function childId(parentId: string, seg: string): string {
  return parentId + ID_SEPARATOR + seg;
}

/**
 * Whether `id` names the element `ancestor` or one inside it: its subtree's ids all start so.
 *
 * @example
 * ```ts
 * import { isWithin } from "svc-live";
 *
 * console.log(isWithin("r.0#ul.#li:a", "r.0#ul")); // true
 * console.log(isWithin("r.0#ulx", "r.0#ul")); // false: a prefix of the text is not an ancestor
 * ```
 */
export function isWithin(id: string, ancestor: string): boolean {
  return id === ancestor || (id.startsWith(ancestor) && id.startsWith(ID_SEPARATOR, ancestor.length));
}

/**
 * The id that `id` becomes when the element `from` is renamed `to` (docs/protocol.md#keep-and-rename):
 * an id within `from` takes the new prefix; any other id is unchanged.
 *
 * @example
 * ```ts
 * import { renamedId } from "svc-live";
 *
 * console.log(renamedId("r.1#ul.#li:a", "r.1#ul", "r.0#ul")); // "r.0#ul.#li:a"
 * console.log(renamedId("r.2#p", "r.1#ul", "r.0#ul")); // "r.2#p", not under the renamed element
 * ```
 */
export function renamedId(id: string, from: string, to: string): string {
  return isWithin(id, from) ? to + id.slice(from.length) : id;
}

const CLEAN_KEY = /^[A-Za-z0-9_-]*$/;

/**
 * Key sanitising (docs/protocol.md#keys): every character outside ASCII letters, digits, `-` and
 * `_` becomes `_`, so a key can sit in an id. The view builders (`Ui.keyed`, a JSX `key`) apply
 * it once, when an element is built, so the id walk on every render reads a final key. Two keys
 * that differ only in such characters become the same key: choose keys from ids, not from text.
 *
 * @example
 * ```ts
 * import { Live } from "svc-live";
 *
 * console.log(Live.sanitizeKey("user@example.com")); // "user_example_com"
 * ```
 */
export function sanitizeKey(key: string): string {
  return CLEAN_KEY.test(key) ? key : key.replace(/[^A-Za-z0-9_-]/gu, "_");
}

/**
 * Attributes whose removal must also reset the DOM property (docs/protocol.md#attribute-removal):
 * removing `value` clears `.value`, removing `checked`, `selected` or `disabled` sets the property
 * to false. A patch expresses removal as the empty string, like every other attribute.
 */
export const PROPERTY_ATTRS = ["value", "checked", "selected", "disabled"] as const;

/** The value a patch's `attrs` carries to remove an attribute (docs/protocol.md#attribute-removal). */
export const REMOVED = "";

/**
 * What the client reports in `inputState[id].value` for a checkbox or radio input: its checked
 * state, spelled like the attribute the renderer writes (`checked="checked"`), or "" when unchecked.
 * Every other control reports its DOM `.value` (a select: the selected option's value).
 */
export const CHECKED_ON = "checked";

/** One entry of a `kids` list: the element's NEW children in order (docs/protocol.md#kids). */
export type KidEntry =
  | { readonly keep: string }
  | { readonly keep: string; readonly id: string }
  | { readonly html: string };

/**
 * One patch (docs/protocol.md#patches). Operations apply in the order replace, text, html, kids,
 * attrs, remove. Absent fields are not part of the patch.
 */
export type Patch = {
  /** The id of the element the patch applies to. */
  readonly id: string;
  /** The element's new markup, in its place (its own id written). */
  readonly replace?: string;
  /** The element's only child, a text, becomes this text. */
  readonly text?: string;
  /** The element's children become this markup. */
  readonly html?: string;
  /** The element's new children in order: kept ones by id, new ones as markup. */
  readonly kids?: readonly KidEntry[];
  /** Attributes to set, each to its value; the empty string removes one. */
  readonly attrs?: Readonly<Record<string, string>>;
  /** The element is removed. */
  readonly remove?: true;
};

/** The operation fields of a Patch in application order (docs/protocol.md#patches). */
export const PATCH_OPS = ["replace", "text", "html", "kids", "attrs", "remove"] as const;
