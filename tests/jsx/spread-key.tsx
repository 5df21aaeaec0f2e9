/**
 * A key after a spread: the compiler calls the classic `createElement` from the package's root
 * instead of `jsx`. The root is imported here by name too, because Deno's module graph does not
 * follow the import the compiler adds for it.
 */
import { Ui, type UiElement } from "svc-live";

export function spreadThenKey(attrs: { class: string; title: string }, id: number): UiElement {
  return <li {...attrs} key={id}>row {id}</li>;
}

export function spreadThenKeyTwin(attrs: { class: string; title: string }, id: number): UiElement {
  return Ui.h("li", { ...attrs, "svc-key": id }, "row ", id);
}
