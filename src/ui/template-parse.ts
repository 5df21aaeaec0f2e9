/**
 * The parser of `Ui.html` templates (src/ui/template.ts): the static strings of a tagged template
 * become a tree of elements, texts and holes, once per template (call site).
 *
 * The language is HTML as an app writes it by hand, with these rules:
 * - a hole (`${…}`) is a child, or an attribute's value: whole (`value=${v}`, which passes any
 *   value `Ui.h` accepts: a handler message, a style object, a boolean) or inside a quoted value
 *   (`class="row ${kind}"`, text only). Anywhere else (a tag name, an attribute name, a comment) it
 *   is an error;
 * - `<x/>` closes any element (`<div/>` is an empty div); void elements need no closing tag; every
 *   other element must be closed by its own end tag;
 * - whitespace follows JSX: a run of text that holds a line break loses the whitespace around
 *   each line break, and a run that is only such whitespace disappears, so indentation never
 *   becomes text nodes (which would count in the structural ids, docs/protocol.md#node-ids);
 *   spaces on one line stay (`<b>a</b> <i>b</i>`);
 * - character references: `&amp; &lt; &gt; &quot; &apos; &nbsp;` and a few more by name, and
 *   numeric ones (`&#169;`, `&#xA9;`); an unknown name is an error rather than text shown as is;
 * - `<style>` and `<script>` content is raw text (no references, no whitespace rule);
 *   `<textarea>` and `<title>` content is text (references decoded, the whitespace rule applies);
 * - comments (`<!-- … -->`) are dropped.
 *
 * A template holds exactly one root element. Errors throw a TypeError naming the template and the
 * place, at the template's first use, as `Ui.h` throws at its call (CONTRIBUTING.md#conventions).
 */

import { RAW_TEXT_TAGS, TEXT_ONLY_TAGS, VOID_TAGS } from "./node.ts";

/** A template's tree: what `compile` in template.ts turns into a builder. */
export type TemplateElement = {
  readonly kind: "el";
  readonly tag: string;
  readonly attrs: readonly TemplateAttr[];
  readonly children: readonly TemplateChild[];
};
export type TemplateText = { readonly kind: "text"; readonly text: string };
export type TemplateHole = { readonly kind: "hole"; readonly index: number };
export type TemplateChild = TemplateElement | TemplateText | TemplateHole;

/**
 * An attribute: `parts` are its value's static strings and hole indexes, in order. No parts: a
 * bare attribute (`disabled`, the value true). One hole alone: the hole's value as it is.
 */
export type TemplateAttr = { readonly name: string; readonly parts: readonly (string | number)[] };

const NAMED_REFS: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  hellip: "\u2026",
  mdash: "\u2014",
  ndash: "\u2013",
  laquo: "\u00ab",
  raquo: "\u00bb",
  middot: "\u00b7",
  times: "\u00d7",
  larr: "\u2190",
  rarr: "\u2192",
  uarr: "\u2191",
  darr: "\u2193",
  euro: "\u20ac",
  deg: "\u00b0",
  bull: "\u2022",
};

/** Open elements being filled, innermost last. */
type Open = { tag: string; attrs: TemplateAttr[]; children: TemplateChild[] };

const isSpace = (c: string) => c === " " || c === "\n" || c === "\t" || c === "\r" || c === "\f";
const NAME_START = /[A-Za-z]/;
const TAG_CHAR = /[A-Za-z0-9-]/;
/** Characters an attribute name cannot hold (HTML's attribute name state, and `=`). */
const NOT_ATTR_CHAR = /[\s"'<>/=`]/;

export function parseTemplate(strings: readonly string[]): TemplateElement {
  return new Parser(strings).parse();
}

class Parser {
  private readonly top: Open = { tag: "", attrs: [], children: [] };
  private readonly stack: Open[] = [this.top];
  /** Which string, and where in it, the parser is. */
  private s = 0;
  private i = 0;
  private text = "";

  constructor(private readonly strings: readonly string[]) {}

  parse(): TemplateElement {
    if (this.strings.some((str) => typeof str !== "string")) {
      this.fail("a template string is not valid (an escape sequence it cannot hold?)");
    }
    const last = this.strings.length - 1;
    // A tag's attribute values may span holes, so `step` may move on to a later string.
    for (;;) {
      const str = this.strings[this.s]!;
      if (this.i < str.length) {
        this.step(str);
        continue;
      }
      if (this.s === last) break;
      this.childHole(this.s);
      this.s++;
      this.i = 0;
    }
    this.flushText();
    if (this.stack.length > 1) this.fail(`<${this.stack[this.stack.length - 1]!.tag}> is not closed`);
    const roots = this.top.children;
    if (roots.length !== 1 || roots[0]!.kind !== "el") {
      this.fail("a template holds exactly one root element, and no text or hole beside it");
    }
    return roots[0] as TemplateElement;
  }

  private get open(): Open {
    return this.stack[this.stack.length - 1]!;
  }

  /** Reads one construct of text content: a tag, a comment, or a run of text. */
  private step(str: string): void {
    const c = str[this.i]!;
    const rawParent = this.rawTextParent();
    if (rawParent !== undefined) {
      const end = str.toLowerCase().indexOf(`</${rawParent}`, this.i);
      if (end < 0) {
        this.text += str.slice(this.i);
        this.i = str.length;
        return;
      }
      this.text += str.slice(this.i, end);
      this.i = end;
      this.closeTag(str);
      return;
    }
    if (c !== "<") {
      const next = str.indexOf("<", this.i);
      const end = next < 0 ? str.length : next;
      this.text += str.slice(this.i, end);
      this.i = end;
      return;
    }
    if (str.startsWith("<!--", this.i)) return this.comment(str);
    if (str[this.i + 1] === "/") return this.closeTag(str);
    if (NAME_START.test(str[this.i + 1] ?? "")) return this.openTag(str);
    // A "<" that starts no tag is text, as HTML reads it ("a < b").
    this.text += "<";
    this.i += 1;
  }

  /** The tag of the open element whose content is raw or escapable text, if any. */
  private rawTextParent(): string | undefined {
    const tag = this.open.tag;
    return TEXT_ONLY_TAGS.has(tag) ? tag : undefined;
  }

  private comment(str: string): void {
    const end = str.indexOf("-->", this.i + 4);
    if (end < 0) this.fail("a comment must end in the same string it starts in (no hole inside a comment)");
    this.flushText();
    this.i = end + 3;
  }

  private closeTag(str: string): void {
    this.flushText();
    const start = this.i + 2;
    let j = start;
    while (j < str.length && TAG_CHAR.test(str[j]!)) j++;
    const tag = str.slice(start, j).toLowerCase();
    while (j < str.length && isSpace(str[j]!)) j++;
    if (tag === "" || str[j] !== ">") this.fail("a closing tag must be </name> within one string");
    const open = this.open;
    if (this.stack.length === 1) this.fail(`</${tag}> closes nothing`);
    if (open.tag !== tag) this.fail(`</${tag}> closes <${open.tag}>`);
    this.i = j + 1;
    this.close();
  }

  /** Reads `<tag attrs…>` or `<tag attrs…/>`, across holes in attribute values. */
  private openTag(first: string): void {
    this.flushText();
    let str = first;
    let j = this.i + 1;
    while (j < str.length && TAG_CHAR.test(str[j]!)) j++;
    const tag = str.slice(this.i + 1, j).toLowerCase();
    const attrs: TemplateAttr[] = [];
    const names = new Set<string>();
    for (;;) {
      while (j < str.length && isSpace(str[j]!)) j++;
      if (j >= str.length) {
        this.fail(this.s < this.strings.length - 1 ? `a hole in <${tag}> must be an attribute's value` : `<${tag}> is not finished`);
      }
      const c = str[j]!;
      if (c === ">" || (c === "/" && str[j + 1] === ">")) {
        this.i = j + (c === ">" ? 1 : 2);
        const element: Open = { tag, attrs, children: [] };
        this.stack.push(element);
        if (c === "/" || VOID_TAGS.has(tag)) this.close();
        return;
      }
      let k = j;
      while (k < str.length && !NOT_ATTR_CHAR.test(str[k]!)) k++;
      const name = str.slice(j, k);
      if (name === "") this.fail(`<${tag}> has a stray ${JSON.stringify(c)}`);
      if (names.has(name.toLowerCase())) this.fail(`<${tag}> has ${name} twice`);
      names.add(name.toLowerCase());
      while (k < str.length && isSpace(str[k]!)) k++;
      if (str[k] !== "=") {
        attrs.push({ name, parts: [] });
        j = k;
        continue;
      }
      k++;
      while (k < str.length && isSpace(str[k]!)) k++;
      const read = this.attrValue(str, k, tag, name);
      attrs.push({ name, parts: read.parts });
      str = this.strings[this.s]!;
      j = read.end;
    }
  }

  /**
   * Reads an attribute value starting at `at` in the current string: quoted (holes inside), a hole
   * alone, or unquoted text. Moves to a later string when the value spans holes; returns the
   * position just after the value in the (then) current string.
   */
  private attrValue(str: string, at: number, tag: string, name: string): { parts: (string | number)[]; end: number } {
    const quote = str[at];
    const parts: (string | number)[] = [];
    if (at >= str.length) {
      // `name=${…}`: the hole is the whole value.
      if (this.s >= this.strings.length - 1) this.fail(`<${tag}> is not finished`);
      parts.push(this.s);
      this.s++;
      return { parts, end: 0 };
    }
    if (quote === '"' || quote === "'") {
      let from = at + 1;
      for (;;) {
        const current = this.strings[this.s]!;
        const close = current.indexOf(quote, from);
        if (close >= 0) {
          const rest = current.slice(from, close);
          // A static value stays one string, even "" (an absent attribute, as in Ui.h).
          if (rest !== "" || parts.length === 0) parts.push(decodeRefs(rest, this));
          return { parts, end: close + 1 };
        }
        if (this.s >= this.strings.length - 1) this.fail(`${name}'s value in <${tag}> has no closing quote`);
        const piece = current.slice(from);
        if (piece !== "") parts.push(decodeRefs(piece, this));
        parts.push(this.s);
        this.s++;
        from = 0;
      }
    }
    let end = at;
    while (end < str.length && !isSpace(str[end]!) && str[end] !== ">" && !(str[end] === "/" && str[end + 1] === ">")) {
      if (`"'<=\``.includes(str[end]!)) this.fail(`${name}'s unquoted value in <${tag}> holds ${JSON.stringify(str[end])}: quote it`);
      end++;
    }
    if (end === str.length && this.s < this.strings.length - 1) this.fail(`${name}'s value in <${tag}> mixes text and a hole: quote it`);
    parts.push(decodeRefs(str.slice(at, end), this));
    return { parts, end };
  }

  /** The end of a string that is not the last: a hole in the current place. */
  private childHole(index: number): void {
    if (this.stack.length === 1) this.fail("a template holds exactly one root element, and no text or hole beside it");
    const tag = this.open.tag;
    if (RAW_TEXT_TAGS.has(tag)) this.fail(`a hole cannot go inside <${tag}>: pass its whole content as one text`);
    this.flushText();
    this.open.children.push({ kind: "hole", index });
  }

  /** Ends the innermost open element: it becomes a child of the one around it. */
  private close(): void {
    const done = this.stack.pop()!;
    this.open.children.push({ kind: "el", tag: done.tag, attrs: done.attrs, children: done.children });
  }

  /** The text read since the last tag or hole becomes a text child, by the whitespace rule. */
  private flushText(): void {
    const raw = this.text;
    this.text = "";
    if (raw === "") return;
    const tag = this.open.tag;
    const text = RAW_TEXT_TAGS.has(tag) ? raw : decodeRefs(collapseLineBreaks(raw), this);
    if (text === "") return;
    if (this.stack.length === 1) this.fail("a template holds exactly one root element, and no text or hole beside it");
    this.open.children.push({ kind: "text", text });
  }

  fail(message: string): never {
    const where = this.strings.slice(0, this.s + 1).join("${…}");
    const shown = where.length > 60 ? `…${where.slice(-60)}` : where;
    throw new TypeError(`Ui.html: ${message} (at ${JSON.stringify(shown)})`);
  }
}

/**
 * The JSX whitespace rule: in a text holding a line break, each line loses its leading whitespace
 * (but the first) and its trailing whitespace (but the last's), empty lines go, and the rest join
 * with single spaces. A text without a line break stays as written.
 */
function collapseLineBreaks(text: string): string {
  if (!/[\n\r]/.test(text)) return text;
  const lines = text.split(/\r\n|\n|\r/);
  const last = lines.length - 1;
  const kept: string[] = [];
  lines.forEach((line, n) => {
    let trimmed = n > 0 ? line.replace(/^[ \t\f]+/, "") : line;
    if (n < last) trimmed = trimmed.replace(/[ \t\f]+$/, "");
    if (trimmed !== "") kept.push(trimmed);
  });
  return kept.join(" ");
}

/** Decodes character references (named from NAMED_REFS, decimal, hex); an unknown name fails. */
function decodeRefs(text: string, parser: { fail(message: string): never }): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/g, (whole, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : "\ufffd";
    }
    const named = NAMED_REFS[body];
    if (named === undefined) parser.fail(`unknown character reference ${whole}: write the character itself`);
    return named;
  });
}
