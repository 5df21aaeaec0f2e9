/**
 * The view bench/jsx.bench.ts renders, written twice: in TSX and with Ui.h, element for element
 * (tests/jsx/jsx.test.ts holds the runtime to building the same nodes). A to-do page: a header
 * with a form, and one keyed row per item with a checkbox, its text, a tag list and two buttons.
 */
import { h, keyed, type UiElement } from "../src/ui/node.ts";
import { typed } from "../src/ui/typed.ts";

/** The messages the TSX view sends, checked where it names them (`ui.msg`). */
const ui = typed<
  {
    Toggle: [id: number, checked: boolean];
    Edit: [id: number];
    Remove: [id: number];
    Add: [fields: { readonly [name: string]: string }];
    Draft: [value: string];
  }
>();

export type Item = { readonly id: number; readonly text: string; readonly done: boolean; readonly tags: readonly string[] };
export type Model = { readonly title: string; readonly draft: string; readonly items: readonly Item[] };

function Row({ item }: { item: Item }) {
  return (
    <li class={item.done ? "row done" : "row"}>
      <input type="checkbox" name={`done-${item.id}`} checked={item.done} onChange={ui.msg("Toggle", item.id)} />
      <span class="text">{item.text}</span>
      <span class="tags">{item.tags.map((tag) => <em>{tag}</em>)}</span>
      <button class="small" onClick={ui.msg("Edit", item.id)}>Edit</button>
      <button class="small" onClick={ui.msg("Remove", item.id)}>✕</button>
    </li>
  );
}

export function jsxView(model: Model): UiElement {
  return (
    <main>
      <header>
        <h1>{model.title}</h1>
        <form onSubmit={ui.msg("Add")}>
          <input name="draft" value={model.draft} onInput={ui.msg("Draft")} placeholder="Something to do" />
          <button type="submit">Add</button>
        </form>
      </header>
      <ul class="list">{model.items.map((item) => <Row key={item.id} item={item} />)}</ul>
      <footer>{model.items.filter((item) => !item.done).length} left</footer>
    </main>
  );
}

function hRow(item: Item): UiElement {
  return h(
    "li",
    { class: item.done ? "row done" : "row" },
    h("input", { type: "checkbox", name: `done-${item.id}`, checked: item.done, onChange: ["Toggle", item.id] }),
    h("span", { class: "text" }, item.text),
    h("span", { class: "tags" }, item.tags.map((tag) => h("em", {}, tag))),
    h("button", { class: "small", onClick: ["Edit", item.id] }, "Edit"),
    h("button", { class: "small", onClick: ["Remove", item.id] }, "✕"),
  );
}

export function hView(model: Model): UiElement {
  return h(
    "main",
    {},
    h(
      "header",
      {},
      h("h1", {}, model.title),
      h(
        "form",
        { onSubmit: "Add" },
        h("input", { name: "draft", value: model.draft, onInput: "Draft", placeholder: "Something to do" }),
        h("button", { type: "submit" }, "Add"),
      ),
    ),
    h("ul", { class: "list" }, model.items.map((item) => keyed(item.id, hRow(item)))),
    h("footer", {}, model.items.filter((item) => !item.done).length, " left"),
  );
}
