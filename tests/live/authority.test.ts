/**
 * The authority map (docs/protocol.md#input-state, docs/protocol.md#client-rules):
 * client-reported values only suppress attribute patches on input, textarea and select nodes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { diff } from "../../src/live/diff/diff.ts";
import { h } from "../../src/ui/node.ts";

const field = (value: string) => h("form", {}, h("input", { name: "title", value, onInput: "Set" }));

test("an input whose new value equals the client-reported value gets no value patch", () => {
  assert.deepEqual(diff(field("ab"), field("abc"), new Map([["r.#input:title", "abc"]])), []);
});

test("an input whose new value differs from the client-reported value is patched, as a reset is", () => {
  assert.deepEqual(diff(field("abc"), field(""), { "r.#input:title": "abcd" }), [{ id: "r.#input:title", attrs: { value: "" } }]);
});

test("an unchanged render writes nothing even when the client shows another value", () => {
  // The model refused the edit: the control keeps what the user typed (docs/protocol.md#client-rules 5).
  assert.deepEqual(diff(field("abc"), field("abc"), { "r.#input:title": "abcX" }), []);
});

test("other attributes of a reported input are still patched", () => {
  const prev = h("form", {}, h("input", { name: "title", value: "a" }));
  const next = h("form", {}, h("input", { name: "title", value: "b", class: "err" }));
  assert.deepEqual(diff(prev, next, { "r.#input:title": "b" }), [{ id: "r.#input:title", attrs: { class: "err" } }]);
});

test("a checkbox's checked state is compared with the reported state", () => {
  const box = (checked: boolean) => h("form", {}, h("input", { type: "checkbox", name: "ok", checked }));
  assert.deepEqual(diff(box(false), box(true), { "r.#input:ok": "checked" }), []);
  assert.deepEqual(diff(box(true), box(false), { "r.#input:ok": "" }), []);
  assert.deepEqual(diff(box(true), box(false), { "r.#input:ok": "checked" }), [{ id: "r.#input:ok", attrs: { checked: "" } }]);
});

test("a select's options are not re-selected when the client already shows the new value", () => {
  const pick = (value: string) =>
    h("form", {}, h("select", { name: "s", value }, h("option", { value: "a" }, "A"), h("option", { value: "b" }, "B")));
  assert.deepEqual(diff(pick("a"), pick("b"), { "r.#select:s": "b" }), []);
  assert.deepEqual(diff(pick("a"), pick("b"), { "r.#select:s": "a" }), [
    { id: "r.#select:s.0#option", attrs: { selected: "" } },
    { id: "r.#select:s.1#option", attrs: { selected: "selected" } },
  ]);
});

test("a textarea whose new text equals the reported value gets no html patch", () => {
  const area = (text: string) => h("form", {}, h("textarea", { name: "body" }, text));
  assert.deepEqual(diff(area("a"), area("ab"), { "r.#textarea:body": "ab" }), []);
  assert.deepEqual(diff(area("a"), area(""), { "r.#textarea:body": "ab" }), [{ id: "r.#textarea:body", html: "" }]);
});

test("non-input tags ignore the map", () => {
  const div = (value: string) => h("div", {}, h("data", { value }));
  assert.deepEqual(diff(div("1"), div("2"), { "r.0#data": "2" }), [{ id: "r.0#data", attrs: { value: "2" } }]);
});

test("without a map the diff is plain", () => {
  assert.deepEqual(diff(field("ab"), field("abc")), [{ id: "r.#input:title", attrs: { value: "abc" } }]);
});

test("the map is read with the ids the client posted, even when the input is renamed", () => {
  const prev = h("div", {}, h("div", {}, h("input", { value: "a" })));
  const next = h("div", {}, h("p", {}, "line"), h("div", {}, h("input", { value: "ab" })));
  assert.deepEqual(diff(prev, next, { "r.0#div.0#input": "ab" }), [
    { id: "r", kids: [{ html: '<p svc-id="r.0#p">line</p>' }, { keep: "r.0#div", id: "r.1#div" }] },
  ]);
});
