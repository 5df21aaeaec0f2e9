/** A happy-dom document for the live tests, and a canonical form of DOM subtrees to compare. */
import { Window } from "happy-dom";
import { fillIds } from "../../client/dom.ts";

const window = new Window();
export const document = window.document as unknown as Document;

/**
 * A container holding the parsed markup, as a browser would hold the root, with the ids the markup
 * leaves out filled in as the client fills them (docs/protocol.md#derived-ids).
 */
export function parse(markup: string): HTMLElement {
  const container = document.createElement("div");
  container.innerHTML = markup;
  fillIds(container.childNodes, undefined);
  return container;
}

/**
 * Parses markup as the children of a `contextTag` element (the client's fragment parsing), and
 * fills in ids as the client does: under `parentId` when the nodes are all of that element's children.
 */
export function parseIn(contextTag: string, markup: string, parentId?: string): Node[] {
  const context = document.createElement(contextTag);
  context.innerHTML = markup;
  const nodes = Array.from(context.childNodes);
  fillIds(nodes, parentId);
  return nodes;
}

/** Tag, attributes (sorted) and children, as plain data: two DOMs are equal when these are. */
export function canon(node: Node): unknown {
  if (node.nodeType === 3) return { text: node.textContent };
  if (node.nodeType !== 1) return { other: node.nodeType, text: node.textContent };
  const el = node as Element;
  const attrs = Array.from(el.attributes).map((a) => [a.name, a.value]).sort((x, y) => (x[0]! < y[0]! ? -1 : 1));
  return { tag: el.tagName.toLowerCase(), attrs, kids: Array.from(el.childNodes).map(canon) };
}

/**
 * The svc-id of the first element matching `selector` in a page or a render, as the client fills
 * ids in (docs/protocol.md#derived-ids): markup leaves out the ids an element's place gives.
 */
export function idIn(html: string, selector: string): string {
  const body = /<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? html;
  const id = parse(body).querySelector(selector)?.getAttribute("svc-id");
  if (id === undefined || id === null) throw new Error(`no element ${selector} with an id`);
  return id;
}

/** The svc-ids of every element matching `selector`, in document order (see `idIn`). */
export function idsIn(html: string, selector: string): string[] {
  const body = /<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? html;
  return Array.from(parse(body).querySelectorAll(selector)).map((el) => el.getAttribute("svc-id") ?? "");
}

/** The text of every element matching `selector`, in document order (see `idIn`). */
export function textsIn(html: string, selector: string): string[] {
  const body = /<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? html;
  return Array.from(parse(body).querySelectorAll(selector)).map((el) => el.textContent ?? "");
}

/**
 * Lets the event loop turn: happy-dom keeps each parsed `<select>` (and what holds it) reachable
 * until a macrotask it queued has run, so a synchronous loop over many parsed pages grows without
 * bound (about 1.2 MB per 50 selects). A property test that parses pages in every case awaits this
 * between cases.
 */
export function domSettled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
