/**
 * The ids of a page's elements, for a bench that posts events as the client would. The page's
 * markup leaves out the ids an element's place gives, which the client fills in
 * (docs/protocol.md#derived-ids); a bench reads them from the view the page renders instead.
 */
import { assignIds } from "../src/live/ids.ts";
import { forEachElement, type LiveElement } from "../src/live/tree.ts";
import type { UiElement } from "../src/ui/node.ts";

/** The ids of the elements of `view` that `match`, in document order. */
export function idsOf(view: UiElement, match: (el: LiveElement) => boolean): string[] {
  const out: string[] = [];
  forEachElement(assignIds(view), (el, id) => {
    if (match(el)) out.push(id);
  });
  return out;
}
