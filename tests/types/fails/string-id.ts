// The README's to-do row passing its id as a string, where Remove takes a number.
// expect: Type 'string' is not assignable to type 'number'.
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

export const todoRow = (t: Todo) =>
  ui.h("li", {},
    ui.h("input", { type: "checkbox", checked: t.done, onChange: ["Toggle", t.id] }),
    ` ${t.text} `,
    ui.h("button", { onClick: ["Remove", String(t.id)], hover: { color: "crimson" } }, "✕")); // fails here
