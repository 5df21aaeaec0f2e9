// The README's to-do row, a helper outside view with no annotation, with a misspelt message.
// expect: Type '"Remvoe"' is not assignable to type
// expect: Did you mean '"Remove"'?
import { Ui } from "svc-live";

type Todo = { id: number; text: string; done: boolean };
type Messages = {
  Draft: [value: string];
  Add: [fields: { readonly [name: string]: string }];
  Toggle: [id: number, checked: boolean];
  Remove: [id: number];
};
// The view builders, checked against Messages wherever they are called, in view or outside it.
const ui = Ui.typed<Messages>();

// A row is a function of its item, defined once: ui.each builds it again only when the item changes.
export const todoRow = (t: Todo) =>
  ui.h("li", {},
    ui.h("input", { type: "checkbox", checked: t.done, onChange: ["Toggle", t.id] }),
    ` ${t.text} `,
    ui.h("button", { onClick: ["Remvoe", t.id], hover: { color: "crimson" } }, "✕")); // fails here
