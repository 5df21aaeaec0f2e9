/**
 * A live app whose node ids shift under the user, for the tests of live input authority on a moving
 * page (server, in-process client and real browser): above the inputs sit a log that grows at its
 * top (from the user's Add button and from server ticks) and rows that are added, reordered and
 * removed. Log entries, rows and the inputs' wrappers are unkeyed siblings, so every change above an
 * input renames its wrapper (`{keep: "r.4#div", id: "r.5#div"}`), and one patch renames them all
 * as a chain.
 *
 * Inputs: a plain text input (unnamed), an upper-casing one (the server normalises), a textarea, a
 * checkbox, a select whose first option has the empty value, a radio group and a chat input whose
 * Enter sends. The app records every message it receives, in order. With `lazy`, the same page
 * is written with `Ui.lazy` parts (src/live/render-state/lazy-part.ts), which the session keeps as their calls and
 * builds again when an event reads them.
 */
import { Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/mod.ts";
import { app, every, type LiveAppOptions } from "../../src/live/server/mod.ts";
import type { JsonValue } from "../../src/json.ts";

export type ShiftModel = {
  /** Newest first; rendered above everything else. */
  log: string[];
  /** Row numbers, in display order; rendered between the log and the inputs. */
  rows: number[];
  nextRow: number;
  ticks: number;
  ticking: boolean;
  text: string;
  upper: string;
  area: string;
  chat: string;
  sent: string[];
  done: boolean;
  size: string;
  color: string;
};

export const initialShift: ShiftModel = {
  log: [],
  rows: [1, 2, 3],
  nextRow: 4,
  ticks: 0,
  ticking: false,
  text: "",
  upper: "",
  area: "",
  chat: "",
  sent: [],
  done: false,
  size: "",
  color: "",
};

export const COLORS = ["red", "green", "blue"] as const;
const MAX_LOG = 40;
const MAX_ROWS = 6;

const logged = (model: ShiftModel, line: string): string[] => [line, ...model.log].slice(0, MAX_LOG);

/**
 * One server tick: in turn, a log line at the top, a row at the top, the rows reversed, the last
 * row removed (each moves the inputs' ids one way or the other).
 */
function tick(model: ShiftModel): ShiftModel {
  const ticks = model.ticks + 1;
  switch (ticks % 4) {
    case 0:
      return { ...model, ticks, log: logged(model, `tick ${ticks}`) };
    case 1:
      return model.rows.length >= MAX_ROWS
        ? { ...model, ticks, rows: model.rows.slice(1) }
        : { ...model, ticks, rows: [model.nextRow, ...model.rows], nextRow: model.nextRow + 1 };
    case 2:
      return { ...model, ticks, rows: [...model.rows].reverse() };
    default:
      return { ...model, ticks, rows: model.rows.slice(0, -1), log: logged(model, `tick ${ticks}`) };
  }
}

export function shiftUpdate(model: ShiftModel, msg: string, args: readonly JsonValue[]): ShiftModel {
  switch (msg) {
    case "Add":
      return { ...model, log: logged(model, `entry ${model.log.length + 1}`) };
    case "Tick":
      return tick(model);
    case "StartTicks":
      return { ...model, ticking: true };
    case "StopTicks":
      return { ...model, ticking: false };
    case "Remove":
      return { ...model, rows: model.rows.filter((r) => r !== args[0]) };
    case "Shuffle":
      return { ...model, rows: [...model.rows.slice(1), ...model.rows.slice(0, 1)] };
    case "SetText":
      return { ...model, text: String(args[0] ?? "") };
    case "SetUpper":
      return { ...model, upper: String(args[0] ?? "").toUpperCase() };
    case "SetArea":
      return { ...model, area: String(args[0] ?? "") };
    case "SetChat":
      return { ...model, chat: String(args[0] ?? "") };
    case "Send":
      return { ...model, sent: [...model.sent, model.chat], chat: "", log: logged(model, `sent ${model.chat}`) };
    case "SetDone":
      return { ...model, done: args[args.length - 1] === true };
    case "SetSize":
      return { ...model, size: String(args[0] ?? "") };
    case "SetColor":
      return args[args.length - 1] === true ? { ...model, color: String(args[0]) } : model;
    default:
      return model;
  }
}

const h = Ui.h;

/** How the view makes a part of the page: at once, or as a `Ui.lazy` part (`shiftingApp({ lazy: true })`). */
type Part = <A extends unknown[]>(fn: (...args: A) => UiElement, ...args: A) => UiElement;
const atOnce: Part = (fn, ...args) => fn(...args);

const logLine = (line: string) => h("p", { class: "log" }, line);
const rowOf = (r: number) =>
  h(
    "div",
    { class: "row", "data-row": String(r) },
    h("span", {}, `row ${r}`),
    h("button", { class: "remove", onClick: ["Remove", r] }, "remove"),
  );
const textField = (text: string) => h("div", {}, h("input", { id: "text", value: text, onInput: "SetText", autocomplete: "off" }));
const upperField = (upper: string) =>
  h("div", {}, h("input", { id: "upper", name: "upper", value: upper, onInput: "SetUpper", autocomplete: "off" }));
const areaField = (area: string) => h("div", {}, h("textarea", { id: "area", name: "area", value: area, onInput: "SetArea" }));
const chatField = (chat: string) =>
  h(
    "div",
    {},
    h("input", {
      id: "chat",
      name: "chat",
      value: chat,
      onInput: "SetChat",
      onKeydown: { key: "Enter", msg: "Send" },
      autocomplete: "off",
    }),
  );
const choices = (done: boolean, size: string, color: string) =>
  h(
    "div",
    {},
    h("input", { id: "done", type: "checkbox", checked: done, onChange: "SetDone" }),
    h(
      "select",
      { id: "size", name: "size", onChange: "SetSize" },
      ...[["", "choose"], ["s", "small"], ["m", "medium"], ["l", "large"]].map(([v, label]) =>
        h("option", { value: v, selected: size === v }, label!)
      ),
    ),
    ...COLORS.map((c) =>
      h("input", { id: `color-${c}`, type: "radio", name: "color", value: c, checked: color === c, onChange: ["SetColor", c] })
    ),
  );

function shiftViewWith(part: Part) {
  return (model: ShiftModel): UiElement =>
    h(
      "main",
      {},
      ...model.log.map((line) => part(logLine, line)),
      ...model.rows.map((r) => part(rowOf, r)),
      part(textField, model.text),
      part(upperField, model.upper),
      part(areaField, model.area),
      part(chatField, model.chat),
      part(choices, model.done, model.size, model.color),
      h(
        "div",
        {},
        h("button", { id: "add", onClick: "Add" }, "add"),
        h("button", { id: "shuffle", onClick: "Shuffle" }, "shuffle"),
        h("button", { id: "ticks", onClick: model.ticking ? "StopTicks" : "StartTicks" }, model.ticking ? "stop" : "start"),
        // Fixed in the viewport: the list above grows and shrinks at every tick, and a link that
        // moved under the pointer between the click's hit test and its mouse events missed the
        // click (a 30 s wait for a navigation that never came, seen once).
        h("a", { id: "next", href: "/next", onClick: "Navigate", style: "position: fixed; top: 0; right: 0" }, "next"),
      ),
    );
}

export const shiftView = shiftViewWith(atOnce);
/** The same page with its log lines, rows, fields and choices as `Ui.lazy` parts, which a session keeps as their calls. */
export const shiftLazyView = shiftViewWith(Ui.lazy);

export type Received = [string, readonly JsonValue[]][];

/** The app; `received` holds every message in order, `model()` the latest model. */
export function shiftingApp(options: LiveAppOptions & { tickMs?: number; lazy?: boolean } = {}) {
  const received: Received = [];
  let latest = initialShift;
  const { tickMs = 120, lazy = false, ...appOptions } = options;
  const live = app<ShiftModel>(
    {
      init: () => initialShift,
      update: (model, msg, args) => {
        received.push([msg, args]);
        latest = shiftUpdate(model, msg, args);
        return latest;
      },
      view: lazy ? shiftLazyView : shiftView,
      subscriptions: (model) => (model.ticking ? [every(tickMs, "Tick")] : []),
    },
    { title: "shifting", messages: ["Tick"], ...appOptions },
  );
  return { live, received, model: () => latest };
}
