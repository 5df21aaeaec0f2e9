// The README's update, one handler per message, with the handler for Remove left out.
// expect: Property 'Remove' is missing
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
  update: { // fails here
    Draft: (model, value) => ({ ...model, draft: value }),
    Add: (model) => model.draft.trim() === "" ? model : { draft: "", todos: [...model.todos, { id: model.next, text: model.draft.trim(), done: false }], next: model.next + 1 },
    Toggle: (model, id, checked) => ({ ...model, todos: model.todos.map((t) => (t.id === id ? { ...t, done: checked } : t)) }),
  },
  view: ({ todos }) => ui.h("ul", {}, ui.each(todos, (t) => t.id, (t) => ui.h("li", {}, t.text))),
});
