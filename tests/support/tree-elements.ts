/**
 * A live tree as its elements' ids, each with its tag, attributes and handlers: what property tests
 * compare between a session's tree and the same page built afresh.
 */
import { forEachElement, type LiveTree } from "../../src/live/tree.ts";

/** Every id of a tree with its tag, attributes and handlers, in tree order. */
export function elementsOf(tree: LiveTree): [string, string][] {
  const out: [string, string][] = [];
  forEachElement(tree, (el, id) => out.push([id, JSON.stringify([el.tag, el.attrs, el.handlers])]));
  return out;
}
