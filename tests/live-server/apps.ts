// Small live apps the server tests drive.
import { Ui } from "../../src/ui/mod.ts";
import { app, every, type LiveAppOptions, rotateSession, task } from "../../src/live/server/mod.ts";
import type { JsonValue } from "../../src/json.ts";
import { idsIn, textsIn } from "../support/dom.ts";

export type FormModel = {
  count: number;
  title: string;
  showTitle: boolean;
  ticking: boolean;
  fetched: string;
  boom: boolean;
  page: "form" | "done";
};

export const initialForm: FormModel = { count: 0, title: "", showTitle: true, ticking: false, fetched: "", boom: false, page: "form" };

export function formUpdate(model: FormModel, msg: string, args: readonly JsonValue[]) {
  switch (msg) {
    case "Inc":
      return { ...model, count: model.count + 1 };
    case "SetTitle":
      // The server normalises: trims and upper-cases (docs/protocol.md#client-rules 5).
      return { ...model, title: String(args[0] ?? "").trim().toUpperCase() };
    case "ToggleTitle":
      return { ...model, showTitle: !model.showTitle };
    case "StartTicks":
      return { ...model, ticking: true };
    case "StopTicks":
      return { ...model, ticking: false };
    case "Tick":
      return { ...model, count: model.count + 1 };
    case "Fetch":
      return [model, task(async () => "loaded", (outcome) => ["Fetched", outcome.ok ? outcome.value : "failed"])] as const;
    case "Fetched":
      return { ...model, fetched: String(args[0]) };
    case "Boom":
      throw new Error("update exploded");
    case "SignIn":
      return [{ ...model, count: model.count + 100 }, rotateSession] as const;
    case "Finish":
      return { ...model, page: "done" as const };
    default:
      return model;
  }
}

export function formView(model: FormModel) {
  if (model.page === "done") return Ui.h("section", {}, Ui.h("p", {}, "done"));
  return Ui.h(
    "main",
    {},
    Ui.h("p", { id: "count" }, `count ${model.count}`),
    model.showTitle ? Ui.h("input", { name: "title", value: model.title, onInput: "SetTitle" }) : null,
    Ui.h("button", { onClick: "Inc" }, "+"),
    Ui.h("button", { onClick: "ToggleTitle" }, "toggle"),
    Ui.h("button", { onClick: model.ticking ? "StopTicks" : "StartTicks" }, "ticks"),
    Ui.h("button", { onClick: "Fetch" }, "fetch"),
    Ui.h("button", { onClick: "Boom" }, "boom"),
    Ui.h("button", { onClick: "SignIn" }, "sign in"),
    Ui.h("button", { onClick: "Finish" }, "finish"),
    Ui.h("output", {}, model.fetched),
  );
}

export function formApp(options: LiveAppOptions = {}) {
  return app<FormModel>(
    {
      init: () => initialForm,
      update: formUpdate,
      view: formView,
      subscriptions: (model) => (model.ticking ? [every(20, "Tick")] : []),
    },
    options,
  );
}

/** The handler id of the first button whose text matches `label` (a regular expression) in a rendered page or fragment. */
export function buttonId(html: string, label: string): string {
  const texts = textsIn(html, "button");
  const id = idsIn(html, "button").find((_, i) => new RegExp(`^${label}$`).test(texts[i]!));
  if (id === undefined) throw new Error(`no button ${label}`);
  return id;
}

/** Form apps made for one test file, all closed when the file's tests end. */
export function formAppPool(after: (fn: () => void) => void): (...args: Parameters<typeof formApp>) => ReturnType<typeof formApp> {
  const made: ReturnType<typeof formApp>[] = [];
  after(() => made.forEach((a) => a.close()));
  return (...args) => {
    const created = formApp(...args);
    made.push(created);
    return created;
  };
}
