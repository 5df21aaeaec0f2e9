/**
 * Ui.html (src/ui/template.ts, src/ui/template-parse.ts): a template builds exactly the elements
 * Ui.h builds from the same markup; its static parts are one object for every call; within a
 * session's renders a call with unchanged values hands back its previous element, and whatever is
 * reused, renders and diffs are those of a fresh build.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diffTrees } from "../../src/live/diff/diff.ts";
import { assignIds, IdWalk } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { app } from "../../src/live/server/mod.ts";
import { RenderState, renderWith } from "../../src/live/render-state/render-state.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { renderProbe } from "../../src/live/probe.ts";
import { canon, parse } from "../support/dom.ts";
import { assertRendersLikeFresh } from "../support/renders.ts";
import { type TodoModel, todoModelArb, type TodoRow } from "../support/todos.ts";
import { build, type Spec, specArb } from "../support/trees.ts";
import { openTab } from "../support/live-harness.ts";

/** The page markup of an element, ids included, as a comparable DOM (attribute order aside). */
const dom = (el: UiElement) => canon(parse(render(assignIds(el))));
const same = (a: UiElement, b: UiElement) => assert.deepEqual(dom(a), dom(b));

/** Calls Ui.html with a strings array made at run time, as a tag call would pass it. */
function call(strings: readonly string[], values: readonly unknown[]): UiElement {
  const tsa = Object.assign([...strings], { raw: [...strings] });
  return Ui.html(Object.freeze(tsa) as unknown as TemplateStringsArray, ...values);
}

test("a template builds what Ui.h builds from the same markup", () => {
  const name = "email";
  const value: string = "a@b.c";
  same(
    Ui.html`
      <form class="signup" onSubmit="Save">
        <label for=${name}>Your ${name}</label>
        <input id=${name} name=${name} value=${value} onInput=${["SetField", name]} required>
        <p class="hint ${value === "" ? "empty" : "filled"}">&lt;we never share it&gt; &amp; &#169;&#xA9;</p>
        <button type="submit" disabled=${false}>save</button>
      </form>`,
    Ui.h(
      "form",
      { class: "signup", onSubmit: "Save" },
      Ui.h("label", { for: name }, `Your ${name}`),
      Ui.h("input", { id: name, name, value, onInput: ["SetField", name], required: true }),
      Ui.h("p", { class: "hint filled" }, "<we never share it> & ©©"),
      Ui.h("button", { type: "submit" }, "save"),
    ),
  );
});

test("holes take children as Ui.h does: texts merge, arrays spread, null and booleans vanish", () => {
  const items = ["a", "b"];
  const el = Ui.html`<ul class="list">${
    items.map((item) => Ui.html`<li>${item}</li>`)
  }${null}${false}<li>count ${3} of ${items.length}</li></ul>`;
  same(el, Ui.h("ul", { class: "list" }, Ui.h("li", {}, "a"), Ui.h("li", {}, "b"), Ui.h("li", {}, "count 3 of 2")));
  // "count " and 3 and " of " and 2 are one text node, as the HTML parser would read them.
  const li = el.children[2] as UiElement;
  assert.deepEqual(li.children, [{ kind: "text", text: "count 3 of 2" }]);
});

test("indentation with line breaks is dropped; spaces on one line stay (the JSX rule)", () => {
  const el = Ui.html`
    <p>
      <b>bold</b> <i>it</i>
      and a line ${"x"}
      ${"y"}
    </p>`;
  // As in JSX, a line break between two parts leaves no space: "x" and "y" meet.
  assert.deepEqual(
    el.children.map((c) => (c.kind === "text" ? c.text : c.kind === "el" ? `<${c.tag}>` : "raw")),
    ["<b>", " ", "<i>", "and a line xy"],
  );
});

test("lowercase handler names, bare attributes, self-closing and void elements, comments", () => {
  const el = Ui
    .html`<div><!-- a note --><button onclick="Go">go</button><input type="checkbox" checked><br><span/><span class=plain>x</span></div>`;
  same(
    el,
    Ui.h(
      "div",
      {},
      Ui.h("button", { onClick: "Go" }, "go"),
      Ui.h("input", { type: "checkbox", checked: true }),
      Ui.h("br", {}),
      Ui.h("span", {}),
      Ui.h("span", { class: "plain" }, "x"),
    ),
  );
});

test("style content is raw text; textarea content is text with its hole", () => {
  const css = Ui.html`<style>a > b { content: "&amp;" }</style>`;
  assert.deepEqual(css.children, [{ kind: "text", text: 'a > b { content: "&amp;" }' }]);
  const note = "typed <text>";
  same(Ui.html`<textarea name="note">${note}</textarea>`, Ui.h("textarea", { name: "note", value: note }));
  same(Ui.html`<textarea name="note">a &amp; b</textarea>`, Ui.h("textarea", { name: "note" }, "a & b"));
});

test("style objects, key filters and svc-key pass through whole holes", () => {
  const el = Ui.html`<li svc-key=${7} hover=${{ color: "red" }} onKeydown=${{ key: "Enter", msg: "Send" }}>x</li>`;
  same(el, Ui.keyed(7, Ui.h("li", { hover: { color: "red" }, onKeydown: { key: "Enter", msg: "Send" } }, "x")));
  assert.equal(el.key, "7");
});

test("an element with no hole inside is one object for every call", () => {
  const page = (n: number) => Ui.html`<main><header><h1>Title</h1><nav><a href="/">home</a></nav></header><p>${n}</p></main>`;
  const a = page(1);
  const b = page(2);
  assert.notEqual(a, b);
  assert.equal(a.children[0], b.children[0], "the static header is shared");
  const whole = () => Ui.html`<p>always the same</p>`;
  assert.equal(whole(), whole());
});

test("mistakes in a template throw a TypeError that says what and where", () => {
  const cases: [readonly string[], RegExp][] = [
    [["<div><p>x</div>"], /<\/div> closes <p>/],
    [["<div>"], /<div> is not closed/],
    [["<p>a</p><p>b</p>"], /exactly one root element/],
    [["text <p>a</p>"], /exactly one root element/],
    [["<p>a</p>", ""], /exactly one root element/],
    [["<", ">x</p>"], /exactly one root element|closes nothing/],
    [["<p ", ">x</p>"], /a hole in <p> must be an attribute's value/],
    [["<p><!-- ", " --></p>"], /comment must end/],
    [["<p a=1 a=2>x</p>"], /has a twice/],
    [["<p class=a", ">x</p>"], /mixes text and a hole: quote it/],
    [['<p class="a>x</p>'], /no closing quote/],
    [["<p>&hearts;</p>"], /unknown character reference &hearts;/],
    [["<style>", "</style>"], /a hole cannot go inside <style>/],
    [["</p>"], /closes nothing/],
    [["<p>x</p "], /closing tag must be/],
    [["<1p>x</1p>"], /exactly one root element|closing tag/],
    [['<p onfoo="x">y</p>'], /use a message handler/],
  ];
  for (const [strings, expected] of cases) {
    assert.throws(
      () => call(strings, strings.slice(1).map(() => "v")),
      (error: unknown) => error instanceof TypeError && expected.test(error.message),
      strings.join("${}"),
    );
  }
  assert.throws(() => (Ui.html as unknown as (s: string[]) => UiElement)(["<p>x</p>"]), /use it as a template tag/);
});

test("property: any template text either builds an element or throws a TypeError", () => {
  const piece = fc.array(
    fc.constantFrom(
      "<p>",
      "</p>",
      "<div class=",
      "</div>",
      "<input value=",
      "<br/>",
      "<",
      ">",
      "/",
      "=",
      '"',
      "'",
      " ",
      "\n",
      "p",
      "div",
      "input",
      "&",
      "amp;",
      "#",
      "x",
      ";",
      "!--",
      "-",
      "class",
      "onClick",
      "style",
      "textarea",
    ),
    { maxLength: 12 },
  ).map((parts) => parts.join(""));
  const value = fc.constantFrom<unknown>("v", 1, null, true, false, undefined, ["Go", 1], { color: "red" }, Ui.h("b", {}, "x"), [
    Ui.text("t"),
  ]);
  fc.assert(
    fc.property(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.array(value, { minLength: 3, maxLength: 3 }), (strings, values) => {
      try {
        const el = call(strings, values.slice(0, strings.length - 1));
        assert.equal(el.kind, "el");
        render(assignIds(el));
      } catch (error) {
        assert.ok(error instanceof TypeError, String(error));
      }
    }),
    { numRuns: 3000 },
  );
});

test("a hole inside a quoted value takes text only", () => {
  assert.throws(() => Ui.html`<p class="a ${{ b: 1 }}">x</p>`, /must be a string, number or boolean/);
  same(Ui.html`<p class="a ${null}${undefined}${false}b ${1}">x</p>`, Ui.h("p", { class: "a b 1" }, "x"));
});

// ---------------------------------------------------------------------------------------------
// Any tree, written as a template with some of its parts as holes, builds what Ui.h builds.

/** Writes a tree spec as template strings and values; `hole(k)` says whether the k-th part is a hole. */
function asTemplate(spec: Spec, hole: (k: number) => boolean): { strings: string[]; values: unknown[] } {
  const strings: string[] = [];
  const values: unknown[] = [];
  let text = "";
  let k = 0;
  const put = (value: unknown) => {
    strings.push(text);
    values.push(value);
    text = "";
  };
  const escape = (s: string, quote: boolean) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll('"', quote ? "&quot;" : '"');
  const write = (s: Spec) => {
    text += `<${s.tag}`;
    const attrs = Object.entries(s.attrs).filter(([, v]) => v !== undefined);
    if (s.key !== undefined) attrs.push(["svc-key", s.key]);
    for (const [name, value] of attrs) {
      if (typeof value === "string" && !hole(k++)) text += ` ${name}="${escape(value, true)}"`;
      else if (value === true && !hole(k++)) text += ` ${name}`;
      else {
        text += ` ${name}=`;
        put(value);
      }
    }
    text += ">";
    for (const kid of s.kids) {
      if ("tag" in kid) write(kid);
      else if ("raw" in kid) put(Ui.raw(kid.raw));
      else if (/[\r\n]/.test(kid.text) || hole(k++)) put(kid.text);
      else text += escape(kid.text, false);
    }
    if (s.tag !== "input") text += `</${s.tag}>`;
  };
  write(spec);
  strings.push(text);
  return { strings, values };
}

test("property: any tree written as a template, with any of its parts as holes, builds what Ui.h builds", () => {
  fc.assert(
    fc.property(specArb, fc.integer(), (spec, seed) => {
      const { strings, values } = asTemplate(spec, (k) => ((seed >>> (k % 31)) & 1) === 1);
      same(call(strings, values), build(spec));
    }),
    { numRuns: 500 },
  );
});

// ---------------------------------------------------------------------------------------------
// Within a session's renders

type Row = TodoRow;
type Model = TodoModel;

// The row's <em> has no hole: one element, placed in every row of every render.
const row = (r: Row) =>
  Ui.html`
  <li svc-key=${r.id} class=${r.done ? "done" : undefined}>
    <span>${r.text}</span>
    <em class="row-mark">row</em>
    <small>${r.tags.join(", ")}</small>
    <button onClick=${["Toggle", r.id]}>${r.done ? "undo" : "done"}</button>
  </li>`;
const templateView = (m: Model) =>
  Ui.html`
  <main>
    <header><h1>${m.title}</h1><input name="title" value=${m.title} onInput="SetTitle"></header>
    <p>count ${m.count}</p>
    <ul>${m.rows.map(row)}</ul>
    <footer><p>static</p></footer>
  </main>`;

test("in a session, a call with the same values as in the previous render gets that render's element", () => {
  const memo = new RenderState();
  const rows: Row[] = [{ id: 1, text: "a", done: false, tags: [] }, { id: 2, text: "b", done: false, tags: ["x"] }];
  const first = renderWith(memo, () => templateView({ title: "T", count: 0, rows }));
  const second = renderWith(memo, () => templateView({ title: "T", count: 1, rows: [rows[0]!, { ...rows[1]!, done: true }] }));
  const items = (el: UiElement) => (el.children[2] as UiElement).children;
  assert.notEqual(second, first, "the count changed: the page is built again");
  assert.equal(second.children[3], first.children[3], "the footer has no hole: one object");
  assert.equal(items(second)[0], items(first)[0], "row 1 is the same");
  assert.notEqual(items(second)[1], items(first)[1], "row 2 changed");
  same(second, templateView({ title: "T", count: 1, rows: [rows[0]!, { ...rows[1]!, done: true }] }));
  // Only the count changes: the page is built again along the count's path, and its other
  // elements with holes (the header, the list) are the previous call's.
  const third = renderWith(memo, () => templateView({ title: "T", count: 2, rows: [rows[0]!, { ...rows[1]!, done: true }] }));
  assert.notEqual(third.children[1], second.children[1], "the count's paragraph is new");
  assert.equal(third.children[0], second.children[0], "the header is reused");
  assert.equal(third.children[2], second.children[2], "the list is reused");
  same(third, templateView({ title: "T", count: 2, rows: [rows[0]!, { ...rows[1]!, done: true }] }));
});

test("in a session, plain data changed in place is still seen as changed", () => {
  const memo = new RenderState();
  const tags = ["x"];
  const message = ["Pick", 1];
  const style = { color: "red" };
  const view = () => Ui.html`<p hover=${style} onClick=${message}>${tags}</p>`;
  const first = renderWith(memo, view);
  tags.push("y");
  const second = renderWith(memo, view);
  assert.notEqual(second, first);
  same(second, Ui.h("p", { hover: { color: "red" }, onClick: ["Pick", 1] }, "x", "y"));
  message[1] = 2;
  style.color = "blue";
  const third = renderWith(memo, view);
  assert.notEqual(third, second);
  same(third, Ui.h("p", { hover: { color: "blue" }, onClick: ["Pick", 2] }, "x", "y"));
  assert.equal(renderWith(memo, view), third, "unchanged again: reused");
});

test("property: a session's template renders, reused parts and all, render and diff exactly as fresh builds", () => {
  fc.assert(
    fc.property(
      fc.array(todoModelArb, { minLength: 2, maxLength: 6 }),
      (models) => assertRendersLikeFresh(models, templateView, templateView),
    ),
    { numRuns: 300 },
  );
});

test("a live app written with templates answers an event with only what changed", async () => {
  const live = app<Model>({
    init: () => ({ title: "Todo", count: 0, rows: [{ id: 1, text: "a", done: false, tags: [] }] }),
    update: (m, msg, args) => (msg === "Toggle" ? { ...m, rows: m.rows.map((r) => (r.id === args[0] ? { ...r, done: !r.done } : r)) } : m),
    view: templateView,
  });
  try {
    const tab = await openTab(live);
    const resp = await tab.post({ seq: 1, msg: "Toggle", args: [1], handlerId: "r.2#ul.#li:1.3#button" });
    assert.equal(resp.status, 200);
    assert.deepEqual((await resp.json()).patches, [
      { id: "r.2#ul.#li:1", attrs: { class: "done" } },
      { id: "r.2#ul.#li:1.3#button", text: "undo" },
    ]);
  } finally {
    live.close();
  }
});

test("in a session, a template's static elements are neither walked nor compared again when a hole changes", () => {
  // Thirteen static elements, and one element with a hole.
  const page = (count: number) =>
    Ui.html`<main><header><nav><a href="/">home</a><a href="/a">a</a><a href="/b">b</a></nav><h1>Title</h1></header><section><p>static <b>text</b></p><ul><li>one</li><li>two</li><li>three</li></ul></section><p class="count">${count}</p></main>`;
  const probe = renderProbe();
  const memo = new RenderState(probe);
  let kept = new IdWalk(probe).tree(renderWith(memo, () => page(0)));
  assert.equal(probe.walked, 15, "the first render walks every element");
  for (let count = 1; count <= 3; count++) {
    const { walked, compared } = probe;
    const next = new IdWalk(probe).tree(renderWith(memo, () => page(count)));
    const diffed = diffTrees(kept, next, undefined, probe);
    kept = diffed.tree;
    assert.deepEqual(diffed.patches, [{ id: "r.2#p", text: String(count) }]);
    // The root and the element with the hole: the path to the change, nothing of the static markup.
    assert.equal(probe.walked - walked, 2, `render ${count}: elements walked`);
    assert.ok(probe.compared - compared <= 3, `render ${count}: ${probe.compared - compared} pairs compared`);
  }
});
