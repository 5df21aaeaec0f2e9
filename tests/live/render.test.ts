/** Rendering: escaping of every text and attribute value, ids on every element, handler attributes. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { render } from "../../src/live/render.ts";
import { h, raw } from "../../src/ui/node.ts";
import { parse } from "../support/dom.ts";

const hostile = fc.oneof(
  fc.constantFrom('"', "'", "<", ">", "&", "&amp;", "</script>", "</style>", "<!--", "\u2028", "\u2029", "\r", "\r\n", "\0", "`${x}`"),
  fc.string({ unit: "grapheme", maxLength: 8 }),
);
const hostileString = fc.array(hostile, { maxLength: 6 }).map((parts) => parts.join(""));

test("hostile text and attribute values come back from the HTML parser exactly", () => {
  fc.assert(
    fc.property(hostileString, hostileString, (text, value) => {
      const expected = (s: string) => s.replaceAll("\0", "\uFFFD");
      const dom = parse(render(h("div", { title: value, "data-x": value }, h("p", { class: value }, text), h("textarea", {}, `x${text}`))));
      const root = dom.firstElementChild!;
      assert.equal(root.getAttribute("title"), value === "" ? null : expected(value));
      assert.equal(root.getAttribute("data-x"), value === "" ? null : expected(value));
      assert.equal(root.children[0]!.textContent, expected(text));
      assert.equal(root.children[1]!.textContent, expected(`x${text}`));
      assert.equal(root.children.length, 2);
    }),
    { numRuns: 1000 },
  );
});

test("text and attributes are escaped in the markup itself", () => {
  assert.equal(
    render(h("div", { title: `"'<>&\u2028` }, `<script>&\r\u2029`)),
    '<div svc-id="r" title="&quot;&#39;&lt;&gt;&amp;&#x2028;">&lt;script&gt;&amp;&#13;&#x2029;</div>',
  );
});

test("style and script text cannot close their element", () => {
  const css = h("style", {}, "a{content:'</style><b>x</b>'}");
  const js = h("script", {}, "let s = '</script><b>x</b>'");
  const dom = parse(render(h("div", {}, css, js)));
  assert.equal(dom.firstElementChild!.children.length, 2);
  assert.equal(render(js), `<script svc-id="r">let s = '<\\/script><b>x<\\/b>'</script>`);
  assert.equal(render(css), `<style svc-id="r">a{content:'\\3c /style>\\3c b>x\\3c /b>'}</style>`);
});

test("raw HTML is the only unescaped markup", () => {
  assert.equal(render(h("div", {}, raw("<b>x</b>"), "<b>y</b>")), '<div svc-id="r"><!----><b>x</b>&lt;b&gt;y&lt;/b&gt;</div>');
});

test("the root carries its svc-id, other ids are left to the client (docs/protocol.md#derived-ids), and a handler element carries its messages and key filter", () => {
  assert.equal(
    render(
      h(
        "form",
        { onSubmit: "Save" },
        h("input", { name: "q", onInput: "Set", onKeydown: { key: "Enter", msg: "Go" } }),
        h("button", { onClick: ["Add", 1] }, "Add"),
      ),
    ),
    '<form svc-id="r" data-svc-submit="Save">' +
      '<input name="q" data-svc-input="Set" data-svc-keydown="Go" data-svc-keyfilter="Enter">' +
      '<button data-svc-click="[&quot;Add&quot;,1]">Add</button></form>',
  );
});

test("boolean attributes render as their name when true and not at all when false or empty", () => {
  assert.equal(
    render(h("input", { checked: true, disabled: false, value: "", title: null, size: 3 })),
    '<input svc-id="r" checked="checked" size="3">',
  );
});

test("a pre or textarea whose text starts with a newline gets the one newline the parser drops", () => {
  assert.equal(render(h("pre", {}, "\nx")), '<pre svc-id="r">\n\nx</pre>');
  assert.equal(render(h("textarea", {}, "x")), '<textarea svc-id="r">x</textarea>');
});
