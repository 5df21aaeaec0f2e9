/**
 * A list written with `<Each>` in TSX, and the same list with `Ui.keyed` over a map in `Ui.h`:
 * `<Each>` is `Ui.each` (src/ui/each.ts), so the two build the same page (tests/jsx/jsx.test.ts).
 */
import { Each } from "../../src/ui/each.ts";
import { h, keyed, type UiElement } from "../../src/ui/node.ts";
import type { TodoModel, TodoRow } from "../support/todos.ts";
import { typed } from "../../src/ui/typed.ts";

const ui = typed<{ Toggle: [id: number, checked: boolean] }>();

/** A row: a function of its item alone, defined once, as `<Each>` wants it. */
const TodoItem = (row: TodoRow) => (
  <li class={row.done ? "done" : undefined}>
    <input type="checkbox" name="done" checked={row.done} onChange={ui.msg("Toggle", row.id)} />
    {row.text}
  </li>
);

export function eachJsxView(model: TodoModel): UiElement {
  return (
    <ul>
      <Each items={model.rows} by={(row) => row.id} row={TodoItem} />
    </ul>
  );
}

export function eachHView(model: TodoModel): UiElement {
  return h(
    "ul",
    {},
    model.rows.map((row) =>
      keyed(
        row.id,
        h(
          "li",
          { class: row.done ? "done" : undefined },
          h("input", { type: "checkbox", name: "done", checked: row.done, onChange: ["Toggle", row.id] }),
          row.text,
        ),
      )
    ),
  );
}
