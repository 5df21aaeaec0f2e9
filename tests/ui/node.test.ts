/** The view tree builders: normalisation at the call, and programming errors thrown at the call. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Ui } from "../../src/ui/mod.ts";
import fc from "fast-check";
import { recordData } from "../support/records.ts";

const { h, keyed, raw, text } = Ui;

test("children flatten, empty ones vanish and adjacent text merges", () => {
  const el = h("p", {}, "a", null, false, [1, ["b"]], undefined, "", h("b", {}), true, "c");
  assert.deepEqual(el.children, [{ kind: "text", text: "a1b" }, h("b", {}), { kind: "text", text: "c" }]);
  assert.deepEqual(text("\0x"), { kind: "text", text: "\uFFFDx" });
  assert.deepEqual(raw("<i>"), { kind: "raw", html: "<i>" });
});

test("handlers become message records and the attributes a client delegates on", () => {
  const el = h("input", { onInput: "Set", onChange: ["Pick", 1, { a: true }], onKeydown: { key: "Enter", msg: ["Send", "x"] } });
  assert.deepEqual(Object.fromEntries(Object.entries(el.handlers ?? {}).map(([kind, record]) => [kind, recordData(record)])), {
    input: { msg: "Set", args: [] },
    change: { msg: "Pick", args: [1, { a: true }] },
    keydown: { msg: "Send", args: ["x"], key: "Enter" },
  });
  assert.deepEqual(el.attrs, {
    "data-svc-input": "Set",
    "data-svc-change": '["Pick",1,{"a":true}]',
    "data-svc-keydown": '["Send","x"]',
    "data-svc-keyfilter": "Enter",
  });
  assert.equal(h("button", { onClick: undefined }).handlers, undefined);
});

test("keyed sets svc-key, the first key source", () => {
  assert.equal(keyed(7, h("li", {})).attrs["svc-key"], "7");
  assert.throws(() => keyed("k", text("x") as never), TypeError);
});

test("a textarea's value is its text and a select's value selects its option", () => {
  assert.deepEqual(h("textarea", { value: "hi" }).children, [{ kind: "text", text: "hi" }]);
  const sel = h("select", { value: "b" }, h("option", { value: "a", selected: true }, "A"), h("option", {}, "b"));
  assert.deepEqual(sel.children.map((c) => (c.kind === "el" ? c.attrs["selected"] : undefined)), [undefined, "selected"]);
  assert.equal(sel.attrs["value"], undefined);
});

test("an inline style object becomes a declaration string", () => {
  assert.equal(h("div", { style: { backgroundColor: "red", "--gap": 4, width: "" } }).attrs["style"], "background-color:red;--gap:4;");
  assert.equal(h("div", { style: "color: red" }).attrs["style"], "color: red");
});

test("builder misuse throws at the call", () => {
  assert.throws(() => h("no tag"), TypeError);
  assert.throws(() => h("input", {}, "child"), /void/);
  assert.throws(() => h("textarea", {}, h("b", {})), /text children/);
  assert.throws(() => h("div", { "svc-id": "x" }), /renderer/);
  assert.throws(() => h("div", { "data-svc-hid": "x" }), /renderer/);
  assert.throws(() => h("div", { onclick: "alert(1)" }), /message handler/);
  assert.throws(() => h("div", { onClick: 3 as never }), /name a message/);
  assert.throws(() => h("div", { onKeydown: { key: "", msg: "X" } }), /key filter/);
  assert.throws(() => h("div", { 'a"b': "x" }), /attribute name/);
  assert.throws(() => h("div", { title: {} as never }), /string, number or boolean/);
  assert.throws(() => h("div", { hover: { "bad name": "x" } }), /CSS property/);
});

test("an element keeps its key (svc-key, else name on form controls; sanitised) in a field, and its name and type as rendered", () => {
  const input = h("input", { Type: "checkbox", NAME: "agree", checked: true });
  assert.equal(input.key, "agree");
  assert.deepEqual([input.attrs["name"], input.attrs["type"]], ["agree", "checkbox"]);
  // svc-key wins over name; a div's name is not a key; keyed() overrides either.
  assert.equal(h("input", { "svc-key": "k", name: "n" }).key, "k");
  assert.equal(h("div", { name: "n" }).key, undefined);
  assert.equal(keyed(7, h("input", { name: "n" })).key, "7");
  assert.equal(keyed("a b/é", h("li", {})).key, "a_b__");
  assert.equal(h("li", { "svc-key": "x.y" }).attrs["svc-key"], "x.y", "the attribute itself keeps what was given");
  // Absent values ("" and false) are no attribute and no key.
  const bare = h("button", { name: "", type: false });
  assert.deepEqual([bare.key, bare.attrs["name"], bare.attrs["type"]], [undefined, undefined, undefined]);
});

test("a handler's message attribute is the message name, or exactly JSON.stringify([msg, ...args])", () => {
  const text = fc.oneof(
    fc.constantFrom("SetField", "email", "a b", "", '"', "\\", "</script>", "\u2028", "é", "\ud800"),
    fc.string({ maxLength: 6 }),
  );
  const arg = fc.oneof(text, fc.integer(), fc.double(), fc.constantFrom(-0, 1e21, null, true), fc.array(fc.integer(), { maxLength: 2 }));
  fc.assert(
    fc.property(text.filter((m) => m !== ""), fc.array(arg, { maxLength: 6 }), (msg, args) => {
      const el = Ui.h("button", { onClick: [msg, ...args] });
      assert.equal(el.attrs["data-svc-click"], args.length === 0 ? msg : JSON.stringify([msg, ...args]));
    }),
    { numRuns: 3000 },
  );
});

test("props named like an object's own methods are attributes, not handlers", () => {
  const el = h("div", { constructor: "x", toString: "y", valueOf: "z" } as never);
  assert.deepEqual(el.attrs, { constructor: "x", tostring: "y", valueof: "z" });
  assert.equal(el.handlers, undefined);
});
