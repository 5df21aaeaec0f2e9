/** A happy-dom document for the live tests, and a canonical form of DOM subtrees to compare. */
import { Window } from "happy-dom";

const window = new Window();
export const document = window.document as unknown as Document;

/** A container holding the parsed markup, as a browser would hold the root. */
export function parse(markup: string): HTMLElement {
  const container = document.createElement("div");
  container.innerHTML = markup;
  return container;
}

/** Parses markup as the children of a `contextTag` element (the client's fragment parsing). */
export function parseIn(contextTag: string, markup: string): Node[] {
  const context = document.createElement(contextTag);
  context.innerHTML = markup;
  return Array.from(context.childNodes);
}

/** Tag, attributes (sorted) and children, as plain data: two DOMs are equal when these are. */
export function canon(node: Node): unknown {
  if (node.nodeType === 3) return { text: node.textContent };
  if (node.nodeType !== 1) return { other: node.nodeType, text: node.textContent };
  const el = node as Element;
  const attrs = Array.from(el.attributes).map((a) => [a.name, a.value]).sort((x, y) => (x[0]! < y[0]! ? -1 : 1));
  return { tag: el.tagName.toLowerCase(), attrs, kids: Array.from(el.childNodes).map(canon) };
}
