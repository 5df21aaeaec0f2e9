/**
 * A model-driven page of rows, and random edits of its model: for the properties that drive a
 * session's render and keep loop over many events (tests/live/compact-form.property.test.ts).
 *
 * The page holds what an app's view holds: a form with inputs, a checkbox, a select with a value
 * and a textarea; handler props with arguments; style and class attributes, and a style prop
 * (injected styles) on some buttons; raw HTML; nested panels; a table of keyed rows (keys may
 * repeat) built by a row function, from two elements to more than thirty; an unkeyed list of
 * one-element rows; a list keyed by id; inputs sharing a name among siblings; texts mixing
 * strings and numbers, nested arrays, null and false children; and constant elements built once,
 * outside the view, some of them placed twice.
 *
 * The rows are derived from a count and a salt (seeded), so a model of hundreds of rows prints
 * and shrinks as a few numbers.
 */
import fc from "fast-check";
import { Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { seeded } from "./seeded.ts";

export type Row = {
  readonly id: number;
  /** The row's key in the table; a few rows share theirs with others. */
  readonly key: string;
  readonly text: string;
  readonly n: number;
  readonly value: string;
  readonly on: boolean;
  readonly cls: string;
  readonly style: string;
  /** Extra cells: most rows have a few, some twenty and more. */
  readonly cells: number;
  /** A slim row is one cell. */
  readonly slim: boolean;
};

export type Page = {
  readonly title: string;
  readonly theme: string;
  readonly banner: string | null;
  readonly query: string;
  readonly all: boolean;
  readonly choice: string;
  readonly note: string;
  readonly mode: string;
  readonly depth: number;
  readonly wide: boolean;
};

export type Model = Page & { readonly rows: readonly Row[] };

const TEXTS = ["a", "b", "x y", "<", "&amp;", "é€😀", "", "0", "\"'"] as const;
export const VALUES = ["", "a", "ab", "x y", "<&>"] as const;
const CLASSES = ["", "odd", "hot cold"] as const;
const STYLES = ["", "color: red", "width: 3em; color: blue"] as const;
const SHARED_KEYS = ["a", "b", "k 1"] as const;
const CHOICES = ["", "a", "b", "r1", "r2", "zz"] as const;
export const NOTES = ["", "note", "a\nb", "<b>not markup</b>"] as const;
const BANNERS = [null, "<b>new</b> items", "plain &amp; simple", "<i>it</i>tail"] as const;

/** Row `id` of a page drawn with `salt`: the same pair gives the same row every time. */
export function makeRow(id: number, salt: number): Row {
  const next = seeded(salt * 100_003 + id);
  const pick = <T>(from: readonly T[]): T => from[Math.floor(next() * from.length)]!;
  return {
    id,
    key: next() < 0.2 ? pick(SHARED_KEYS) : `k${id}`,
    text: pick(TEXTS),
    n: Math.floor(next() * 100),
    value: pick(VALUES),
    on: next() < 0.5,
    cls: pick(CLASSES),
    style: pick(STYLES),
    cells: next() < 0.15 ? 18 + Math.floor(next() * 8) : Math.floor(next() * 4),
    slim: next() < 0.15,
  };
}

/** Rows 1..count of a page drawn with `salt`. */
export function makeRows(count: number, salt: number, firstId = 1): Row[] {
  return Array.from({ length: count }, (_, i) => makeRow(firstId + i, salt));
}

// Constant elements, built once outside the view as an app's constants are: the same objects in
// every render, some of them placed twice in one page.
const LOGO = Ui.h("span", { class: "logo" }, "svc", Ui.raw("&middot;"), "live");
const HOME = Ui.h("a", { href: "/home", onClick: ["Go", "home"] }, "Home");
const SEP = Ui.h("hr");
const THEAD = Ui.h("thead", {}, Ui.h("tr", {}, Ui.h("th", {}, "#"), Ui.h("th", {}, "value"), Ui.h("th", {}, "on"), Ui.h("th", {}, "n")));
const EMPTY = Ui.h("tr", { class: "empty" }, Ui.h("td", { colspan: 4 }, "No rows"));
const NONE = Ui.h("option", { value: "" }, "none");
const SUBMIT = Ui.h("button", { type: "submit" }, "Search");
const FOOTER = Ui.h("footer", {}, Ui.h("small", {}, "svc-live ", 1, ".", 0, Ui.raw(" &copy;")));
const HOT = { color: "red" };

/** A row of the table: the row function, called for each row of the model. */
export function rowView(r: Row, i: number): UiElement {
  if (r.slim) return Ui.h("tr", {}, Ui.h("td", { colspan: 4 }, r.text, " ", r.n));
  return Ui.h(
    "tr",
    { class: r.on ? `${r.cls} on` : r.cls, style: r.style, "data-first": i === 0 ? "yes" : null },
    Ui.h("td", {}, "#", r.id, [" ", [r.text, null]], false),
    Ui.h("td", {}, Ui.h("input", { name: `v${r.id % 7}`, value: r.value, onInput: ["Edit", r.id] })),
    Ui.h("td", {}, Ui.h("input", { type: "checkbox", checked: r.on, onChange: ["Check", r.id] })),
    Ui.h("td", {}, r.n % 3 === 0 ? Ui.raw(`<b>${r.n}</b>`) : r.n, r.on && " ✓"),
    Ui.h("td", {}, Ui.h("button", { onClick: ["Remove", r.id], hover: r.n % 5 === 0 ? HOT : undefined }, "×")),
    Array.from({ length: r.cells }, (_, k) => Ui.h("td", { class: k === r.n % r.cells ? "mark" : undefined }, k, "/", r.cells)),
  );
}

/** `content` inside `depth` nested panels. */
function panel(depth: number, content: UiElement): UiElement {
  if (depth === 0) return content;
  return Ui.h("div", { class: `panel d${depth}` }, Ui.h("h3", {}, "Level ", depth), panel(depth - 1, content));
}

/** The page of `m`: a function of the model alone. */
export function view(m: Model): UiElement {
  const rows = m.rows;
  return Ui.h(
    "main",
    { class: m.theme },
    Ui.h(
      "header",
      {},
      Ui.h("h1", {}, m.title, " (", rows.length, ")"),
      LOGO,
      Ui.h("nav", {}, HOME, " | ", HOME),
      m.banner !== null && Ui.h("div", { class: "banner" }, Ui.raw(m.banner)),
    ),
    Ui.h(
      "form",
      { onSubmit: ["Search", m.mode] },
      Ui.h("input", { name: "q", value: m.query, onInput: ["SetQuery"], onKeydown: { key: "Enter", msg: "Search" } }),
      Ui.h("input", { type: "checkbox", name: "all", checked: m.all, onChange: ["SetAll"] }),
      Ui.h(
        "select",
        { name: "choice", value: m.choice, onChange: ["Choose"] },
        NONE,
        ["a", "b"].map((c) => Ui.h("option", { value: c }, c.toUpperCase())),
        rows.slice(0, 3).map((r) => Ui.h("option", { value: `r${r.id}` }, r.text === "" ? "?" : r.text)),
      ),
      Ui.h("textarea", { name: "note", value: m.note, onInput: ["SetNote"] }),
      // Sibling inputs that share names: keyed by name, the shared ones by name and place.
      Ui.h("fieldset", {}, rows.slice(0, 6).map((r) => Ui.h("input", { name: `q${r.id % 3}`, value: r.value, onInput: ["Edit", r.id] }))),
      SUBMIT,
    ),
    SEP,
    panel(
      m.depth,
      Ui.h(
        "table",
        { class: "grid", style: m.wide ? "width: 100%" : "" },
        THEAD,
        Ui.h("tbody", {}, rows.map((r, i) => Ui.keyed(r.key, rowView(r, i)))),
        rows.length === 0 ? Ui.h("tfoot", {}, EMPTY) : null,
      ),
    ),
    SEP,
    Ui.h("ul", { class: "names" }, rows.map((r) => (r.on ? Ui.h("li", {}, r.text, r.n) : null))),
    Ui.h("ol", {}, rows.filter((r) => r.id % 2 === 0).map((r) => Ui.keyed(r.id, Ui.h("li", {}, Ui.h("span", {}, r.text), " ", r.n)))),
    FOOTER,
  );
}

/** How many rows a page or a resize has: mostly a few, sometimes dozens, sometimes more than a hundred. */
export const countArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 8 }) },
  { weight: 2, arbitrary: fc.integer({ min: 9, max: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 140 }) },
);

const pageArb: fc.Arbitrary<Page> = fc.record({
  title: fc.constantFrom(...TEXTS),
  theme: fc.constantFrom(...CLASSES),
  banner: fc.constantFrom(...BANNERS),
  query: fc.constantFrom(...VALUES),
  all: fc.boolean(),
  choice: fc.constantFrom(...CHOICES),
  note: fc.constantFrom(...NOTES),
  mode: fc.constantFrom("a", "b"),
  depth: fc.integer({ min: 0, max: 3 }),
  wide: fc.boolean(),
});

/** A first model, as a few numbers (so that a failing case prints short): its page fields, and `count` rows drawn with `salt`. */
export type Start = { readonly page: Page; readonly count: number; readonly salt: number };

export function startArb(count: fc.Arbitrary<number> = countArb): fc.Arbitrary<Start> {
  return fc.record({ page: pageArb, count, salt: fc.nat({ max: 1000 }) });
}

export function modelOf(start: Start): Model {
  return { ...start.page, rows: makeRows(start.count, start.salt) };
}

/** An edit of the model. Row positions are picks, wrapped to the rows there are. */
export type Edit =
  | { readonly op: "text"; readonly at: number; readonly text: string }
  | { readonly op: "value"; readonly at: number; readonly value: string }
  | { readonly op: "toggle"; readonly at: number }
  | { readonly op: "insert"; readonly at: number; readonly salt: number }
  | { readonly op: "remove"; readonly at: number; readonly count: number }
  | { readonly op: "move"; readonly from: number; readonly to: number }
  | { readonly op: "reorder"; readonly how: "reverse" | "rotate" | "sort" | "swap-ends" }
  | { readonly op: "resize"; readonly count: number; readonly salt: number }
  | { readonly op: "attr"; readonly at: number; readonly cls: string; readonly style: string }
  | { readonly op: "cell"; readonly at: number; readonly add: boolean }
  | { readonly op: "slim"; readonly at: number }
  | { readonly op: "key"; readonly at: number; readonly key: string }
  | { readonly op: "page"; readonly page: Partial<Page> }
  | { readonly op: "noop" };

export const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant("text" as const), at: fc.nat(), text: fc.constantFrom(...TEXTS) }),
  fc.record({ op: fc.constant("value" as const), at: fc.nat(), value: fc.constantFrom(...VALUES) }),
  fc.record({ op: fc.constant("toggle" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), salt: fc.nat({ max: 1000 }) }),
  fc.record({ op: fc.constant("remove" as const), at: fc.nat(), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ op: fc.constant("move" as const), from: fc.nat(), to: fc.nat() }),
  fc.record({
    op: fc.constant("reorder" as const),
    how: fc.constantFrom("reverse" as const, "rotate" as const, "sort" as const, "swap-ends" as const),
  }),
  fc.record({ op: fc.constant("resize" as const), count: countArb, salt: fc.nat({ max: 1000 }) }),
  fc.record({ op: fc.constant("attr" as const), at: fc.nat(), cls: fc.constantFrom(...CLASSES), style: fc.constantFrom(...STYLES) }),
  fc.record({ op: fc.constant("cell" as const), at: fc.nat(), add: fc.boolean() }),
  fc.record({ op: fc.constant("slim" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("key" as const), at: fc.nat(), key: fc.constantFrom(...SHARED_KEYS, "fresh") }),
  fc.record({ op: fc.constant("page" as const), page: pageArb.chain((p) => fc.subarray(Object.keys(p)).map((keys) => only(p, keys))) }),
  fc.constant({ op: "noop" as const }),
);

/** The fields `keys` of `from`. */
function only<T extends object>(from: T, keys: readonly string[]): Partial<T> {
  return Object.fromEntries(keys.map((k) => [k, from[k as keyof T]])) as Partial<T>;
}

/** `m` after `edit`: a new model; the rows it did not touch are the same objects. */
export function applyEdit(m: Model, edit: Edit): Model {
  const rows = m.rows.slice();
  const at = (place: number) => place % rows.length;
  const withRow = (place: number, change: (r: Row) => Partial<Row>): Model => {
    if (rows.length === 0) return m;
    const i = at(place);
    rows[i] = { ...rows[i]!, ...change(rows[i]!) };
    return { ...m, rows };
  };
  const nextId = rows.reduce((max, r) => Math.max(max, r.id), 0) + 1;
  switch (edit.op) {
    case "text":
      return withRow(edit.at, () => ({ text: edit.text }));
    case "value":
      return withRow(edit.at, () => ({ value: edit.value }));
    case "toggle":
      return withRow(edit.at, (r) => ({ on: !r.on }));
    case "attr":
      return withRow(edit.at, () => ({ cls: edit.cls, style: edit.style }));
    case "cell":
      return withRow(edit.at, (r) => ({ cells: Math.max(0, r.cells + (edit.add ? 1 : -1)) }));
    case "slim":
      return withRow(edit.at, (r) => ({ slim: !r.slim }));
    case "key":
      return withRow(edit.at, (r) => ({ key: edit.key === "fresh" ? `k${r.id}` : edit.key }));
    case "insert":
      rows.splice(edit.at % (rows.length + 1), 0, makeRow(nextId, edit.salt));
      return { ...m, rows };
    case "remove":
      if (rows.length === 0) return m;
      rows.splice(at(edit.at), edit.count);
      return { ...m, rows };
    case "move": {
      if (rows.length === 0) return m;
      const [row] = rows.splice(at(edit.from), 1);
      rows.splice(edit.to % (rows.length + 1), 0, row!);
      return { ...m, rows };
    }
    case "reorder":
      if (edit.how === "reverse") rows.reverse();
      else if (edit.how === "rotate") rows.push(...rows.splice(0, Math.ceil(rows.length / 3)));
      else if (edit.how === "sort") rows.sort((a, b) => a.n - b.n || a.id - b.id);
      else if (rows.length > 1) [rows[0], rows[rows.length - 1]] = [rows[rows.length - 1]!, rows[0]!];
      return { ...m, rows };
    case "resize":
      // Shrinks to the count, or grows to it with new rows at the end.
      if (edit.count <= rows.length) return { ...m, rows: rows.slice(0, edit.count) };
      return { ...m, rows: [...rows, ...makeRows(edit.count - rows.length, edit.salt, nextId)] };
    case "page":
      return { ...m, ...edit.page };
    case "noop":
      // An equal model, as a new object: the render is the same page.
      return { ...m };
  }
}

export function applyEdits(m: Model, edits: readonly Edit[]): Model {
  return edits.reduce(applyEdit, m);
}

// ---------------------------------------------------------------------------------------------
// The same page written with `Ui.html` templates, `Ui.each` and `Ui.lazy`

/** A row as `Ui.each` calls it: a template with holes in attributes, texts and children, of its row alone. */
function templateRow(r: Row): UiElement {
  if (r.slim) return Ui.html`<tr><td colspan="4">${r.text} ${r.n}</td></tr>`;
  const cells = Array.from(
    { length: r.cells },
    (_, k) => Ui.html`<td class=${k === r.n % r.cells ? "mark" : undefined}>${k}/${r.cells}</td>`,
  );
  return Ui.html`
    <tr class="${r.cls}${r.on ? " on" : ""}" style=${r.style}>
      <td>#${r.id} ${[r.text, null]}</td>
      <td><input name=${`v${r.id % 7}`} value=${r.value} onInput=${["Edit", r.id]}></td>
      <td><input type="checkbox" checked=${r.on} onChange=${["Check", r.id]}></td>
      <td>${r.n % 3 === 0 ? Ui.raw(`<b>${r.n}</b>`) : r.n}${r.on && " ✓"}</td>
      <td>${Ui.h("button", { onClick: ["Remove", r.id], hover: r.n % 5 === 0 ? HOT : undefined }, "×")}</td>
      ${cells}
    </tr>`;
}

const rowKey = (r: Row) => r.key;

/** A name of the list, as `Ui.lazy` calls it: a function of its arguments alone, defined once. */
function nameItem(text: string, n: number): UiElement {
  return Ui.h("li", {}, text, n);
}

/** The header: a `Ui.lazy` part of the title, the row count and the banner. */
function header(title: string, count: number, banner: string | null): UiElement {
  return Ui.html`
    <header>
      <h1>${title} (${count})</h1>
      ${LOGO}
      <nav>${HOME} | ${HOME}</nav>
      ${banner !== null && Ui.html`<div class="banner">${Ui.raw(banner)}</div>`}
    </header>`;
}

/**
 * The page of `m` written with templates: the same model, controls and lists as `view`, its table's
 * rows listed with `Ui.each` (keys may repeat), its header and names built by `Ui.lazy`, its form a
 * template whose holes hold values, handler messages, options and nested elements.
 */
export function templateView(m: Model): UiElement {
  const rows = m.rows;
  const options = rows.slice(0, 3).map((r) => Ui.html`<option value=${`r${r.id}`}>${r.text === "" ? "?" : r.text}</option>`);
  return Ui.html`
    <main class=${m.theme}>
      ${Ui.lazy(header, m.title, rows.length, m.banner)}
      <form onSubmit=${["Search", m.mode]}>
        <input name="q" value=${m.query} onInput=${["SetQuery"]} onKeydown=${{ key: "Enter", msg: "Search" }}>
        <input type="checkbox" name="all" checked=${m.all} onChange=${["SetAll"]}>
        <select name="choice" value=${m.choice} onChange=${["Choose"]}>
          ${NONE}<option value="a">A</option><option value="b">B</option>${options}
        </select>
        <textarea name="note" value=${m.note} onInput=${["SetNote"]}></textarea>
        <fieldset>${
    rows.slice(0, 6).map((r) => Ui.h("input", { name: `q${r.id % 3}`, value: r.value, onInput: ["Edit", r.id] }))
  }</fieldset>
        ${SUBMIT}
      </form>
      ${SEP}
      ${
    panel(
      m.depth,
      Ui.html`
          <table class="grid" style=${m.wide ? "width: 100%" : ""}>
            ${THEAD}
            <tbody>${Ui.each(rows, rowKey, templateRow)}</tbody>
            ${rows.length === 0 ? Ui.h("tfoot", {}, EMPTY) : null}
          </table>`,
    )
  }
      ${SEP}
      <ul class="names">${rows.map((r) => (r.on ? Ui.lazy(nameItem, r.text, r.n) : null))}</ul>
      <ol>${rows.filter((r) => r.id % 2 === 0).map((r) => Ui.keyed(r.id, Ui.h("li", {}, Ui.h("span", {}, r.text), " ", r.n)))}</ol>
      ${FOOTER}
    </main>`;
}
