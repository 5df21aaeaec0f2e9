/**
 * Wire names and wire shapes of the live protocol (live-input-authority.md §Resources).
 *
 * The server and the browser client both import this module, so it stays dependency-free and
 * browser-safe: constants and types only, no imports. Nothing else in the code base spells these
 * names (DESIGN.md §Conventions).
 */

/** The node id attribute written on every rendered element (§Node id). */
export const ID_ATTR = "svc-id";
/** The keyed helper's attribute; first in key priority (§Node id). */
export const KEY_ATTR = "svc-key";
/**
 * The handler id: an element with event handlers carries its own svc-id here, and the client posts
 * it back as `handlerId` (§Event request body). A rename rewrites it with the id (§Patch, kids).
 */
export const HID_ATTR = "data-svc-hid";
/** Space-separated event kinds the element listens to, so the client can delegate. */
export const ON_ATTR = "data-svc-on";
/** The key filter of a keydown handler (e.g. `Enter`): the client sends only for that key. */
export const KEY_FILTER_ATTR = "data-svc-keyfilter";

/**
 * Each handler kind's message, for the client to post back: `data-svc-<kind>` (data-svc-click,
 * data-svc-input, ...) holds the message name (`Inc`), or a JSON array (`["Add",1]`) when it has
 * arguments. The server checks a posted message against its own tree (src/live/server/session.ts).
 */
export const MSG_ATTR_PREFIX = "data-svc-";
export const messageAttr = (kind: EventKind): string => MSG_ATTR_PREFIX + kind;

/** Event kinds a handler attribute can name, in the order they are written to `data-svc-on`. */
export const EVENT_KINDS = ["click", "input", "change", "submit", "keydown"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Style passes whose output is an injected `<style>` with id `<owner>.~<pass>` (§Node id). */
export const PASSES = ["mq", "pc", "tr", "anim"] as const;
export type Pass = (typeof PASSES)[number];

/** The id of the root element (§Node id). */
export const ROOT_ID = "r";

/**
 * Attributes whose removal must also reset the DOM property (§Client rules 5): removing `value`
 * clears `.value`, removing `checked`, `selected` or `disabled` sets the property to false.
 * A patch expresses removal as the empty string, like every other attribute.
 */
export const PROPERTY_ATTRS = ["value", "checked", "selected", "disabled"] as const;

/** The value a patch's `attrs` carries to remove an attribute (§Patch: "an empty string removes"). */
export const REMOVED = "";

/**
 * What the client reports in `inputState[id].value` for a checkbox or radio input: its checked
 * state, spelled like the attribute the renderer writes (`checked="checked"`), or "" when unchecked.
 * Every other control reports its DOM `.value` (a select: the selected option's value).
 */
export const CHECKED_ON = "checked";

/** One entry of a `kids` list: the element's NEW children in order (§Patch, kids). */
export type KidEntry =
  | { readonly keep: string }
  | { readonly keep: string; readonly id: string }
  | { readonly html: string };

/**
 * One patch (§Patch). Operations apply in the order replace, text, html, kids, attrs, remove.
 * Absent fields are not part of the patch.
 */
export type Patch = {
  readonly id: string;
  readonly replace?: string;
  readonly text?: string;
  readonly html?: string;
  readonly kids?: readonly KidEntry[];
  readonly attrs?: Readonly<Record<string, string>>;
  readonly remove?: true;
};

/** The operation fields of a Patch in application order (§Patch). */
export const PATCH_OPS = ["replace", "text", "html", "kids", "attrs", "remove"] as const;
