// The README's Hono example's TSX, in a program that declares no Register, with a misspelt message.
// expect: Argument of type '"Remvoe"' is not assignable to parameter of type
// expect: "Remove"
import { Each, Live, Ui } from "svc-live";

type Todo = { id: number; text: string };
type Todos = { user: string; draft: string; items: Todo[]; next: number };
type TodoMessages = { Draft: [value: string]; Add: [fields: { readonly [name: string]: string }]; Remove: [id: number] };
const ui = Ui.typed<TodoMessages>();

const TodoItem = (item: Todo) => (
  <li>
    {item.text} <button onClick={ui.msg("Remvoe", item.id)} hover={{ color: "crimson" }}>✕</button> {/* fails here */}
  </li>
);

const TodoPage = ({ model }: { model: Todos }) => (
  <main>
    <h1>{model.user}'s to-dos</h1>
    <form onSubmit={ui.msg("Add")}>
      <input name="draft" value={model.draft} onInput={ui.msg("Draft")} autocomplete="off" />
      <button type="submit">Add</button>
    </form>
    <ul>
      <Each items={model.items} by={(item) => item.id} row={TodoItem} />
    </ul>
  </main>
);

export const todos = Live.app<Todos, TodoMessages>({
  init: () => ({ user: "someone", draft: "", items: [], next: 1 }),
  update: (m, msg, args) =>
    msg === "Draft" ? { ...m, draft: args[0] } : msg === "Remove" ? { ...m, items: m.items.filter((item) => item.id !== args[0]) } : m,
  view: (model) => <TodoPage model={model} />,
});
