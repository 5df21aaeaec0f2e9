/**
 * The workload of bench/live.bench.ts: a form app of about 100 elements (six labelled inputs, a
 * counter, a ten-row order table, a twenty-item list, buttons) and the bare Hono route it is held
 * against, plus a small client that opens sessions and builds event bodies the way the browser
 * client does (cookie, CSRF header, seq, handlerId, inputState for input events).
 *
 * Each event changes one thing: "Inc" bumps the counter (one text patch), "SetName" stores the
 * typed name (the input's value equals the client's, so the authority map suppresses the value
 * patch; the greeting line's text changes).
 */
import { Hono } from "hono";
import type { JsonValue } from "../src/json.ts";
import { app as liveApp, type LiveAppOptions } from "../src/live/server/mod.ts";
import type { LiveApp } from "../src/live/server/app/app.ts";
import { type LiveElement, type LiveTree, textOf } from "../src/live/tree.ts";
import { idsOf } from "./page-ids.ts";
import { eventHold } from "../src/live/server/http/turn-batch.ts";
import { Ui } from "../src/ui/mod.ts";
import type { UiElement } from "../src/ui/node.ts";
import { type BenchRow, medianPair, percentile } from "./report.ts";

export type FormModel = { count: number; name: string; email: string; city: string; zip: string; phone: string; note: string };

const FIELDS = ["name", "email", "city", "zip", "phone", "note"] as const;
const ROWS = Array.from({ length: 10 }, (_, i) => ({ sku: `SKU-${100 + i}`, qty: (i * 3) % 7 }));
const ITEMS = Array.from({ length: 20 }, (_, i) => `Step ${i + 1}: check the order line`);

export function update(model: FormModel, msg: string, args: readonly JsonValue[]): FormModel {
  switch (msg) {
    case "Inc":
      return { ...model, count: model.count + 1 };
    case "Dec":
      return { ...model, count: model.count - 1 };
    case "SetName":
      return { ...model, name: String(args[0] ?? "") };
    case "SetField": {
      const field = String(args[0]) as keyof FormModel;
      return FIELDS.includes(field as (typeof FIELDS)[number]) ? { ...model, [field]: String(args[1] ?? "") } : model;
    }
    default:
      return model;
  }
}

type Field = (typeof FIELDS)[number];

/** The parts of the page that do not depend on the model. */
type StaticParts = {
  heading(): UiElement;
  label(name: Field): UiElement;
  hint(name: Field): UiElement;
  save(): UiElement;
  table(): UiElement;
  steps(): UiElement;
  nav(): UiElement;
  footer(): UiElement;
};

/** Static parts built afresh on every call: what a view that builds the whole page each render does. */
const BUILT_EACH_RENDER: StaticParts = {
  heading: () => Ui.h("h1", {}, "Order form"),
  label: (name) => Ui.h("label", { for: name }, name),
  hint: (name) => Ui.h("span", { class: "hint" }, `${name} is required`),
  save: () => Ui.h("button", { type: "submit" }, "save"),
  table: () =>
    Ui.h(
      "table",
      {},
      Ui.h("thead", {}, Ui.h("tr", {}, Ui.h("th", {}, "sku"), Ui.h("th", {}, "qty"))),
      Ui.h("tbody", {}, ...ROWS.map((row) => Ui.h("tr", {}, Ui.h("td", {}, row.sku), Ui.h("td", {}, String(row.qty))))),
    ),
  steps: () => Ui.h("ul", { class: "steps" }, ...ITEMS.map((item) => Ui.h("li", {}, item))),
  nav: () => Ui.h("nav", {}, Ui.h("button", { onClick: "Inc" }, "+"), Ui.h("button", { onClick: "Dec" }, "-")),
  footer: () => Ui.h("footer", {}, Ui.h("p", {}, "svc bench form")),
};

/** The same parts built once and handed back on every call, as an app would keep static markup. */
function builtOnce(parts: StaticParts): StaticParts {
  const byField = (make: (name: Field) => UiElement) => {
    const built = new Map(FIELDS.map((name) => [name, make(name)]));
    return (name: Field) => built.get(name)!;
  };
  const once = (make: () => UiElement) => {
    const built = make();
    return () => built;
  };
  return {
    heading: once(parts.heading),
    label: byField(parts.label),
    hint: byField(parts.hint),
    save: once(parts.save),
    table: once(parts.table),
    steps: once(parts.steps),
    nav: once(parts.nav),
    footer: once(parts.footer),
  };
}

const BUILT_ONCE = builtOnce(BUILT_EACH_RENDER);

/** One labelled input. */
function field(parts: StaticParts, name: Field, value: string): UiElement {
  return Ui.h(
    "div",
    { class: "field" },
    parts.label(name),
    Ui.h("input", { id: name, name, value, onInput: name === "name" ? "SetName" : ["SetField", name] }),
    parts.hint(name),
  );
}

/** The page; with `lazyFields`, each field is a Ui.lazy part of its name and value. */
function page(model: FormModel, parts: StaticParts, lazyFields = false) {
  const fieldOf = (name: Field) => (lazyFields ? Ui.lazy(field, parts, name, model[name]) : field(parts, name, model[name]));
  return Ui.h(
    "main",
    { class: "app" },
    Ui.h(
      "header",
      {},
      parts.heading(),
      Ui.h("p", { id: "count" }, `count ${model.count}`),
      Ui.h("p", { class: "greeting" }, `Hello, ${model.name || "stranger"}`),
    ),
    Ui.h("form", { onSubmit: "Save" }, ...FIELDS.map(fieldOf), parts.save()),
    parts.table(),
    parts.steps(),
    parts.nav(),
    parts.footer(),
  );
}

/**
 * The form, every element built with `Ui.h` on every render, as an app written without a thought
 * for speed has it (in a session, the calls that did not change hand back their previous elements,
 * src/live/render-state/element-log.ts).
 */
export function view(model: FormModel) {
  return page(model, BUILT_EACH_RENDER);
}

/**
 * The same page with its static parts built once, outside `view`, as an app would write them: the
 * heading, labels and hints, the table, the list, the buttons and the footer. The view hands the
 * same element objects back on every render, so their ids and their diff are not worked out again
 * (src/live/ids.ts). Same markup, same 93 elements.
 */
export function viewStaticBuiltOnce(model: FormModel) {
  return page(model, BUILT_ONCE);
}

/**
 * The page as an app tuned by docs/live-apps.md's advice writes it: static parts built once, and each
 * field a `Ui.lazy` part of its name and value, built again only when its value changes. Same
 * markup, same 93 elements.
 */
export function viewTuned(model: FormModel) {
  return page(model, BUILT_ONCE, true);
}

/** One labelled input, as a template. */
function templateField(name: Field, value: string): UiElement {
  return Ui.html`
    <div class="field">
      <label for=${name}>${name}</label>
      <input id=${name} name=${name} value=${value} onInput=${name === "name" ? "SetName" : ["SetField", name]}>
      <span class="hint">${name} is required</span>
    </div>`;
}

/**
 * The page written as `Ui.html` templates, the whole page built by `view` on every render, with no
 * hand-made static parts and no `Ui.lazy`: the templates know their static markup, and each call
 * whose values did not change hands back its previous element (src/ui/template.ts). Same markup,
 * same 93 elements.
 */
export function viewTemplate(model: FormModel): UiElement {
  return Ui.html`
    <main class="app">
      <header>
        <h1>Order form</h1>
        <p id="count">count ${model.count}</p>
        <p class="greeting">Hello, ${model.name || "stranger"}</p>
      </header>
      <form onSubmit="Save">
        ${FIELDS.map((name) => templateField(name, model[name]))}
        <button type="submit">save</button>
      </form>
      <table>
        <thead><tr><th>sku</th><th>qty</th></tr></thead>
        <tbody>${ROWS.map((row) => Ui.html`<tr><td>${row.sku}</td><td>${row.qty}</td></tr>`)}</tbody>
      </table>
      <ul class="steps">${ITEMS.map((item) => Ui.html`<li>${item}</li>`)}</ul>
      <nav><button onClick="Inc">+</button><button onClick="Dec">-</button></nav>
      <footer><p>svc bench form</p></footer>
    </main>`;
}

export const initialModel: FormModel = { count: 0, name: "", email: "", city: "", zip: "", phone: "", note: "" };

/** How the form's view is written: every element each render, static parts built once, tuned (`viewTuned`), or as templates (`viewTemplate`). */
export type FormVariant = "plain" | "static" | "tuned" | "template";

const VIEWS: Readonly<Record<FormVariant, (model: FormModel) => UiElement>> = {
  plain: view,
  static: viewStaticBuiltOnce,
  tuned: viewTuned,
  template: viewTemplate,
};

/** The form app, its view written the `variant` way (the same page each way). */
export function formApp(options: LiveAppOptions = {}, variant: FormVariant = "plain"): LiveApp<FormModel> {
  return liveApp<FormModel>({ init: () => initialModel, update, view: VIEWS[variant] }, options);
}

/** Number of elements in the rendered tree (the "100-node" of the issue). */
export function elementCount(tree: LiveTree): number {
  let count = 0;
  const stack: LiveElement[] = [tree.root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    count += 1;
    for (const kid of el.kids) if (kid.kind === "el") stack.push(kid);
  }
  return count;
}

/**
 * The peer: a bare Hono route that parses the same JSON body and answers with a JSON reply. With
 * `batched`, the route batches events by event-loop turn as the live server does
 * (src/live/server/http/turn-batch.ts): a reference, to tell what that batching is worth on its own.
 */
export function bareApp(batched = false): Hono {
  const bare = new Hono();
  let seq = 0;
  bare.post("/_svc/event", async (c) => {
    const hold = batched ? eventHold() : undefined;
    if (hold !== undefined) await hold;
    const body = (await c.req.json()) as { seq?: number };
    seq += 1;
    return c.json({ seq, respondingTo: body.seq, patches: [] });
  });
  return bare;
}

/** One browser tab's credentials: what a page load hands the client. */
export type SessionCreds = { cookie: string; csrf: string; handle: string; incId: string; nameId: string };

/** The cookie pairs of a response's Set-Cookie headers, as a Cookie request header. */
export function cookiesOf(resp: Response): string {
  return resp.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .join("; ");
}

/** Reads the page's meta values and the ids of the "+" button and the name input. */
export function credsFromPage(html: string, cookie: string): SessionCreds {
  const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1] ?? "";
  // Every variant renders the same page (the ids the markup leaves out are derived, docs/protocol.md#derived-ids).
  const incId = idsOf(view(initialModel), (el) => el.tag === "button" && textOf(el) === "+")[0];
  const nameId = idsOf(view(initialModel), (el) => el.tag === "input" && el.attrs["name"] === "name")[0];
  if (!incId || !nameId) throw new Error("bench page lacks the + button or the name input");
  return { cookie, csrf: meta("svc-csrf"), handle: meta("svc-session"), incId, nameId };
}

/** Loads the page through a fetch function, as a fresh browser would. */
export async function openSession(fetch: (req: Request) => Response | Promise<Response>, origin: string): Promise<SessionCreds> {
  const page = await fetch(new Request(`${origin}/`));
  return credsFromPage(await page.text(), cookiesOf(page));
}

/**
 * The body of the `seq`th event of a tab: odd seqs click "+", even seqs type a name into the name
 * input (reported in inputState with that seq, as the client does for a dirty input).
 */
export function eventBody(creds: SessionCreds, seq: number): string {
  if (seq % 2 === 1) return JSON.stringify({ sessionId: creds.handle, seq, msg: "Inc", args: [], handlerId: creds.incId });
  const value = `Ada ${seq}`;
  return JSON.stringify({
    sessionId: creds.handle,
    seq,
    msg: "SetName",
    args: [value],
    handlerId: creds.nameId,
    inputState: { [creds.nameId]: { value, seq } },
  });
}

export function eventHeaders(creds: SessionCreds): Record<string, string> {
  return { Cookie: creds.cookie, "X-Svc-Csrf": creds.csrf, "Content-Type": "application/json" };
}

const utf8 = new TextEncoder();

/**
 * An event POST as it reaches a server from the browser client: with its Content-Length, which a
 * browser always sends for a string body (and the server reads the body whole on that evidence).
 */
export function eventRequest(origin: string, creds: SessionCreds, body: string): Request {
  const headers = { ...eventHeaders(creds), "Content-Length": String(utf8.encode(body).length) };
  return new Request(`${origin}/_svc/event`, { method: "POST", body, headers });
}

/** Opens `count` sessions over HTTP, `parallel` page loads at a time. */
export async function openHttpSessions(port: number, count: number, parallel: number): Promise<SessionCreds[]> {
  const origin = `http://127.0.0.1:${port}`;
  const sessions: SessionCreds[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        sessions[i] = await openSession((req) => fetch(req), origin);
      }
    }),
  );
  return sessions;
}

/** How the rows of each form variant are told apart (the plain form's rows have no suffix). */
export const VARIANT_SUFFIX: Readonly<Record<FormVariant, string>> = {
  plain: "",
  static: ", static parts built once",
  tuned: ", static parts built once and fields lazy",
  template: ", written as Ui.html templates",
};

/** The events/s ratio both live benches hold ours to against the bare route. */
export const TARGET_RATIO = 0.5;

/** An events/s row, ours against the bare route, held to TARGET_RATIO. */
export function eventsRow(name: string, ours: number, bare: number): BenchRow {
  return {
    name,
    ours,
    peer: bare,
    peerName: "bare Hono route, same JSON",
    unit: "events/s",
    higherIsBetter: true,
    target: `ratio >= ${TARGET_RATIO}x`,
    met: ours / bare >= TARGET_RATIO,
  };
}

/**
 * The rows of an HTTP load run: events/s (medians of the rounds) against the bare route, and the
 * p50 and p99 latencies over every response. Latencies must be sorted. `variant` ends the row names
 * (", static parts built once").
 */
export function httpRows(
  sessions: string,
  rates: { ours: number[]; bare: number[] },
  latencies: { ours: number[]; bare: number[] },
  variant = "",
): BenchRow[] {
  const latencyRow = (p: number): BenchRow => ({
    name: `HTTP event latency p${p}, ${sessions} concurrent sessions${variant}`,
    ours: percentile(latencies.ours, p),
    peer: percentile(latencies.bare, p),
    peerName: "bare Hono route, same load",
    unit: "ms",
    higherIsBetter: false,
    target: "(info)",
    met: true,
  });
  const pair = medianPair(rates.ours, rates.bare);
  return [
    eventsRow(`events/s over HTTP (node-server), ${sessions} sessions${variant}`, pair.ours, pair.peer),
    latencyRow(50),
    latencyRow(99),
  ];
}
