/**
 * HTML escaping for the renderer. Every text and attribute value the app gives goes through here;
 * raw HTML (`Ui.raw`) is the only way around it.
 *
 * Beyond `& < > " '`: a CR would be turned into LF by the HTML parser, so it is written as a
 * character reference; U+2028 and U+2029 are written as references so the markup can sit inside a
 * JS string or JSON unharmed; U+0000 cannot survive HTML parsing at all and becomes U+FFFD.
 */

const TEXT_SPECIAL = /[&<>\r\0\u2028\u2029]/;
const ATTR_SPECIAL = /[&<>"'\r\0\u2028\u2029]/;
const TEXT_ALL = /[&<>\r\0\u2028\u2029]/g;
const ATTR_ALL = /[&<>"'\r\0\u2028\u2029]/g;

const REFS: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "\r": "&#13;",
  "\0": "\uFFFD",
  "\u2028": "&#x2028;",
  "\u2029": "&#x2029;",
};
const ref = (c: string): string => REFS[c] as string;

/**
 * Escapes text for an HTML text node: `&`, `<`, `>` and the characters a parser would alter.
 * `Ui.h` escapes its text children itself; this is for markup an app writes by hand (`Ui.raw`).
 *
 * @example
 * ```ts
 * import { escapeText, Ui } from "svc-live";
 *
 * const name = "<b>Tom & Jerry</b>";
 * const note = Ui.raw(`<p>Signed by <em>${escapeText(name)}</em></p>`);
 * ```
 */
export function escapeText(text: string): string {
  return TEXT_SPECIAL.test(text) ? text.replace(TEXT_ALL, ref) : text;
}

/**
 * Escapes a value for a double-quoted HTML attribute (`"`, `&`, `<` and the rest). `Ui.h` escapes
 * attribute values itself; this is for markup an app writes by hand.
 *
 * @example
 * ```ts
 * import { escapeAttr, Ui } from "svc-live";
 *
 * const title = 'say "hi"';
 * const link = Ui.raw(`<a href="/help" title="${escapeAttr(title)}">help</a>`);
 * ```
 */
export function escapeAttr(value: string): string {
  return ATTR_SPECIAL.test(value) ? value.replace(ATTR_ALL, ref) : value;
}

/**
 * Text inside `<style>` or `<script>` is raw to the parser: references are not decoded, so it is
 * not escaped, only kept from closing its element. In CSS, `<` becomes the escape `\3c `; in a
 * script, `</` becomes `<\/` (equal inside JS strings and regexes). U+0000 still becomes U+FFFD.
 */
export function escapeRawText(tag: string, text: string): string {
  const safe = text.includes("\0") ? text.replaceAll("\0", "\uFFFD") : text;
  if (!safe.includes("<")) return safe;
  return tag === "style" ? safe.replaceAll("<", "\\3c ") : safe.replaceAll("</", "<\\/").replaceAll("<!--", "<\\!--");
}
