/**
 * A desktop app: a scratchpad of notes, run in a window of its own with `svc-live desktop
 * examples/desktop/app.ts` or `npm run desktop` (main.ts). The app is an ordinary live app built
 * with `{ session: "token" }`: its session is named by a token the window holds in memory, so no
 * cookie is involved (docs/desktop.md). tests/e2e/desktop.test.ts runs it in Chromium.
 */
import { Live, Ui } from "svc-live";

export type Notes = { draft: string; notes: { id: number; text: string }[]; next: number };

const h = Ui.h;

function view(model: Notes) {
  return h(
    "main",
    {},
    h("h1", {}, "Notes"),
    h(
      "form",
      { onSubmit: "Add" },
      h("input", { name: "draft", value: model.draft, onInput: "Draft", placeholder: "a note", autocomplete: "off" }),
      h("button", { type: "submit" }, "Add"),
    ),
    h("p", { id: "count" }, model.notes.length === 1 ? "1 note" : `${model.notes.length} notes`),
    h(
      "ul",
      {},
      ...model.notes.map((note) =>
        Ui.keyed(String(note.id), h("li", {}, note.text, " ", h("button", { onClick: ["Remove", note.id] }, "✕")))
      ),
    ),
    h("button", { id: "quit", onClick: "Quit" }, "Quit"),
  );
}

function update(model: Notes, msg: string, args: readonly unknown[]) {
  switch (msg) {
    case "Draft":
      return { ...model, draft: String(args[0] ?? "") };
    case "Add": {
      const text = model.draft.trim();
      return text === "" ? model : { draft: "", notes: [...model.notes, { id: model.next, text }], next: model.next + 1 };
    }
    case "Remove":
      return { ...model, notes: model.notes.filter((note) => note.id !== args[0]) };
    case "Quit":
      // Ends the session: the window closes its stream, and the desktop app ends with it.
      return [model, Live.endSession()] as const;
    default:
      return model;
  }
}

/** The app, exported as default for `svc-live desktop`. */
const app = Live.app<Notes>({ init: () => ({ draft: "", notes: [], next: 1 }), update, view }, { session: "token", title: "Notes" });
export default app;
