/**
 * The tag sets the view builders, the session memo of element calls and the live layer read: a
 * module of its own, which imports nothing, so any of them can.
 */

/** Tags whose content is text only: the HTML parser reads it raw or as RCDATA. */
export const TEXT_ONLY_TAGS: ReadonlySet<string> = new Set(["style", "script", "textarea", "title"]);
/** Of those, the ones whose text the parser reads raw: no character references, no escapes. */
export const RAW_TEXT_TAGS: ReadonlySet<string> = new Set(["style", "script"]);
/** Void elements: no children, no end tag. */
export const VOID_TAGS: ReadonlySet<string> = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

/**
 * Tags whose element's children are not the call's as given: a text-only tag's `value` is its
 * text, and a select's `value` marks its options (src/ui/node.ts). The session memo compares such a
 * call with the call's own children, which it keeps (src/live/render-state/element-log.ts).
 */
export const CHILDREN_REWRITING_TAGS: ReadonlySet<string> = new Set([...TEXT_ONLY_TAGS, "select"]);
