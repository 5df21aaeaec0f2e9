/**
 * Derived ids (docs/protocol.md#derived-ids): the markup writes an element's `svc-id` only where
 * the client cannot work it out from the element's place, tag and key; the client fills in the
 * rest when it takes in markup. The server decides which ids to write by running this very code
 * over the children it renders, so the two sides cannot disagree.
 *
 * Browser-safe and dependency-free like the rest of src/protocol/.
 */
import { sanitizeKey } from "./markup.ts";

/** Tags whose `name` attribute is a key (docs/protocol.md#keys). */
export const NAME_KEYED_TAGS: ReadonlySet<string> = new Set(["input", "textarea", "select", "form", "button", "fieldset"]);

/**
 * An element's key from its attributes, by priority (docs/protocol.md#keys): a non-empty `svc-key`,
 * else a non-empty `name` on a form control; sanitised. Undefined for none.
 */
export function keyFromAttrs(tag: string, svcKey: string | null | undefined, name: string | null | undefined): string | undefined {
  const raw = svcKey !== null && svcKey !== undefined && svcKey !== "" ? svcKey : NAME_KEYED_TAGS.has(tag) ? name : undefined;
  return raw === null || raw === undefined || raw === "" ? undefined : sanitizeKey(raw);
}

/** The seg of an element (docs/protocol.md#id-grammar): `<index>#<tag>`, `#<tag>:<key>`, or `<index>#<tag>:<key>` for a shared key. */
export function segment(index: number, tag: string, key: string | undefined, sharedKey: boolean): string {
  return key === undefined ? `${index}#${tag}` : sharedKey ? `${index}#${tag}:${key}` : `#${tag}:${key}`;
}

/** Whether an id or seg names an injected style (`<owner>.~<pass>`), which does not count in its siblings' index. */
export function isStyleId(idOrSeg: string): boolean {
  return idOrSeg.includes("~");
}

/**
 * The derivation over one parent's children, in document order (docs/protocol.md#derived-ids):
 * a run of adjacent text nodes counts as one child, an element counts as one unless it is an
 * injected style, and an element without a written id takes the seg `segment(count so far, tag,
 * key, false)`. From the first element with a written id, or the first comment, on, nothing more
 * is derived among these children: the markup writes every id from there (an element the parser
 * added or moved, or raw HTML's own elements, must not take an id). The server calls these
 * methods for what its markup will make of the view's children; the client calls them for the
 * nodes it parsed.
 */
export class ChildSegs {
  private index = 0;
  private inText = false;
  private stopped = false;

  /** A text node among the children. */
  text(): void {
    if (this.inText) return;
    this.inText = true;
    this.index++;
  }

  /** A comment among the children: the markup's sign that it writes every id from here on. */
  comment(): void {
    this.stopped = true;
  }

  /** The seg the next element child takes when the markup writes no id for it; undefined once derivation has stopped. */
  derive(tag: string, key: string | undefined): string | undefined {
    return this.stopped ? undefined : segment(this.index, tag, key, false);
  }

  /** Counts an element child, whose id (or seg) is `idOrSeg`; `written`: whether the markup wrote it. */
  element(idOrSeg: string, written: boolean): void {
    this.inText = false;
    if (written) this.stopped = true;
    if (!isStyleId(idOrSeg)) this.index++;
  }
}
