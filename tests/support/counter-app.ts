/**
 * The live app the multi-replica tests run on every replica: a counter, a text field, a tick
 * subscription that is on only when asked for, sign-in (binds a user, which rotates the id) and
 * sign-out (ends the session). Its model is plain JSON, as a shared store needs.
 */
import type { Db } from "../../src/db/mod.ts";
import type { SharedBusOption } from "../../src/live/store/shared-bus.ts";
import type { JsonValue } from "../../src/json.ts";
import { app, bindSessionUser, endSession, every, type LiveAppOptions } from "../../src/live/server/mod.ts";
import { Ui } from "../../src/ui/mod.ts";

export type CounterModel = { count: number; text: string; ticks: number; ticking: boolean; log: string[] };

export const initialCounter: CounterModel = { count: 0, text: "", ticks: 0, ticking: false, log: [] };

export function counterUpdate(model: CounterModel, msg: string, args: readonly JsonValue[]) {
  switch (msg) {
    case "Inc":
      return { ...model, count: model.count + 1 };
    case "Type":
      return { ...model, text: String(args[0] ?? "") };
    case "Note":
      // Every note is kept in order, so a lost or repeated event shows in the final model.
      return { ...model, log: [...model.log, String(args[0] ?? "")] };
    case "StartTicks":
      return { ...model, ticking: true };
    case "Tick":
      return { ...model, ticks: model.ticks + 1 };
    case "SignIn":
      return [model, bindSessionUser(String(args[0] ?? ""))] as const;
    case "SignOut":
      return [model, endSession()] as const;
    default:
      return model;
  }
}

export function counterView(model: CounterModel) {
  return Ui.h(
    "main",
    {},
    Ui.h("p", { id: "count" }, `count ${model.count}`),
    Ui.h("p", { id: "ticks" }, `ticks ${model.ticks}`),
    Ui.h("input", { name: "text", value: model.text, onInput: "Type" }),
    Ui.h("button", { onClick: "Inc" }, "+"),
    Ui.h("button", { onClick: "Note" }, "note"),
    Ui.h("button", { onClick: "StartTicks" }, "ticks"),
    Ui.h("button", { onClick: "SignIn" }, "sign in"),
    Ui.h("button", { onClick: "SignOut" }, "sign out"),
    Ui.h("ol", {}, ...model.log.map((line) => Ui.h("li", {}, line))),
  );
}

/** `db`: shared sessions on it (Postgres), with `bus` between the replicas; `gate`: the revocation gate on it. */
export function counterApp(options: LiveAppOptions & { readonly db?: Db; readonly gate?: Db; readonly bus?: SharedBusOption } = {}) {
  const live = app<CounterModel>(
    {
      init: () => initialCounter,
      update: counterUpdate,
      view: counterView,
      subscriptions: (model) => (model.ticking ? [every(200, "Tick")] : []),
    },
    { messages: ["Inc", "Note", "Type", "SignIn", "SignOut", "StartTicks"], ...options },
  );
  if (options.db !== undefined) live.withSharedSessions(options.db, options.bus === undefined ? {} : { bus: options.bus });
  return options.gate === undefined ? live : live.withRevocation(options.gate);
}
