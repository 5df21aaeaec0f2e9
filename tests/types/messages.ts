// Type tests for typed messages (docs/live-apps.md#typed-messages), checked by `tsc --noEmit`
// (npm run typecheck) and `deno check` (tests/types/type-check.test.ts); never executed. Each
// expected-error directive fails the type-check if the line under it ever compiles.
import { Live, Ui, type UiElement } from "../../src/mod.ts";

type Todo = { id: number; text: string; done: boolean };
type Model = { draft: string; todos: Todo[] };
type Messages = {
  Draft: [value: string];
  Add: [fields: { readonly [name: string]: string }];
  Toggle: [id: number, checked: boolean];
  Remove: [id: number];
  Clear: [];
};

const row = (t: Todo): UiElement<Messages> =>
  Ui.keyed(
    t.id,
    Ui.h(
      "li",
      {},
      Ui.h("input", { type: "checkbox", checked: t.done, onChange: ["Toggle", t.id] }),
      t.text,
      Ui.h("button", { onClick: ["Remove", t.id] }, "✕"),
    ),
  );

// Accepted: every handler names a declared message with arguments of its types, the client's own
// argument (a value, the form's fields) left to the client; update narrows args by msg.
export const typed = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, msg, args) => {
    switch (msg) {
      case "Draft":
        return { ...model, draft: args[0].trim() };
      case "Add":
        return { ...model, draft: "", todos: [...model.todos, { id: model.todos.length, text: args[0]["draft"] ?? "", done: false }] };
      case "Toggle":
        return { ...model, todos: model.todos.map((t) => (t.id === args[0] ? { ...t, done: args[1] } : t)) };
      case "Remove":
        return { ...model, todos: model.todos.filter((t) => t.id !== args[0]) };
      case "Clear":
        return { ...model, todos: [] };
      default: {
        const unreachable: never = msg;
        return unreachable;
      }
    }
  },
  view: (model) =>
    Ui.h(
      "main",
      {},
      Ui.h(
        "form",
        { onSubmit: "Add" },
        Ui.h("input", { name: "draft", value: model.draft, onInput: "Draft", onKeydown: { key: "Escape", msg: "Clear" } }),
      ),
      Ui.h("ul", {}, model.todos.map(row)),
      Ui.h("ul", {}, model.todos.map((t) => Ui.h("li", { onClick: ["Remove", t.id] }, t.text))),
      Ui.h("button", { onClick: "Clear", disabled: model.todos.length === 0 }, "Clear"),
    ),
});

export const misspelled = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, _msg, _args) => model,
  // @ts-expect-error "Ad" is not one of the app's messages
  view: () => Ui.h("main", {}, Ui.h("button", { onClick: "Ad" }, "Add")),
});

export const misspelledInAList = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, _msg, _args) => model,
  // @ts-expect-error "Remvoe" is not one of the app's messages, even inside a list built with map
  view: (model) => Ui.h("ul", {}, model.todos.map((t) => Ui.h("li", { onClick: ["Remvoe", t.id] }))),
});

export const listedWithEach = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, _msg, _args) => model,
  view: (model) => Ui.h("ul", {}, Ui.each(model.todos, (t) => t.id, (t) => Ui.h("li", { onClick: ["Remove", t.id] }, t.text))),
});

export const misspelledInEach = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, _msg, _args) => model,
  // @ts-expect-error "Remvoe" is not one of the app's messages, inside a Ui.each row either
  view: (model) => Ui.h("ul", {}, Ui.each(model.todos, (t) => t.id, (t) => Ui.h("li", { onClick: ["Remvoe", t.id] }))),
});

export const wrongArgument = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, _msg, _args) => model,
  // @ts-expect-error Remove takes a number, not a string
  view: (model) => Ui.h("ul", {}, model.todos.map((t) => Ui.h("li", { onClick: ["Remove", String(t.id)] }))),
});

export const missingArgument = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, _msg, _args) => model,
  // @ts-expect-error Remove needs its id
  view: () => Ui.h("button", { onClick: "Remove" }),
});

export const valueOnAClickMessage = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, _msg, _args) => model,
  // @ts-expect-error Clear takes no value, so an input cannot send it
  view: () => Ui.h("input", { onInput: "Clear" }),
});

export const missingBranch = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, msg, args) => {
    switch (msg) {
      case "Draft":
        return { ...model, draft: args[0] };
      case "Remove":
        return { ...model, todos: model.todos.filter((t) => t.id !== args[0]) };
      default: {
        // @ts-expect-error Add, Toggle and Clear have no branch: msg is not never here
        const unreachable: never = msg;
        return unreachable;
      }
    }
  },
  view: () => Ui.h("p", {}, "x"),
});

export const wrongArgsInUpdate = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  // @ts-expect-error Remove's argument is a number: comparing it with a string is a mistake TypeScript reports
  update: (model, msg, args) => (msg === "Remove" && args[0] === "7" ? model : model),
  view: () => Ui.h("p", {}, "x"),
});

// An untyped app still compiles: any message name, JSON arguments, msg a string.
export const untyped = Live.app<Model>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, msg, args) => (msg === "Anything" ? { ...model, draft: String(args.at(-1)) } : model),
  view: (model) =>
    Ui.h(
      "main",
      {},
      Ui.h("button", { onClick: ["Anything", 1, "two", { three: [3] }] }, "go"),
      Ui.h("input", { onInput: "Whatever", value: model.draft }),
    ),
});

// An untyped part (built outside any typed view) fits a typed view.
const footer = Ui.h("footer", {}, Ui.h("a", { href: "/help", onClick: "Help" }, "help"));
export const mixed = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, _msg, _args) => model,
  view: () => Ui.h("main", {}, Ui.h("button", { onClick: "Clear" }), footer),
});

// Ui.html: a message in a hole is checked against the app's messages.
export const template = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, _msg, _args) => model,
  view: (model) =>
    Ui.html`<ul class=${"todos"}>${
      model.todos.map((t) => Ui.html`<li svc-key=${t.id} onClick=${["Remove", t.id]} hover=${{ color: "red" }}>${t.text}</li>`)
    }</ul>`,
});

export const templateMisspelled = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, _msg, _args) => model,
  // @ts-expect-error "Remvoe" is not one of the app's messages
  view: (model) => Ui.html`<ul>${model.todos.map((t) => Ui.html`<li onClick=${["Remvoe", t.id]}>${t.text}</li>`)}</ul>`,
});

export const templateWrongArgument = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, _msg, _args) => model,
  // @ts-expect-error Remove takes a number, not a string
  view: (model) => Ui.html`<ul>${model.todos.map((t) => Ui.html`<li onClick=${["Remove", t.text]}>${t.text}</li>`)}</ul>`,
});

// Ui.typed: the builders with the map fixed check a helper written outside view, with no annotation
// on it; a checkbox's change carries a boolean.
const ui = Ui.typed<Messages>();
const typedRow = (t: Todo) =>
  ui.h(
    "li",
    {},
    ui.h("input", { type: "checkbox", checked: t.done, onChange: ["Toggle", t.id] }),
    ui.h("button", { onClick: ["Remove", t.id] }),
  );
// @ts-expect-error "Remvoe" is not one of the app's messages, in a helper outside view
export const typedRowMisspelled = (t: Todo) => ui.h("li", { onClick: ["Remvoe", t.id] });
// @ts-expect-error Remove takes a number, in a helper outside view
export const typedRowStringId = (t: Todo) => ui.h("li", { onClick: ["Remove", String(t.id)] });
// @ts-expect-error Toggle's last argument is the checkbox's state, which the client adds: a click cannot leave it out
export const typedClickWithoutState = (t: Todo) => ui.h("button", { onClick: ["Toggle", t.id] });
export const typedApp = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, msg, args) => {
    switch (msg) {
      case "Draft":
        return { ...model, draft: args[0] };
      case "Add":
        return model;
      case "Toggle":
        return { ...model, todos: model.todos.map((t) => (t.id === args[0] ? { ...t, done: args[1] } : t)) };
      case "Remove":
        return { ...model, todos: model.todos.filter((t) => t.id !== args[0]) };
      case "Clear":
        return { ...model, todos: [] };
      default:
        return Live.unhandled(msg);
    }
  },
  view: (model) => ui.h("ul", { onKeydown: { key: "Escape", msg: "Clear" } }, ui.each(model.todos, (t) => t.id, typedRow)),
});

// ui.msg: a checked message for a handler prop (TSX's way), in each handler's own form.
export const checkedMessages = [ui.msg("Remove", 1), ui.msg("Draft"), ui.msg("Toggle", 2), ui.msg("Add"), ui.msg("Clear")] as const;
const clear: "Clear" = ui.msg("Clear");
const remove: readonly ["Remove", 1] = ui.msg("Remove", 1);
export const forms = [clear, remove];
// @ts-expect-error "Remvoe" is not one of the app's messages
export const msgMisspelled = ui.msg("Remvoe", 1);
// @ts-expect-error Remove needs its id
export const msgWithoutId = ui.msg("Remove");

export const untypedUnhandled = Live.app<Model>({
  init: () => ({ draft: "", todos: [] }),
  update: (model, msg, _args) => (msg === "Known" ? model : Live.unhandled(msg)),
  view: () => Ui.h("p", {}, "x"),
});

// ui.msg in a template's hole and in Ui.h's handler props: the same checked forms.
export const templateRow = (t: Todo) =>
  ui.html`<li svc-key=${t.id}><input type="checkbox" onChange=${ui.msg("Toggle", t.id)}> <button onClick=${
    ui.msg("Remove", t.id)
  }>✕</button></li>`;
export const builtRow = (t: Todo) => ui.h("li", { onClick: ui.msg("Remove", t.id) }, ui.h("input", { onInput: ui.msg("Draft") }));

// update as one handler per message: each handler is typed by its message's arguments (it may
// take fewer), every message of the map needs one, and no other name is accepted.
const view = (model: Model) => Ui.h("p", {}, model.draft);
export const byMessage = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: {
    Draft: (model, value) => ({ ...model, draft: value.trimStart() }),
    Add: (model, fields) => ({ ...model, draft: fields["draft"] ?? "" }),
    Toggle: (model, id, checked) => ({ ...model, todos: model.todos.map((t) => (t.id === id ? { ...t, done: checked } : t)) }),
    Remove: (model) => [model, Live.endSession()],
    Clear: (model) => ({ ...model, todos: [] }),
  },
  view,
});
export const untypedByMessage = Live.app<number>({
  init: () => 0,
  update: { Inc: (n) => n + 1, Add: (n, amount) => n + (typeof amount === "number" ? amount : 0) },
  view: (n) => Ui.h("p", {}, String(n)),
});
export const byMessageMissing = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  // @ts-expect-error Remove and Clear have no handler
  update: {
    Draft: (model, value) => ({ ...model, draft: value }),
    Add: (model) => model,
    Toggle: (model) => model,
  },
  view,
});
export const byMessageExtra = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: {
    Draft: (model, value) => ({ ...model, draft: value }),
    Add: (model) => model,
    Toggle: (model) => model,
    Remove: (model) => model,
    Clear: (model) => model,
    // @ts-expect-error a name the map does not have
    Remvoe: (model: Model) => model,
  },
  view,
});
export const byMessageWrongArgs = Live.app<Model, Messages>({
  init: () => ({ draft: "", todos: [] }),
  update: {
    Draft: (model, value) => ({ ...model, draft: value }),
    Add: (model) => model,
    Toggle: (model) => model,
    // @ts-expect-error Remove's id is a number
    Remove: (model, id: string) => ({ ...model, draft: id }),
    Clear: (model) => model,
  },
  view,
});
