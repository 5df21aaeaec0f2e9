// The README's Hono example's TSX with a raw, misspelt message, in a program that declares no
// Register: a raw name or tuple cannot be checked against the app's messages, so it does not
// compile, and the error says to write ui.msg.
// expect: is not assignable to type
// expect: a TSX handler takes ui.msg(name, ...args) from Ui.typed<Messages>()
import { Each, Live } from "svc-live";

type Todo = { id: number; text: string };
type Todos = { user: string; draft: string; items: Todo[]; next: number };
type TodoMessages = { Draft: [value: string]; Add: [fields: { readonly [name: string]: string }]; Remove: [id: number] };

const TodoItem = (item: Todo) => (
  <li>
    {item.text} <button onClick={["Remvoe", item.id]} hover={{ color: "crimson" }}>✕</button> {/* fails here */}
  </li>
);

const TodoPage = ({ model }: { model: Todos }) => (
  <main>
    <h1>{model.user}'s to-dos</h1>
    <ul>
      <Each items={model.items} by={(item) => item.id} row={TodoItem} />
    </ul>
  </main>
);

export const todos = Live.app<Todos, TodoMessages>({
  init: () => ({ user: "someone", draft: "", items: [], next: 1 }),
  update: {
    Draft: (m, value) => ({ ...m, draft: value }),
    Add: (m) => m,
    Remove: (m, id) => ({ ...m, items: m.items.filter((item) => item.id !== id) }),
  },
  view: (model) => <TodoPage model={model} />,
});
