/** Style props → injected <style> elements with ids <owner>.~<pass> (docs/protocol.md#node-ids). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { render } from "../../src/live/render.ts";
import { escapeCss, keyframesName } from "../../src/ui/styles.ts";
import { h } from "../../src/ui/node.ts";
import { parse } from "../support/dom.ts";

test("each pass becomes a style element before its owner, in the order mq, pc, tr, anim", () => {
  const button = h("button", {
    hover: { color: "blue" },
    focus: { outlineColor: "red" },
    mq: { "(max-width: 600px)": { padding: "2px" } },
    transition: { color: "200ms ease" },
    animation: { keyframes: { from: { opacity: 0 }, to: { opacity: 1 } }, duration: "1s" },
  }, "b");
  assert.equal(
    render(h("div", {}, button)),
    '<div svc-id="r">' +
      '<style svc-id="r.0#button.~mq">@media (max-width: 600px){[svc-id="r.0#button"]{padding:2px !important;}}</style>' +
      '<style svc-id="r.0#button.~pc">[svc-id="r.0#button"]:hover{color:blue !important;}[svc-id="r.0#button"]:focus{outline-color:red !important;}</style>' +
      '<style svc-id="r.0#button.~tr">[svc-id="r.0#button"]{transition:color 200ms ease;}</style>' +
      '<style svc-id="r.0#button.~anim">@keyframes svc-r_d0_hbutton{from{opacity:0;}to{opacity:1;}}[svc-id="r.0#button"]{animation:svc-r_d0_hbutton 1s ease 0s 1 normal none;}</style>' +
      '<button svc-id="r.0#button">b</button></div>',
  );
});

test("an input's focus colour works although an input cannot hold a style element", () => {
  const dom = parse(render(h("form", {}, h("input", { name: "q", focus: { borderColor: "blue" } }))));
  const form = dom.firstElementChild!;
  assert.deepEqual(Array.from(form.children).map((c) => c.getAttribute("svc-id")), ["r.#input:q.~pc", "r.#input:q"]);
});

test("the root's own styles are its first children", () => {
  assert.equal(
    render(h("main", { hover: { color: "red" } }, "x")),
    '<main svc-id="r"><style svc-id="r.~pc">[svc-id="r"]:hover{color:red !important;}</style>x</main>',
  );
});

test("user data in style values cannot leave its declaration or its style element", () => {
  const evil = "red}</style><script>alert(1)</script>;x{";
  const dom = parse(render(h("div", {}, h("p", { hover: { color: evil } }, "x"))));
  const root = dom.firstElementChild!;
  assert.equal(root.children.length, 2);
  assert.equal(root.children[0]!.textContent!.includes("}</"), false);
  assert.equal(escapeCss("a\\"), "a\\5c ");
  assert.equal(escapeCss("a\\\\"), "a\\\\");
});

test("keyframes names are an injective escape of the owner id", () => {
  assert.notEqual(keyframesName("r.#li:x_0_div"), keyframesName("r.#li:x.0#div"));
  assert.equal(keyframesName("r.0#a-b"), "svc-r_d0_ha-b");
});
