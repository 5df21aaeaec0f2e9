// The README's update with the case for Remove left out.
// expect: Argument of type '"Remove"' is not assignable to parameter of type '"no case in update for Remove"'.
import { Live, Ui } from "svc-live";

type Todo = { id: number; text: string; done: boolean };
type Model = { draft: string; todos: Todo[]; next: number };
type Messages = {
  Draft: [value: string];
  Add: [fields: { readonly [name: string]: string }];
  Toggle: [id: number, checked: boolean];
  Remove: [id: number];
};
const ui = Ui.typed<Messages>();

export const app = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [], next: 1 }),
  update: (model, msg, args) => {
    const { draft, todos, next } = model;
    switch (msg) {
      case "Draft": return { ...model, draft: args[0] };
      case "Add": return draft.trim() === "" ? model : { draft: "", todos: [...todos, { id: next, text: draft.trim(), done: false }], next: next + 1 };
      case "Toggle": return { ...model, todos: todos.map((t) => (t.id === args[0] ? { ...t, done: args[1] } : t)) };
      default: return Live.unhandled(msg); // fails here
    }
  },
  view: ({ todos }) => ui.h("ul", {}, ui.each(todos, (t) => t.id, (t) => ui.h("li", {}, t.text))),
});
