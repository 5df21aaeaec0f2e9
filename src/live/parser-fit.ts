/**
 * Where the HTML parser keeps the tree the view wrote, for derived ids (docs/protocol.md#derived-ids).
 *
 * The client derives an element's id from its place among its parent's children in the DOM, so
 * the renderer may leave an id out only where the parser puts the element where the view did. The
 * parser moves or drops elements in a few places: a `<div>` closes an open `<p>`, a `<tr>` straight
 * in a `<table>` gets a `<tbody>` around it, text in a table row is moved before the table, a
 * nested `<form>` or `<a>` is dropped or split, and so on (the HTML standard's tree construction).
 * This module answers conservatively: an element the parser might move is `UNSAFE`, and from there
 * on the renderer writes every id (src/live/render.ts). A page with valid nesting writes only the
 * ids that no place can give.
 */

import { VOID_TAGS } from "../ui/node.ts";

/** Flags of the open elements that change how a start tag below them is read. */
const P_OPEN = 1; // a <p> is open: many block tags close it
const IN_A = 2; // a nested <a> splits the outer one
const IN_BUTTON = 4; // a nested <button> closes the outer one
const IN_FORM = 8; // a nested <form> is dropped
const IN_NOBR = 16;
const LI_OPEN = 32; // an <li> outside a list closes an open one
const DD_OPEN = 64; // likewise <dd> and <dt>
const FOREIGN = 128; // inside <svg> or <math>, HTML tags break out

/** The flags of a fragment's context: the client parses it as the children of a fresh element, which has no ancestors (docs/protocol.md#derived-ids); a form is assumed open, since the parser may know of one. */
export const FRAGMENT_FLAGS = IN_FORM;

/** How a child sits where the view put it. */
export const SAFE = 0;
/** The child and its later siblings may sit elsewhere (a `<tr>` in a `<table>` is wrapped in a `<tbody>`): they get written ids. */
export const SHIFTED = 1;
/** The parser may rearrange more than the parent (it closes or moves an ancestor): every id from here on is written. */
export const UNSAFE = 2;
/** How a child sits: SAFE, SHIFTED or UNSAFE. */
export type Fit = typeof SAFE | typeof SHIFTED | typeof UNSAFE;

const set = (tags: string): ReadonlySet<string> => new Set(tags.split(" "));

/** Start tags that close an open `<p>` (the standard's "close a p element" list). */
const CLOSES_P = set(
  "address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer header hgroup main menu nav ol p " +
    "search section summary ul h1 h2 h3 h4 h5 h6 pre listing form li dd dt plaintext table hr xmp",
);
const HEADINGS = set("h1 h2 h3 h4 h5 h6");
/**
 * Table parts, and what each table context takes as it is. A `<style>` or `<script>` stays in place
 * in a browser, but other parsers (happy-dom, for one) move it out in front of the table, as they
 * do stray table content; so does an injected style (src/ui/styles.ts) before a styled table part.
 * Left out here, it is UNSAFE like any other stray table content.
 */
const TABLE_PARTS = set("caption col colgroup tbody td tfoot th thead tr");
const IN_TABLE_CONTEXT: Readonly<Record<string, ReadonlySet<string>>> = {
  table: set("caption colgroup thead tbody tfoot"),
  thead: set("tr"),
  tbody: set("tr"),
  tfoot: set("tr"),
  tr: set("td th"),
  colgroup: set("col"),
  select: set("option optgroup"),
  optgroup: set("option"),
};
/** Parents whose content the parser reads as text, or keeps apart (a template's content). */
const NO_ELEMENT_KIDS = set("option textarea title style script xmp iframe noembed noframes noscript plaintext template");
/** Tags the parser drops, renames or treats specially wherever they appear. */
const NEVER = set("html head body frameset frame image rb rp rt rtc");
/** In `<svg>` or `<math>`: HTML tags that end the foreign content, and the integration points whose children are HTML again. */
const BREAKS_FOREIGN = set(
  "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr ol p pre " +
    "ruby s small span strong strike sub sup table tt u ul var font",
);
const INTEGRATION_POINTS = set("foreignobject desc title annotation-xml mi mo mn ms mtext");

/** How an element child `tag` of a `parent` element sits, under the open elements' `flags`. */
export function fitOf(parent: string, flags: number, tag: string): Fit {
  if (NEVER.has(tag) || NO_ELEMENT_KIDS.has(parent)) return UNSAFE;
  // In foreign content a void tag written without "/>" stays open and takes its later siblings in.
  if (flags & FOREIGN) return INTEGRATION_POINTS.has(parent) || BREAKS_FOREIGN.has(tag) || VOID_TAGS.has(tag) ? UNSAFE : SAFE;
  const table = IN_TABLE_CONTEXT[parent];
  if (table !== undefined) {
    if (table.has(tag)) return SAFE;
    // A row straight in a table gets its implicit wrapper: only this table's children move. A col
    // straight in a table gets one in a browser, but other parsers (happy-dom, for one) move it
    // out in front of the table, as they do stray table content: every id from here on is written.
    return parent === "table" && tag === "tr" ? SHIFTED : UNSAFE;
  }
  if (TABLE_PARTS.has(tag)) return UNSAFE;
  if (flags & P_OPEN && CLOSES_P.has(tag)) return UNSAFE;
  if (HEADINGS.has(parent) && HEADINGS.has(tag)) return UNSAFE;
  switch (tag) {
    case "a":
      return flags & IN_A ? UNSAFE : SAFE;
    case "button":
      return flags & IN_BUTTON ? UNSAFE : SAFE;
    case "form":
      return flags & IN_FORM ? UNSAFE : SAFE;
    case "nobr":
      return flags & IN_NOBR ? UNSAFE : SAFE;
    case "li":
      return flags & LI_OPEN && parent !== "ul" && parent !== "ol" && parent !== "menu" ? UNSAFE : SAFE;
    case "dd":
    case "dt":
      return flags & DD_OPEN && parent !== "dl" ? UNSAFE : SAFE;
    case "option":
    case "optgroup":
      return parent === "option" ? UNSAFE : SAFE;
    case "select":
      return parent === "select" ? UNSAFE : SAFE;
  }
  return SAFE;
}

/** Whether a text child of a `parent` element stays where it is: in a table context only whitespace does. */
export function textFits(parent: string, text: string): boolean {
  return IN_TABLE_CONTEXT[parent] === undefined || parent === "select" || parent === "optgroup" || /^[ \t\n\f\r]*$/.test(text);
}

/** The flags below an element `tag` opened under `flags`. */
export function flagsBelow(flags: number, tag: string): number {
  const opened = OPENED.get(tag);
  return opened === undefined ? flags : (flags | opened.set) & ~opened.clear;
}

/** What opening each tag that matters does to the flags: the flags it sets and those it clears. */
const OPENED: ReadonlyMap<string, { readonly set: number; readonly clear: number }> = new Map([
  ["p", { set: P_OPEN, clear: 0 }],
  ["a", { set: IN_A, clear: 0 }],
  ["button", { set: IN_BUTTON, clear: 0 }],
  ["form", { set: IN_FORM, clear: 0 }],
  ["nobr", { set: IN_NOBR, clear: 0 }],
  ["li", { set: LI_OPEN, clear: 0 }],
  ["ul", { set: 0, clear: LI_OPEN }],
  ["ol", { set: 0, clear: LI_OPEN }],
  ["menu", { set: 0, clear: LI_OPEN }],
  ["dd", { set: DD_OPEN, clear: 0 }],
  ["dt", { set: DD_OPEN, clear: 0 }],
  ["dl", { set: 0, clear: DD_OPEN }],
  ["svg", { set: FOREIGN, clear: 0 }],
  ["math", { set: FOREIGN, clear: 0 }],
]);
