/**
 * A demo-style live app for the client's integration tests (happy-dom, in process) and the
 * real-browser tests (tests/e2e): a normalised input, an auto-submitting search whose results sit
 * beside raw HTML (so every keystroke re-renders the box around the input with an `html` patch), a
 * chat input whose Enter handler sends and clears it, a textarea, a form whose submit clears its
 * field on the server, a form replaced after each submit
 * (its fields come back empty), a reset, a link with a navigation message and a session end.
 *
 * The app records every message it receives, in order, so tests can check what the server saw.
 */
import { Ui } from "../../src/ui/mod.ts";
import type { Attrs, Child, UiElement } from "../../src/ui/mod.ts";
import { render } from "../../src/live/render.ts";
import { app, endSession, type LiveAppOptions } from "../../src/live/server/mod.ts";
import type { JsonValue } from "../../src/json.ts";

export type DemoModel = {
  title: string;
  search: string;
  results: string[];
  body: string;
  saved: string[];
  notes: string[];
  nextNote: number;
  count: number;
  chat: string;
  sent: string[];
};

export const WORDS = [
  "apple",
  "apricot",
  "banana",
  "blueberry",
  "cherry",
  "clementine",
  "date",
  "elderberry",
  "fig",
  "grape",
  "guava",
  "kiwi",
  "lemon",
  "lime",
  "mango",
  "melon",
  "nectarine",
  "orange",
  "papaya",
  "peach",
  "pear",
  "plum",
  "quince",
  "raspberry",
  "strawberry",
  "tangerine",
  "watermelon",
];

export const initialDemo: DemoModel = {
  title: "",
  search: "",
  results: [],
  body: "",
  saved: [],
  notes: [],
  nextNote: 1,
  count: 0,
  chat: "",
  sent: [],
};

/** Every message the app received: [msg, args]. */
export type Received = [string, readonly JsonValue[]][];

const HANDLERS = { onClick: "click", onInput: "input", onChange: "change", onSubmit: "submit", onKeydown: "keydown" } as const;

/**
 * The renderer writes `data-svc-<kind>` with each handler's message; until it does, the demo writes
 * them itself (the client reads only those attributes).
 */
const RENDERER_WRITES_MESSAGES = render(Ui.h("b", { onClick: "X" })).includes("data-svc-click");

export function h(tag: string, attrs: Attrs, ...children: Child[]): UiElement {
  if (RENDERER_WRITES_MESSAGES) return Ui.h(tag, attrs, ...children);
  const extra: Record<string, string> = {};
  for (const [prop, kind] of Object.entries(HANDLERS)) {
    const value = (attrs as Record<string, unknown>)[prop];
    if (value === undefined) continue;
    const message = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { msg: unknown }).msg : value;
    extra[`data-svc-${kind}`] = typeof message === "string" ? message : JSON.stringify(message);
  }
  return Ui.h(tag, { ...attrs, ...extra } as Attrs, ...children);
}

function update(model: DemoModel, msg: string, args: readonly JsonValue[]) {
  switch (msg) {
    case "SetTitle":
      return { ...model, title: String(args[0] ?? "").toUpperCase() };
    case "SetSearch": {
      const q = String(args[0] ?? "");
      return { ...model, search: q, results: q === "" ? [] : WORDS.filter((w) => w.includes(q.toLowerCase())) };
    }
    case "SetBody":
      return { ...model, body: String(args[0] ?? "") };
    case "SaveTitle":
      // The server-side clear after submit.
      return { ...model, saved: [...model.saved, model.title], title: "" };
    case "AddNote": {
      const fields = (args[1] ?? {}) as Record<string, string>;
      return { ...model, notes: [...model.notes, fields["note"] ?? ""], nextNote: model.nextNote + 1 };
    }
    case "Reset":
      return { ...model, title: "", search: "", results: [], body: "" };
    case "Inc":
      return { ...model, count: model.count + 1 };
    case "SetChat":
      return { ...model, chat: String(args[0] ?? "") };
    case "Send":
      return { ...model, sent: [...model.sent, model.chat], chat: "" };
    case "Navigate":
      return model;
    case "End":
      return [model, endSession()] as const;
    default:
      return model;
  }
}

function view(model: DemoModel): UiElement {
  return h(
    "main",
    {},
    h("h1", {}, "svc demo"),
    h("p", { id: "count" }, `count ${model.count}`),
    h(
      "form",
      { id: "title-form", onSubmit: "SaveTitle" },
      h("input", { id: "title", name: "title", value: model.title, onInput: "SetTitle", autocomplete: "off" }),
      h("button", { type: "submit" }, "save"),
    ),
    h("ul", { id: "saved" }, ...model.saved.map((s, i) => Ui.keyed(i, h("li", {}, s)))),
    h(
      "div",
      { id: "search-box" },
      h("input", { id: "search", name: "q", value: model.search, onInput: "SetSearch", autocomplete: "off" }),
      Ui.raw(`<small class="hits">${model.results.length} hits</small>`),
      h("ul", { id: "results" }, ...model.results.map((w) => Ui.keyed(w, h("li", {}, w)))),
    ),
    h("input", {
      id: "chat",
      name: "chat",
      value: model.chat,
      onInput: "SetChat",
      onKeydown: { key: "Enter", msg: "Send" },
      autocomplete: "off",
    }),
    h("ul", { id: "sent" }, ...model.sent.map((m, i) => Ui.keyed(i, h("li", {}, m)))),
    h("textarea", { id: "body", name: "body", value: model.body, onInput: "SetBody" }),
    h(
      "form",
      { id: "note-form", onSubmit: ["AddNote", model.nextNote] },
      h("input", { id: "note", name: "note", autocomplete: "off" }),
      h("button", { type: "submit" }, "add"),
    ),
    h("ul", { id: "notes" }, ...model.notes.map((n, i) => Ui.keyed(i, h("li", {}, n)))),
    h("button", { id: "inc", onClick: "Inc" }, "+"),
    h("button", { id: "reset", onClick: "Reset" }, "reset"),
    h("button", { id: "end", onClick: "End" }, "end session"),
    h("a", { id: "next", href: "/next", onClick: "Navigate" }, "next page"),
  );
}

/** The demo app; `received` collects every message, `models` the latest model of each session. */
export function demoApp(options: LiveAppOptions = {}) {
  const received: Received = [];
  let latest: DemoModel = initialDemo;
  const live = app<DemoModel>(
    {
      init: () => initialDemo,
      update: (model, msg, args) => {
        received.push([msg, args]);
        const next = update(model, msg, args);
        latest = Array.isArray(next) ? (next[0] as DemoModel) : (next as DemoModel);
        return next;
      },
      view,
    },
    { title: "svc demo", ...options },
  );
  return { live, received, model: () => latest };
}
