// Type tests for TSX handler props under a project's declared messages (docs/live-apps.md#typed-messages),
// compiled apart from the rest (tests/types/registered/tsconfig.json), since the declaration holds
// for a whole program; checked by `npm run typecheck` and tests/types/type-check.test.ts (deno check).
// Each expected-error directive fails the type-check if the line under it ever compiles.
import { Live } from "svc-live";

type Todo = { id: number; text: string };
type Model = { draft: string; todos: Todo[] };
type Messages = {
  Draft: [value: string];
  Add: [fields: { readonly [name: string]: string }];
  Remove: [id: number];
};

declare module "svc-live" {
  interface Register {
    messages: Messages;
  }
}

const Row = ({ todo }: { todo: Todo }) => (
  <li key={todo.id}>
    {todo.text} <button onClick={["Remove", todo.id]}>✕</button>
  </li>
);

export const app = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, msg, args) => {
    switch (msg) {
      case "Draft":
        return { ...model, draft: args[0] };
      case "Add":
        return { ...model, draft: "", todos: [...model.todos, { id: model.todos.length, text: model.draft }] };
      case "Remove":
        return { ...model, todos: model.todos.filter((t) => t.id !== args[0]) };
    }
  },
  view: (model) => (
    <main>
      <form onSubmit="Add">
        <input name="draft" value={model.draft} onInput="Draft" />
      </form>
      <ul>{model.todos.map((todo) => <Row todo={todo} />)}</ul>
    </main>
  ),
});

// @ts-expect-error "Ad" is not a declared message
export const misspelled = <button onClick="Ad">Add</button>;
// @ts-expect-error Remove takes a number
export const wrongArgument = <button onClick={["Remove", "7"]}>✕</button>;
// @ts-expect-error an input's value goes to a message whose last argument is a string; Remove's is a number
export const valueToNumber = <input onInput="Remove" />;
