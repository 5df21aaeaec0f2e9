/**
 * One todo view written twice, in TSX and with Ui.h, element for element: the JSX runtime must
 * build what Ui.h builds (tests/jsx/jsx.test.ts). It uses each JSX form: a component, a keyed
 * component, a fragment, `key=`, handlers with arguments, style props and a keydown filter.
 */
import { h, keyed, type UiElement } from "../../src/ui/node.ts";
import type { TodoModel, TodoRow } from "../support/todos.ts";
import { typed } from "../../src/ui/typed.ts";

/** The messages the TSX view sends, checked where it names them (`ui.msg`). */
const ui = typed<{ Toggle: [id: number, checked: boolean]; Down: [id: number]; Remove: [id: number]; Add: []; Draft: [value: string] }>();

function Row({ row, last }: { row: TodoRow; last: boolean }) {
  return (
    <li class={row.done ? "done" : undefined} hover={{ background: "#eee" }}>
      <input type="checkbox" name={`done-${row.id}`} checked={row.done} onChange={ui.msg("Toggle", row.id)} />
      <span>{row.text}</span>
      {row.tags.map((tag) => <em key={tag}>{tag}</em>)}
      <button disabled={last} onClick={ui.msg("Down", row.id)}>↓</button>
      <button onClick={ui.msg("Remove", row.id)}>✕</button>
    </li>
  );
}

export function jsxView(model: TodoModel): UiElement {
  return (
    <main>
      <>
        <h1 style={{ fontWeight: 600 }}>{model.title}</h1>
        {model.count > 0 && <p class="count">{model.count} left</p>}
      </>
      <input name="draft" onKeydown={{ key: "Enter", msg: ui.msg("Add") }} onInput={ui.msg("Draft")} />
      <ul>
        {model.rows.map((row, i) => <Row key={row.id} row={row} last={i === model.rows.length - 1} />)}
      </ul>
      <footer>
        Total: {model.rows.length}
      </footer>
    </main>
  );
}

function hRow(row: TodoRow, last: boolean): UiElement {
  return h(
    "li",
    { class: row.done ? "done" : undefined, hover: { background: "#eee" } },
    h("input", { type: "checkbox", name: `done-${row.id}`, checked: row.done, onChange: ["Toggle", row.id] }),
    h("span", {}, row.text),
    row.tags.map((tag) => keyed(tag, h("em", {}, tag))),
    h("button", { disabled: last, onClick: ["Down", row.id] }, "↓"),
    h("button", { onClick: ["Remove", row.id] }, "✕"),
  );
}

export function hView(model: TodoModel): UiElement {
  return h(
    "main",
    {},
    h("h1", { style: { fontWeight: 600 } }, model.title),
    model.count > 0 && h("p", { class: "count" }, model.count, " left"),
    h("input", { name: "draft", onKeydown: { key: "Enter", msg: "Add" }, onInput: "Draft" }),
    h("ul", {}, model.rows.map((row, i) => keyed(row.id, hRow(row, i === model.rows.length - 1)))),
    h("footer", {}, "Total: ", model.rows.length),
  );
}
