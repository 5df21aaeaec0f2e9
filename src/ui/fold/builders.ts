/**
 * The builders a fold's replay makes its calls with (src/ui/fold/tape-read.ts): `Ui.h`'s element
 * builder, `Ui.keyed`'s, and raw HTML, outside any session's log. src/ui/node.ts hands them over
 * when it loads, so the fold modules, which the element log reads, do not import the builders that
 * import the log.
 */
import type { Attrs } from "../attrs.ts";
import type { Child, UiElement, UiRaw } from "../types.ts";

export type Builders = {
  readonly element: (tag: string, attrs: Attrs | null, children: Child[]) => UiElement;
  readonly keyed: (key: string, node: UiElement) => UiElement;
  readonly raw: (html: string) => UiRaw;
};

let given: Builders | undefined;

/** Called once by src/ui/node.ts. */
export function giveBuilders(builders: Builders): void {
  given = builders;
}

/** The builders; src/ui/node.ts is loaded by then, as every view element comes from it. */
export function builders(): Builders {
  if (given === undefined) throw new Error("svc-live: src/ui/node.ts is not loaded");
  return given;
}
