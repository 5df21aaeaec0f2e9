/**
 * The table page of bench/table.bench.ts (issue 28), defined once for both sides: a table of rows,
 * each with a number input, a checkbox and a computed total, under an edit counter. One event
 * edits one row (a new quantity typed into its input).
 *
 * `tablePage(h, model)` is written against a hyperscript function, and each side passes its own:
 *
 *   ours       `Ui.h` in a live app (src/live/server/app/app.ts), served at POST /_svc/event
 *   hono/html  an `h` that writes each element with hono/html's `html` template and its escaping
 *   hono/jsx   hono/jsx's `jsx`, rendered with toString
 *
 * The peers are the whole-page architecture (Turbo 8 morphing, htmx with idiomorph, Livewire): a
 * Hono route that parses the event's JSON, applies the same `update`, and answers the whole page
 * as HTML. Their handlers are written as `data-on-<kind>` attributes holding the message as JSON,
 * which is what such a page needs to post the event back.
 */
import { Hono } from "hono";
import { html, raw } from "hono/html";
import { escapeToBuffer } from "hono/utils/html";
import { jsx } from "hono/jsx";
import type { JsonValue } from "../src/json.ts";
import { app as liveApp, type LiveAppOptions } from "../src/live/server/mod.ts";
import type { LiveApp } from "../src/live/server/app/app.ts";
import { Ui } from "../src/ui/mod.ts";
import type { UiElement } from "../src/ui/node.ts";

export type Row = { readonly qty: number; readonly price: number; readonly done: boolean };
export type TableModel = { readonly edits: number; readonly rows: readonly Row[] };

/** The handler props the page uses (ours reads them as handlers; the peers write them as data attributes). */
type PageAttrs = Record<string, string | number | boolean | readonly JsonValue[] | undefined>;
/** A hyperscript function: what each side builds the page with. */
export type H<N> = (tag: string, attrs: PageAttrs, ...children: (N | string)[]) => N;

export function initialTable(rows: number): TableModel {
  return {
    edits: 0,
    rows: Array.from({ length: rows }, (_, i) => ({ qty: (i * 7) % 10, price: 100 + ((i * 37) % 900), done: i % 3 === 0 })),
  };
}

const cents = (value: number) => `${Math.floor(value / 100)}.${String(value % 100).padStart(2, "0")}`;

/** A row of the page: a `tr` of four cells. */
export type RowOf<N> = (h: H<N>, row: Row, i: number) => N;

export function tableRow<N>(h: H<N>, row: Row, i: number): N {
  return h(
    "tr",
    {},
    h("td", {}, `item ${i + 1}`),
    h("td", {}, h("input", { type: "number", name: `qty-${i}`, value: String(row.qty), onInput: ["SetQty", i] })),
    h("td", {}, h("input", { type: "checkbox", name: `done-${i}`, checked: row.done, onChange: ["Toggle", i] })),
    h("td", { class: "total" }, cents(row.qty * row.price)),
  );
}

/** The page; `rowOf` writes each row (`tableRow`, or the same row through `Ui.lazy`). */
export function tablePage<N>(h: H<N>, model: TableModel, rowOf: RowOf<N> = tableRow): N {
  return h(
    "main",
    { class: "orders" },
    h("p", { class: "edits" }, `${model.edits} edits`),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", {}, "item"), h("th", {}, "qty"), h("th", {}, "done"), h("th", {}, "total"))),
      h("tbody", {}, ...model.rows.map((row, i) => rowOf(h, row, i))),
    ),
  );
}

/** The page's update, shared by both sides. */
export function updateTable(model: TableModel, msg: string, args: readonly JsonValue[]): TableModel {
  const i = Number(args[0]);
  const row = model.rows[i];
  if (row === undefined) return model;
  let next: Row;
  if (msg === "SetQty") next = { ...row, qty: Math.max(0, Math.floor(Number(args[1]) || 0)) };
  else if (msg === "Toggle") next = { ...row, done: !row.done };
  else return model;
  const rows = model.rows.slice();
  rows[i] = next;
  return { edits: model.edits + 1, rows };
}

// ---------------------------------------------------------------------------------------------
// Ours

/**
 * `Ui.h` itself, as a view calls it: its signature is `H`'s, with attribute values typed more
 * narrowly than the page's handler props, so it is cast rather than wrapped in a function that
 * would spread every call's children a second time.
 */
const uiH = Ui.h as unknown as H<UiElement>;

export function tableView(model: TableModel): UiElement {
  return tablePage(uiH, model);
}

/** One row of ours, as `Ui.lazy` calls it: its arguments are the row and its index. */
const lazyRow = (row: Row, i: number): UiElement => tableRow(uiH, row, i);

/**
 * The page with each row a `Ui.lazy` part of its row and index (docs/live-apps.md): a row whose
 * arguments are those of the previous render is that render's element, and its calls are not made.
 */
export function tableLazyView(model: TableModel): UiElement {
  return tablePage(uiH, model, (_h, row, i) => Ui.lazy(lazyRow, row, i));
}

export function tableApp(rows: number, options: LiveAppOptions = {}, view = tableView): LiveApp<TableModel> {
  return liveApp<TableModel>({ init: () => initialTable(rows), update: updateTable, view }, options);
}

// ---------------------------------------------------------------------------------------------
// The peers: the whole page again on every event

/** A handler prop (`onInput`) as the peer writes it: `data-on-input`. */
function peerAttrs(attrs: PageAttrs): [string, string][] {
  const out: [string, string][] = [];
  for (const name in attrs) {
    const value = attrs[name];
    if (value === undefined || value === false) continue;
    if (name.startsWith("on")) out.push([`data-on-${name.slice(2).toLowerCase()}`, JSON.stringify(value)]);
    else out.push([name, value === true ? "" : String(value)]);
  }
  return out;
}

const VOID = new Set(["input"]);

type HtmlNode = ReturnType<typeof raw>;

/**
 * hono/html's model: markup as escaped strings (`raw`), each element one string, its attribute
 * values and text children escaped with hono's own `escapeToBuffer`, its element children
 * appended as the escaped strings they are. This costs about what a hand-written hono/html
 * template per row costs (bench/table.bench.ts prints both; a `html` template per element cost
 * six times that, which would flatter ours), so the peer is the fast way to write the page.
 */
const htmlH: H<HtmlNode> = (tag, attrs, ...children) => {
  const buffer: [string] = [`<${tag}`];
  for (const name in attrs) {
    const value = attrs[name];
    if (value === undefined || value === false) continue;
    const handler = name.startsWith("on");
    buffer[0] += handler ? ` data-on-${name.slice(2).toLowerCase()}="` : ` ${name}="`;
    if (value !== true) escapeToBuffer(handler ? JSON.stringify(value) : String(value), buffer);
    buffer[0] += '"';
  }
  buffer[0] += ">";
  if (VOID.has(tag)) return raw(buffer[0]);
  for (const child of children) {
    if (typeof child === "string") escapeToBuffer(child, buffer);
    else buffer[0] += child;
  }
  buffer[0] += `</${tag}>`;
  return raw(buffer[0]);
};

/**
 * The same page as one hand-written hono/html template per row, the way an app would write it:
 * the calibration of the peer above (same markup).
 */
export function handWrittenHtmlPage(model: TableModel): string {
  const on = (msg: string, i: number) => JSON.stringify([msg, i]);
  return String(
    html`
      <main class="orders">
        <p class="edits">${model.edits} edits</p>
        <table>
          <thead>
            <tr>
              <th>item</th>
              <th>qty</th>
              <th>done</th>
              <th>total</th>
            </tr>
          </thead>
          <tbody>${model.rows.map(
            (row, i) =>
              html`
                <tr>
                  <td>item ${i + 1}</td>
                  <td><input type="number" name="qty-${i}" value="${row.qty}" data-on-input="${on("SetQty", i)}"></td>
                  <td><input type="checkbox" name="done-${i}"${row.done ? raw(' checked=""') : ""} data-on-change="${on("Toggle", i)}"></td>
                  <td class="total">${cents(row.qty * row.price)}</td>
                </tr>
              `,
          )}</tbody>
        </table>
      </main>
    `,
  );
}

type JsxNode = ReturnType<typeof jsx>;

/** hono/jsx: `jsx(tag, props, ...children)`, the function its JSX compiles to. */
const jsxH: H<JsxNode> = (tag, attrs, ...children) => jsx(tag, Object.fromEntries(peerAttrs(attrs)), ...(children as never[]));

/** The document around a peer's page, as plain HTML (no client script: the peer's is cached too). */
export function peerDocument(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>svc</title></head><body>${body}</body></html>`;
}

/** The peers: the page defined once rendered through hono/html and hono/jsx, and the hand-written template (info). */
export type PeerKind = "hono/html" | "hono/jsx" | "hono/html, hand-written template per row";

export function renderPeerPage(kind: PeerKind, model: TableModel): string {
  if (kind === "hono/html") return String(tablePage(htmlH, model));
  if (kind === "hono/jsx") return String(tablePage(jsxH, model));
  return handWrittenHtmlPage(model);
}

/**
 * A whole-page peer: GET / answers the page, POST /event parses `{ msg, args }`, applies the
 * update to the model of its tab (one per cookie) and answers the whole page again.
 */
export function peerApp(kind: PeerKind, rows: number): Hono {
  const models = new Map<string, TableModel>();
  const peer = new Hono();
  peer.get("/", (c) => {
    const tab = String(models.size + 1);
    models.set(tab, initialTable(rows));
    c.header("Set-Cookie", `tab=${tab}; Path=/`);
    return c.html(peerDocument(renderPeerPage(kind, models.get(tab)!)));
  });
  peer.post("/event", async (c) => {
    const tab = /(?:^|; )tab=([^;]*)/.exec(c.req.header("Cookie") ?? "")?.[1] ?? "";
    const model = models.get(tab);
    if (model === undefined) return c.text("no tab", 404);
    const body = (await c.req.json()) as { msg: string; args: JsonValue[] };
    const next = updateTable(model, body.msg, body.args);
    models.set(tab, next);
    return c.html(renderPeerPage(kind, next));
  });
  return peer;
}
