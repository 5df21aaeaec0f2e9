/** Each diff rule of docs/protocol.md#patches and docs/protocol.md#limits, with the exact patches expected. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { diff } from "../../src/live/diff/diff.ts";
import { render } from "../../src/live/render.ts";
import { h, keyed, raw } from "../../src/ui/node.ts";
import { applyPatches } from "../support/apply.ts";
import { canon, parse } from "../support/dom.ts";

/** Checks the patches against the reference applier too, so every expectation is also a correct one. */
function patches(prev: ReturnType<typeof h>, next: ReturnType<typeof h>) {
  const out = diff(prev, next);
  const dom = parse(render(prev));
  applyPatches(dom, out);
  assert.deepEqual(canon(dom), canon(parse(render(next))));
  return out;
}

test("an unchanged tree gives no patches", () => {
  const t = () => h("div", {}, h("p", { class: "a" }, "x"), h("input", { name: "q", value: "1" }));
  assert.deepEqual(diff(t(), t()), []);
});

test("a changed only text child is one text patch on its element", () => {
  assert.deepEqual(patches(h("div", {}, h("p", {}, "a")), h("div", {}, h("p", {}, "b"))), [{ id: "r.0#p", text: "b" }]);
});

test("a changed attribute is sent with its new value and a removed one as the empty string", () => {
  assert.deepEqual(patches(h("div", { class: "a", title: "t" }), h("div", { class: "b" })), [
    { id: "r", attrs: { class: "b", title: "" } },
  ]);
});

test("removing value, checked, selected or disabled is expressed as the empty string", () => {
  const prev = h(
    "form",
    {},
    h("input", { type: "checkbox", name: "c", value: "v", checked: true, disabled: true }),
    h("select", {}, h("option", { selected: true }, "o")),
  );
  const next = h("form", {}, h("input", { type: "checkbox", name: "c" }), h("select", {}, h("option", {}, "o")));
  assert.deepEqual(patches(prev, next), [
    { id: "r.#input:c", attrs: { value: "", checked: "", disabled: "" } },
    { id: "r.1#select.0#option", attrs: { selected: "" } },
  ]);
});

test("the root changing tag is a replace of r with the new markup", () => {
  assert.deepEqual(patches(h("div", {}, "x"), h("main", {}, "x")), [{ id: "r", replace: '<main svc-id="r">x</main>' }]);
});

test("a child changing tag is a new node in its slot, not a replace", () => {
  assert.deepEqual(patches(h("div", {}, h("p", {}, "x")), h("div", {}, h("section", {}, "x"))), [
    { id: "r", html: "<section>x</section>" },
  ]);
});

test("a form whose submit handler changes is replaced, so its fields are new and empty", () => {
  const form = (msg: string) => h("div", {}, h("form", { name: "f", onSubmit: msg }, h("input", { name: "q" })));
  assert.deepEqual(patches(form("Save"), form("Send")), [
    {
      id: "r.#form:f",
      replace:
        // A form in a fragment may sit in a form the parser knows of, which would drop it: every id is written (src/live/parser-fit.ts).
        '<form svc-id="r.#form:f" name="f" data-svc-submit="Send"><input svc-id="r.#form:f.#input:q" name="q"></form>',
    },
  ]);
  assert.equal(
    patches(form("Save"), h("div", {}, h("form", { name: "f", onSubmit: ["Save", 2] }, h("input", { name: "q" }))))[0]?.replace !==
      undefined,
    true,
  );
});

test("a form whose action changes is replaced", () => {
  const form = (action: string) => h("div", {}, h("form", { action }, "x"));
  assert.deepEqual(patches(form("/a"), form("/b")), [{ id: "r.0#form", replace: '<form svc-id="r.0#form" action="/b">x</form>' }]);
});

test("a form that only shows another field is patched in place, keeping the typed field", () => {
  const prev = h("div", {}, h("form", { onSubmit: "Save" }, h("input", { name: "q" })));
  const next = h("div", {}, h("form", { onSubmit: "Save" }, h("input", { name: "q" }), h("input", { name: "extra" })));
  assert.deepEqual(patches(prev, next), [
    { id: "r.0#form", kids: [{ keep: "r.0#form.#input:q" }, { html: '<input svc-id="r.0#form.#input:extra" name="extra">' }] },
  ]);
});

test("raw HTML children are reconciled by one html patch on their parent", () => {
  assert.deepEqual(patches(h("div", {}, raw("<b>a</b>"), h("p", {}, "x")), h("div", {}, raw("<b>b</b>"), h("p", {}, "x"))), [
    { id: "r", html: '<!----><b>b</b><p svc-id="r.1#p">x</p>' },
  ]);
});

test("unchanged raw HTML does not stop reconciling its siblings' subtrees", () => {
  assert.deepEqual(patches(h("div", {}, raw("<b>a</b>"), h("p", {}, "x")), h("div", {}, raw("<b>a</b>"), h("p", {}, "y"))), [
    { id: "r.1#p", text: "y" },
  ]);
});

test("style, script and textarea text changes are html patches", () => {
  assert.deepEqual(patches(h("div", {}, h("style", {}, "a{}")), h("div", {}, h("style", {}, "b{}"))), [{ id: "r.0#style", html: "b{}" }]);
  assert.deepEqual(patches(h("div", {}, h("textarea", { name: "t" }, "a")), h("div", {}, h("textarea", { name: "t" }, "<b>"))), [
    { id: "r.#textarea:t", html: "&lt;b&gt;" },
  ]);
});

test("when no child matched, the children are one html patch", () => {
  assert.deepEqual(patches(h("div", {}, h("p", {}, "a"), h("p", {}, "b")), h("div", {}, h("ul", {}, h("li", {}, "c")))), [
    { id: "r", html: "<ul><li>c</li></ul>" },
  ]);
});

test("a keyed reorder keeps every child as the same node, and their ids do not change", () => {
  const list = (...ks: string[]) => h("ul", {}, ...ks.map((k) => keyed(k, h("li", {}, k))));
  assert.deepEqual(patches(list("a", "b", "c"), list("c", "a", "b")), [
    { id: "r", kids: [{ keep: "r.#li:c" }, { keep: "r.#li:a" }, { keep: "r.#li:b" }] },
  ]);
});

test("keyed lists pair every moved child with its own old node, whatever the move, and diff only the changed ones", () => {
  const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
  const list = (ks: string[], changed = "") =>
    h("ul", {}, ...ks.map((k) => keyed(k, h("li", { class: "row" }, h("span", {}, k === changed ? `${k}!` : k)))));
  const moves: Record<string, string[]> = {
    "last to top": [keys[39]!, ...keys.slice(0, 39)],
    "first to bottom": [...keys.slice(1), keys[0]!],
    "two swapped": keys.map((k, i) => (i === 5 ? keys[30]! : i === 30 ? keys[5]! : k)),
    "reversed": [...keys].reverse(),
    "every other dropped, one new": ["new", ...keys.filter((_, i) => i % 2 === 0)],
  };
  for (const [name, order] of Object.entries(moves)) {
    const out = patches(list(keys), list(order, "k5"));
    const kids = out.find((p) => p.id === "r")?.kids;
    assert.ok(kids, name);
    assert.deepEqual(kids, order.map((k) => (keys.includes(k) ? { keep: `r.#li:${k}` } : kids[order.indexOf(k)])), name);
    // Only the changed row below the list is diffed; the rest were found equal.
    const below = out.filter((p) => p.id !== "r");
    assert.deepEqual(below, order.includes("k5") ? [{ id: "r.#li:k5.0#span", text: "k5!" }] : [], name);
  }
});

test("removing children while the rest keep their ids is a remove patch per child", () => {
  const list = (...ks: string[]) => h("ul", {}, ...ks.map((k) => keyed(k, h("li", {}, k))));
  assert.deepEqual(patches(list("a", "b", "c"), list("a", "c")), [{ id: "r.#li:b", remove: true }]);
});

test("a line inserted above an input's wrapper does not take over the wrapper's identity", () => {
  const wrapper = h("div", {}, h("input", { name: "title", value: "x" }));
  const prev = h("div", {}, wrapper);
  const next = h("div", {}, h("div", {}, "new line"), wrapper);
  assert.deepEqual(patches(prev, next), [
    { id: "r", kids: [{ html: '<div svc-id="r.0#div">new line</div>' }, { keep: "r.0#div", id: "r.1#div" }] },
  ]);
});

test("after a rename, later patches in the batch address the new ids", () => {
  const prev = h("div", {}, h("div", {}, h("input", { name: "title", value: "x", onInput: "Set" })));
  const next = h("div", {}, h("div", {}, "line"), h("div", {}, h("input", { name: "title", value: "y", onInput: "Set" })));
  assert.deepEqual(patches(prev, next), [
    { id: "r", kids: [{ html: '<div svc-id="r.0#div">line</div>' }, { keep: "r.0#div", id: "r.1#div" }] },
    { id: "r.1#div.#input:title", attrs: { value: "y" } },
  ]);
});

test("child matching takes index-free ids first, then shapes along an LCS, then leftovers of the same tag in order", () => {
  // index-free: the keyed li stays itself although it moved to the end
  // shape: the new <p> with a <b> child takes the old one with a <b> child, not the first <p>
  // leftover: the new <div> takes the old <div> although their child tags differ
  const prev = h(
    "section",
    {},
    keyed("k", h("li", {}, "k")),
    h("p", {}, "plain"),
    h("p", {}, h("b", {}, "bold")),
    h("div", {}, h("i", {}, "i")),
  );
  const next = h("section", {}, h("p", {}, h("b", {}, "bold")), h("div", {}, h("span", {}, "s")), keyed("k", h("li", {}, "k")));
  assert.deepEqual(patches(prev, next), [
    { id: "r", kids: [{ keep: "r.2#p", id: "r.0#p" }, { keep: "r.3#div", id: "r.1#div" }, { keep: "r.#li:k" }] },
    { id: "r.1#div", html: "<span>s</span>" },
  ]);
});

test("a style prop injects a style element before its owner, patched by its own id", () => {
  const prev = h("div", {}, h("button", { hover: { color: "red" } }, "b"));
  const next = h("div", {}, h("button", { hover: { color: "blue" } }, "b"));
  assert.deepEqual(patches(prev, next), [
    { id: "r.0#button.~pc", html: '[svc-id="r.0#button"]:hover{color:blue !important;}' },
  ]);
  assert.deepEqual(patches(h("div", {}, h("button", {}, "b")), prev), [
    {
      id: "r",
      kids: [{ html: '<style svc-id="r.0#button.~pc">[svc-id="r.0#button"]:hover{color:red !important;}</style>' }, { keep: "r.0#button" }],
    },
  ]);
});

test("adding or removing a handler adds or removes its message attributes", () => {
  assert.deepEqual(patches(h("div", {}, h("button", {}, "b")), h("div", {}, h("button", { onClick: "Go" }, "b"))), [
    { id: "r.0#button", attrs: { "data-svc-click": "Go" } },
  ]);
  assert.deepEqual(patches(h("div", {}, h("input", { onKeydown: { key: "Enter", msg: "Send" } })), h("div", {}, h("input", {}))), [
    { id: "r.0#input", attrs: { "data-svc-keydown": "", "data-svc-keyfilter": "" } },
  ]);
});

test("a changed handler message is one attribute patch, so the client posts the current message", () => {
  assert.deepEqual(diff(h("div", {}, h("button", { onClick: ["Del", 1] })), h("div", {}, h("button", { onClick: ["Del", 2] }))), [
    { id: "r.0#button", attrs: { "data-svc-click": '["Del",2]' } },
  ]);
  assert.deepEqual(diff(h("div", {}, h("button", { onClick: "Del" })), h("div", {}, h("button", { onClick: "Del" }))), []);
});

test("emission is depth-first and an ancestor html patch carries its subtree with no patch below it", () => {
  const prev = h("div", {}, h("ul", {}, keyed("a", h("li", {}, "a"))), h("p", {}, "x"), h("div", {}, raw("<i>r</i>"), h("span", {}, "s")));
  const next = h(
    "div",
    {},
    h("ul", {}, keyed("b", h("li", {}, "b")), keyed("a", h("li", {}, "A"))),
    h("p", {}, "y"),
    h("div", {}, raw("<i>R</i>"), h("span", {}, "t")),
  );
  assert.deepEqual(patches(prev, next), [
    { id: "r.0#ul", kids: [{ html: '<li svc-id="r.0#ul.#li:b" svc-key="b">b</li>' }, { keep: "r.0#ul.#li:a" }] },
    { id: "r.0#ul.#li:a", text: "A" },
    { id: "r.1#p", text: "y" },
    { id: "r.2#div", html: '<!----><i>R</i><span svc-id="r.2#div.1#span">t</span>' },
  ]);
});

test("a row inserted above N identical-shape unkeyed rows keeps the old rows", () => {
  // Every row has the same shape, so pairing by shape alone is ambiguous: each new row could take
  // the old row in its slot (text patches on every row) or the old row it came from. Content
  // decides: one {html} entry for the new row, and every old row kept under its new index.
  const row = (n: string) => h("tr", {}, h("td", {}, n), h("td", {}, h("input", { name: `q${n}`, value: n, onInput: ["Q", n] })));
  const table = (...ns: string[]) => h("table", {}, h("tbody", {}, ...ns.map(row)));
  const b = "r.0#tbody";
  assert.deepEqual(patches(table("a", "b", "c"), table("new", "a", "b", "c")), [
    {
      id: b,
      kids: [
        {
          html:
            `<tr svc-id="${b}.0#tr"><td>new</td><td><input name="qnew" value="new" data-svc-input="[&quot;Q&quot;,&quot;new&quot;]"></td></tr>`,
        },
        { keep: `${b}.0#tr`, id: `${b}.1#tr` },
        { keep: `${b}.1#tr`, id: `${b}.2#tr` },
        { keep: `${b}.2#tr`, id: `${b}.3#tr` },
      ],
    },
  ]);
  // Plain text rows, and removal of the top row: the rest keep their nodes under their new ids.
  const list = (...ns: string[]) => h("ul", {}, ...ns.map((n) => h("li", {}, n)));
  assert.deepEqual(patches(list("a", "b"), list("x", "a", "b")), [
    { id: "r", kids: [{ html: '<li svc-id="r.0#li">x</li>' }, { keep: "r.0#li", id: "r.1#li" }, { keep: "r.1#li", id: "r.2#li" }] },
  ]);
  assert.deepEqual(patches(list("a", "b", "c"), list("b", "c")), [
    { id: "r", kids: [{ keep: "r.1#li", id: "r.0#li" }, { keep: "r.2#li", id: "r.1#li" }] },
  ]);
  // A row inserted in the middle: rows above keep their ids, rows below are renamed.
  assert.deepEqual(patches(list("a", "b", "c"), list("a", "x", "b", "c")), [
    {
      id: "r",
      kids: [{ keep: "r.0#li" }, { html: '<li svc-id="r.1#li">x</li>' }, { keep: "r.1#li", id: "r.2#li" }, {
        keep: "r.2#li",
        id: "r.3#li",
      }],
    },
  ]);
  // Equal rows give no content hint: the old pairing (prefix first) stands, the last row goes.
  assert.deepEqual(patches(list("a", "a", "a"), list("a", "a")), [{ id: "r.2#li", remove: true }]);
  // Inserted row plus an edit in a later row: the edit is a text patch on its kept, renamed row.
  assert.deepEqual(patches(list("a", "b", "c"), list("x", "a", "B", "c")), [
    {
      id: "r",
      kids: [{ html: '<li svc-id="r.0#li">x</li>' }, { keep: "r.0#li", id: "r.1#li" }, { keep: "r.1#li", id: "r.2#li" }, {
        keep: "r.2#li",
        id: "r.3#li",
      }],
    },
    { id: "r.2#li", text: "B" },
  ]);
});

test("a wrapper whose only child changed shape is walked through: the patch lands on the child, not a kids list on the wrapper", () => {
  const table = (n: number) => h("table", {}, h("tbody", {}, Array.from({ length: n }, (_, i) => h("tr", {}, h("td", {}, `row ${i}`)))));
  assert.deepEqual(patches(table(2), table(3)), [{
    id: "r.0#tbody",
    kids: [{ keep: "r.0#tbody.0#tr" }, { keep: "r.0#tbody.1#tr" }, {
      html: '<tr svc-id="r.0#tbody.2#tr"><td>row 2</td></tr>',
    }],
  }]);
  // Two siblings of that tag: matching decides which old one each new one keeps (here the leftover
  // pairing of step 3, since the first list's shape changed), with the same patches in the end.
  const lists = (a: number, b: number) =>
    h(
      "div",
      {},
      h("ul", {}, Array.from({ length: a }, () => h("li", {}))),
      h("ul", {}, Array.from({ length: b }, () => h("li", {}, h("b", {})))),
    );
  assert.deepEqual(patches(lists(1, 1), lists(2, 1)), [{
    id: "r.0#ul",
    kids: [{ keep: "r.0#ul.0#li" }, { html: '<li svc-id="r.0#ul.1#li"></li>' }],
  }]);
});
