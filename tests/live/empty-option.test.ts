// An option whose value is the empty string (a select's "nothing chosen"): rendered as value="",
// and replaced rather than patched when its value becomes or stops being "" (a patch's attrs use ""
// to remove an attribute, and an option without a value takes its text as its value).
import { test } from "node:test";
import assert from "node:assert/strict";
import { diff } from "../../src/live/diff/diff.ts";
import { render } from "../../src/live/render.ts";
import { Ui } from "../../src/ui/mod.ts";

const select = (first: string) =>
  Ui.h("select", { name: "size" }, Ui.h("option", { value: first }, "choose"), Ui.h("option", { value: "s" }, "small"));

test("an option's value=\"\" is rendered, so the option's value is the empty string and not its text", () => {
  assert.match(render(select("")), /<option value="">choose<\/option>/);
  // Other attributes still treat "" as absent.
  assert.doesNotMatch(render(Ui.h("input", { value: "", title: "" })), /value=|title=/);
});

test('an option whose value becomes or stops being "" is replaced, never patched with attrs value ""', () => {
  assert.deepEqual(diff(select("x"), select("")), [{ id: "r.0#option", replace: `<option svc-id="r.0#option" value="">choose</option>` }]);
  assert.deepEqual(diff(select(""), select("x")), [{ id: "r.0#option", replace: `<option svc-id="r.0#option" value="x">choose</option>` }]);
  assert.deepEqual(diff(select("x"), select("y")), [{ id: "r.0#option", attrs: { value: "y" } }]);
});
