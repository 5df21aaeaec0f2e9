/**
 * The small form of bench/http.bench.ts: a counter with a "+" button and a name input, the page an
 * event's fixed cost is measured on (one text patch per click, so that what is measured is the
 * route's work, not the render's). Its event bodies are built as the browser client builds them.
 */
import type { JsonValue } from "../src/json.ts";
import { app as liveApp } from "../src/live/server/mod.ts";
import type { LiveApp } from "../src/live/server/app/app.ts";
import { textOf } from "../src/live/tree.ts";
import { Ui } from "../src/ui/mod.ts";
import { cookiesOf, type SessionCreds } from "./live-app.ts";
import { idsOf } from "./page-ids.ts";

export type SmallModel = { readonly count: number; readonly name: string };

const initial: SmallModel = { count: 0, name: "" };

function update(model: SmallModel, msg: string, args: readonly JsonValue[]): SmallModel {
  if (msg === "Inc") return { ...model, count: model.count + 1 };
  if (msg === "SetName") return { ...model, name: String(args[0] ?? "") };
  return model;
}

function view(model: SmallModel) {
  return Ui.h(
    "form",
    {},
    Ui.h("p", {}, `${model.count} clicks`),
    Ui.h("input", { name: "name", value: model.name, onInput: "SetName" }),
    Ui.h("button", { type: "button", onClick: "Inc" }, "+"),
  );
}

export function smallFormApp(): LiveApp<SmallModel> {
  return liveApp<SmallModel>({ init: () => initial, update, view });
}

/** Opens a session of the small form over HTTP, as a fresh browser would: its cookie, CSRF token, handle and ids. */
export async function openSmallSession(origin: string): Promise<SessionCreds> {
  const page = await fetch(`${origin}/`);
  const html = await page.text();
  const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1] ?? "";
  const incId = idsOf(view(initial), (el) => el.tag === "button" && textOf(el) === "+")[0];
  const nameId = idsOf(view(initial), (el) => el.tag === "input")[0];
  if (!incId || !nameId) throw new Error("the small form lacks its button or its input");
  return { cookie: cookiesOf(page), csrf: meta("svc-csrf"), handle: meta("svc-session"), incId, nameId };
}
