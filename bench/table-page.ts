/**
 * The table page of bench/table.bench.ts, defined once for both sides: a table of keyed rows of five
 * cells (a label, a price, a number input, a checkbox and a computed total), under an edit counter,
 * as the README and docs/live-apps.md teach lists. One event edits one row (a new quantity typed
 * into its input).
 *
 * `tablePage(h, model, rowOf)` is written against a hyperscript function, and each side passes its own:
 *
 *   ours       `Ui.h` in a live app (src/live/server/app/app.ts), served at POST /_svc/event, its rows
 *              keyed with `Ui.keyed` ("ours"), listed with `Ui.each` ("ours-each"), or placed by
 *              index without keys ("ours-unkeyed", for keyed against unkeyed)
 *   peers      the same markup written as HTML: one hand-written hono/html template per row (the peer
 *              the targets are held against), and, for information, `tablePage` with an `h` that
 *              writes each element as an escaped string
 *
 * The peers are the whole-page architecture (Turbo 8 morphing, htmx with idiomorph, Livewire): a
 * Hono route that parses the event's JSON, applies the same `update`, and answers the whole page
 * as HTML. Their handlers are written as `data-on-<kind>` attributes holding the message as JSON,
 * which is what such a page needs to post the event back, and their rows carry the key as the
 * attribute ours writes (`svc-key`), so both pages are the same markup.
 */
import { Hono } from "hono";
import { html, raw } from "hono/html";
import { escapeToBuffer } from "hono/utils/html";
import type { JsonValue } from "../src/json.ts";
import { app as liveApp, type LiveAppOptions } from "../src/live/server/mod.ts";
import type { LiveApp } from "../src/live/server/app/app.ts";
import { Ui } from "../src/ui/mod.ts";
import type { UiElement } from "../src/ui/node.ts";

export type Row = { readonly id: number; readonly qty: number; readonly price: number; readonly done: boolean };
export type TableModel = { readonly edits: number; readonly rows: readonly Row[] };

/** The handler props the page uses (ours reads them as handlers; the peers write them as data attributes). */
type PageAttrs = Record<string, string | number | boolean | readonly JsonValue[] | undefined>;
/** A hyperscript function: what each side builds the page with. */
export type H<N> = (tag: string, attrs: PageAttrs, ...children: (N | string)[]) => N;

/**
 * The table's first model. `owner` 0 is the table every tab shows; another owner's rows are its own
 * (ids from `owner * OWNER_IDS + 1`, other prices), so that no label, name, key or price is alike
 * between owners: the page of sessions that each show their own data.
 */
export function initialTable(rows: number, owner = 0): TableModel {
  const first = owner * OWNER_IDS + 1;
  return {
    edits: 0,
    rows: Array.from({ length: rows }, (_, i) => ({
      id: first + i,
      qty: (i * 7) % 10,
      price: 100 + ((i * 37 + owner * 53) % 900),
      done: i % 3 === 0,
    })),
  };
}

/** The ids each owner's rows take (bench/table-tabs.ts openTab): more than any table has rows. */
export const OWNER_IDS = 100_000;

const cents = (value: number) => `${Math.floor(value / 100)}.${String(value % 100).padStart(2, "0")}`;

/** A row of the page: the rows of all of them, as each side lists them. */
export type RowsOf<N> = (h: H<N>, rows: readonly Row[]) => (N | string)[];

const NO_ATTRS: PageAttrs = {};

/** A row: a `tr` of five cells; `attrs` are the `tr`'s (the peers' key attribute). */
export function tableRow<N>(h: H<N>, row: Row, attrs: PageAttrs = NO_ATTRS): N {
  return h(
    "tr",
    attrs,
    h("td", {}, `item ${row.id}`),
    h("td", { class: "price" }, cents(row.price)),
    h("td", {}, h("input", { type: "number", name: `qty-${row.id}`, value: String(row.qty), onInput: ["SetQty", row.id] })),
    h("td", {}, h("input", { type: "checkbox", name: `done-${row.id}`, checked: row.done, onChange: ["Toggle", row.id] })),
    h("td", { class: "total" }, cents(row.qty * row.price)),
  );
}

/** The page; `rowsOf` lists the rows (keyed, with `Ui.each`, or by index). */
export function tablePage<N>(h: H<N>, model: TableModel, rowsOf: RowsOf<N>): N {
  return h(
    "main",
    { class: "orders" },
    h("p", { class: "edits" }, `${model.edits} edits`),
    h(
      "table",
      {},
      h(
        "thead",
        {},
        h("tr", {}, h("th", {}, "item"), h("th", {}, "price"), h("th", {}, "qty"), h("th", {}, "done"), h("th", {}, "total")),
      ),
      h("tbody", {}, ...rowsOf(h, model.rows)),
    ),
  );
}

/** The index of the row with this id: rows keep their ids in order, so it is looked up where it was put. */
function rowIndex(rows: readonly Row[], id: number): number {
  const at = id - (rows[0]?.id ?? 1);
  return rows[at]?.id === id ? at : rows.findIndex((row) => row.id === id);
}

/** The page's update, shared by both sides. */
export function updateTable(model: TableModel, msg: string, args: readonly JsonValue[]): TableModel {
  const i = rowIndex(model.rows, Number(args[0]));
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

/** Rows keyed with `Ui.keyed(row.id, tr(...))`, as docs/live-apps.md teaches without `Ui.each`. */
const keyedRows: RowsOf<UiElement> = (h, rows) => rows.map((row) => Ui.keyed(row.id, tableRow(h, row)));
/** One row of ours, as `Ui.each` calls it: a function of its row alone, defined once. */
const eachRow = (row: Row): UiElement => tableRow(uiH, row);
const rowKey = (row: Row) => row.id;
/** Rows listed with `Ui.each` (docs/live-apps.md#lists). */
const eachRows: RowsOf<UiElement> = (_h, rows) => Ui.each(rows, rowKey, eachRow);
/** Rows placed by index, without keys: what keyed rows are set against. */
const unkeyedRows: RowsOf<UiElement> = (h, rows) => rows.map((row) => tableRow(h, row));

/** The page with plain keyed `Ui.h` rows. */
export function tableView(model: TableModel): UiElement {
  return tablePage(uiH, model, keyedRows);
}

/** The page with its rows listed with `Ui.each`. */
export function tableEachView(model: TableModel): UiElement {
  return tablePage(uiH, model, eachRows);
}

/** The page with its rows placed by index. */
export function tableUnkeyedView(model: TableModel): UiElement {
  return tablePage(uiH, model, unkeyedRows);
}

/** The views of ours, by the name the bench gives them ("ours-own": keyed rows, each session its own rows). */
export const VIEWS = { ours: tableView, "ours-own": tableView, "ours-each": tableEachView, "ours-unkeyed": tableUnkeyedView } as const;
export type OursKind = keyof typeof VIEWS;

/**
 * The keyed page written against any `h` (the view's floor: bench/table.bench.ts runs it with an
 * `h` that keeps nothing); `keyed` is what the side does with a key (ours: `Ui.keyed`).
 */
export function keyedPageWith<N>(h: H<N>, model: TableModel, keyed: (key: number, node: N) => N): N {
  return tablePage(h, model, (hh, rows) => rows.map((row) => keyed(row.id, tableRow(hh, row))));
}

/** The live app of the table; a page load of `/?owner=N` starts a session of owner N's rows (`initialTable`). */
export function tableApp(rows: number, options: LiveAppOptions = {}, view = tableView): LiveApp<TableModel> {
  const init = ({ url }: { url: URL }) => initialTable(rows, Number(url.searchParams.get("owner")) || 0);
  return liveApp<TableModel>({ init, update: updateTable, view }, options);
}

// ---------------------------------------------------------------------------------------------
// The peers: the whole page again on every event

const VOID = new Set(["input"]);

type HtmlNode = ReturnType<typeof raw>;

/**
 * Info only: the page written through `tablePage` with an `h` that builds each element as one
 * escaped string (hono's own `escapeToBuffer`), its element children appended as the strings they
 * are. It is not how an app writes a hono/html page, and it costs more per event than the
 * hand-written template per row below (bench/RESULTS.md prints both), so it is no longer the peer
 * the targets are held against.
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
 * The peer: the page as one hand-written hono/html template per row, the whole page rendered again
 * on every event, the fastest honest way to write it (what a Turbo 8 morph, htmx with idiomorph or
 * Livewire app does). Its markup is the same as `htmlH`'s, byte for byte (the bench checks it), so
 * no whitespace sits between its tags.
 */
export function handWrittenHtmlPage(model: TableModel): string {
  // deno-fmt-ignore: the formatter would indent the markup, which then differs from the other peer's
  return String(html`<main class="orders"><p class="edits">${model.edits} edits</p><table><thead><tr><th>item</th><th>price</th><th>qty</th><th>done</th><th>total</th></tr></thead><tbody>${model.rows.map(templateRow)}</tbody></table></main>`);
}

/** One row of the hand-written template. */
function templateRow(row: Row): HtmlNode | Promise<HtmlNode> {
  const checked = row.done ? raw(' checked=""') : "";
  const onInput = JSON.stringify(["SetQty", row.id]);
  const onChange = JSON.stringify(["Toggle", row.id]);
  // deno-fmt-ignore: as above
  return html`<tr svc-key="${row.id}"><td>item ${row.id}</td><td class="price">${cents(row.price)}</td><td><input type="number" name="qty-${row.id}" value="${row.qty}" data-on-input="${onInput}"></td><td><input type="checkbox" name="done-${row.id}"${checked} data-on-change="${onChange}"></td><td class="total">${cents(row.qty * row.price)}</td></tr>`;
}

/** The document around a peer's page, as plain HTML (no client script: the peer's is cached too). */
export function peerDocument(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>svc</title></head><body>${body}</body></html>`;
}

/**
 * The peers: the hand-written hono/html template per row (the peer every target is held against),
 * and the page defined once rendered through `htmlH` (info).
 */
export type PeerKind = typeof TEMPLATE_PEER | typeof STRING_PEER;
export const TEMPLATE_PEER = "hono/html template per row";
export const STRING_PEER = "hono/html escaped string per element (htmlH)";

/** The peer's rows: each `tr` with its key as the attribute ours writes. */
const peerRows: RowsOf<HtmlNode> = (h, rows) => rows.map((row) => tableRow(h, row, { "svc-key": row.id }));

export function renderPeerPage(kind: PeerKind, model: TableModel): string {
  if (kind === STRING_PEER) return String(tablePage(htmlH, model, peerRows));
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
