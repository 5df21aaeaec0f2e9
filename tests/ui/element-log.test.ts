/**
 * Ui.h and Ui.keyed within a session's renders (src/live/render-state/element-log.ts): a call that would build
 * what its previous call built hands back that element, so the unchanged parts of a page are the
 * previous render's objects; whatever is reused, renders and diffs are those of fresh builds.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { app } from "../../src/live/server/mod.ts";
import { RenderState, renderWith } from "../../src/live/render-state/render-state.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { canon, idIn, parse } from "../support/dom.ts";
import { assertRendersLikeFresh } from "../support/renders.ts";
import { type TodoModel, todoModelArb } from "../support/todos.ts";
import { build, mutate, specArb } from "../support/trees.ts";
import { openTab } from "../support/live-harness.ts";
import { heapAfterCollection } from "../support/heap.ts";

/** The page markup of an element, ids included, as a comparable DOM (attribute order aside). */
const dom = (el: UiElement) => canon(parse(render(assignIds(el))));
const kid = (el: UiElement, ...path: number[]): UiElement => path.reduce((at, i) => at.children[i] as UiElement, el);

test("outside a session's render, Ui.h builds a new element on every call", () => {
  const a = Ui.h("p", { class: "x" }, "text");
  const b = Ui.h("p", { class: "x" }, "text");
  assert.notEqual(a, b);
  assert.deepEqual(a, b);
});

test("in a session, an unchanged call gets the previous render's element; a change rebuilds its path only", () => {
  const memo = new RenderState();
  const view = (count: number, name: string) =>
    Ui.h(
      "main",
      {},
      Ui.h("header", {}, Ui.h("h1", {}, "Title"), Ui.h("p", { id: "count" }, `count ${count}`)),
      Ui.h("form", { onSubmit: "Save" }, Ui.h("input", { name: "name", value: name, onInput: ["Set", "name"] })),
      Ui.h("footer", {}, Ui.h("p", {}, "static")),
    );
  const first = renderWith(memo, () => view(0, ""));
  const second = renderWith(memo, () => view(1, ""));
  assert.notEqual(second, first, "the count changed: the root is built again");
  assert.notEqual(kid(second, 0), kid(first, 0), "the header holds the count");
  assert.equal(kid(second, 0, 0), kid(first, 0, 0), "the heading is the previous render's");
  assert.notEqual(kid(second, 0, 1), kid(first, 0, 1), "the count's paragraph is new");
  assert.equal(kid(second, 1), kid(first, 1), "the form did not change");
  assert.equal(kid(second, 2), kid(first, 2), "the footer did not change");
  assert.deepEqual(dom(second), dom(view(1, "")));
  const third = renderWith(memo, () => view(1, ""));
  assert.equal(third, second, "nothing changed: the whole page is the previous render's");
  const fourth = renderWith(memo, () => view(1, "Ada"));
  assert.equal(kid(fourth, 0), kid(third, 0), "the header is reused");
  assert.notEqual(kid(fourth, 1, 0), kid(third, 1, 0), "the input's value changed");
  assert.deepEqual(dom(fourth), dom(view(1, "Ada")));
});

test("children are compared as Ui.h flattens them: nested arrays, nulls, numbers and text nodes alike", () => {
  const memo = new RenderState();
  const first = renderWith(memo, () => Ui.h("p", {}, "a", null, ["b", [false, 3]], Ui.text("c")));
  assert.equal(renderWith(memo, () => Ui.h("p", {}, "a", undefined, "b", 3, "c")), first);
  assert.equal(renderWith(memo, () => Ui.h("p", {}, ["a", "b"], "3", true, Ui.text("c"), "")), first);
  assert.equal(
    renderWith(memo, () => Ui.h("p", {}, "ab", 3, "c")),
    first,
    "texts merge where they meet, as the build merges them: the same children",
  );
  const split = renderWith(memo, () => Ui.h("p", {}, "a", Ui.h("br", {}), "b3c"));
  assert.notEqual(split, first, "an element between the texts: other children, built");
  assert.deepEqual(dom(split), dom(Ui.h("p", {}, "a", Ui.h("br", {}), "b3c")));
  const nul = renderWith(memo, () => Ui.h("p", {}, "a\0"));
  const again = renderWith(memo, () => Ui.h("p", {}, "a\0"));
  assert.notEqual(again, nul, "a text the build rewrote (U+0000) is never its built text: built again");
  assert.deepEqual(dom(again), dom(nul));
  assert.deepEqual(dom(renderWith(memo, () => Ui.h("p", {}, "a\uFFFD"))), dom(nul));
  const raw = renderWith(memo, () => Ui.h("div", {}, Ui.raw("<b>x</b>")));
  assert.equal(renderWith(memo, () => Ui.h("div", {}, Ui.raw("<b>x</b>"))), raw, "raw HTML compares by its markup");
  assert.notEqual(renderWith(memo, () => Ui.h("div", {}, Ui.raw("<b>y</b>"))), raw);
});

test("a select or a textarea, whose build rewrites its children, is compared by its call's own children", () => {
  const memo = new RenderState();
  const view = (value: string, note: string) =>
    Ui.h(
      "form",
      {},
      Ui.h("select", { name: "pick", value }, Ui.h("option", { value: "a" }, "A"), Ui.h("option", { value: "b" }, "B")),
      Ui.h("textarea", { name: "note", value: note }),
      Ui.h("textarea", { name: "body" }, note),
    );
  const first = renderWith(memo, () => view("a", "hi"));
  assert.equal(renderWith(memo, () => view("a", "hi")), first, "the same calls: the whole form is reused");
  const picked = renderWith(memo, () => view("b", "hi"));
  assert.notEqual(picked.children[0], first.children[0], "the select's value changed: built, its options marked again");
  assert.equal(picked.children[1], first.children[1], "the textareas did not change");
  assert.deepEqual(dom(picked), dom(view("b", "hi")));
  const typed = renderWith(memo, () => view("b", "hi!"));
  assert.notEqual(typed.children[1], picked.children[1]);
  assert.notEqual(typed.children[2], picked.children[2]);
  assert.deepEqual(dom(typed), dom(view("b", "hi!")));
});

test("calls of many shapes in one render, reused, rebuilt and shifted, compared with their own elements", () => {
  // A row inserted, removed or changed must not make a call compare itself with another's element.
  const memo = new RenderState();
  const row = (id: number, extra: number) =>
    Ui.h(
      "li",
      { class: `c${id}`, "data-n": String(extra), title: extra % 2 ? "odd" : undefined },
      `row ${id}`,
      ...Array(extra % 3).fill(Ui.h("br", {})),
    );
  const view = (ids: number[], extra: number) => Ui.h("ul", {}, ...ids.map((id) => row(id, id === 3 ? extra : id)));
  const ids = [1, 2, 3, 4, 5, 6];
  const first = renderWith(memo, () => view(ids, 0));
  const changed = renderWith(memo, () => view(ids, 1));
  for (const i of [0, 1, 3, 4, 5]) assert.equal(changed.children[i], first.children[i], `row ${ids[i]} is the previous render's`);
  assert.notEqual(changed.children[2], first.children[2], "row 3 changed");
  for (const [next, extra] of [[[0, 1, 2, 3, 4, 5, 6], 2], [[2, 3, 5, 6], 2], [[2, 3, 5, 6, 7], 5], [[7, 3, 2], 4]] as const) {
    const after = renderWith(memo, () => view([...next], extra));
    assert.deepEqual(dom(after), dom(view([...next], extra)), `rows ${next.join(",")}`);
    assert.equal(renderWith(memo, () => view([...next], extra)), after, "the same render again: all of it reused");
  }
});

test("attributes are compared as data, in order, and a bag mutated in place is seen as changed", () => {
  const memo = new RenderState();
  const message: [string, number] = ["Pick", 1];
  const style = { color: "red" };
  const view = () => Ui.h("button", { class: "b", hover: style, onClick: message }, "pick");
  const first = renderWith(memo, view);
  assert.equal(
    renderWith(memo, () => Ui.h("button", { class: "b", hover: { color: "red" }, onClick: ["Pick", 1] }, "pick")),
    first,
    "equal data: reused",
  );
  message[1] = 2;
  const second = renderWith(memo, view);
  assert.notEqual(second, first, "the handler's argument changed in place");
  assert.deepEqual(dom(second), dom(Ui.h("button", { class: "b", hover: { color: "red" }, onClick: ["Pick", 2] }, "pick")));
  style.color = "blue";
  const third = renderWith(memo, view);
  assert.notEqual(third, second, "the style changed in place");
  assert.deepEqual(dom(third), dom(Ui.h("button", { class: "b", hover: { color: "blue" }, onClick: ["Pick", 2] }, "pick")));
  const reordered = renderWith(memo, () => Ui.h("button", { onClick: message, hover: style, class: "b" }, "pick"));
  assert.notEqual(reordered, third, "the same attributes in another order are written in that order: built");
  assert.equal(render(assignIds(reordered)), render(assignIds(Ui.h("button", { onClick: message, hover: style, class: "b" }, "pick"))));
});

test("a handler's message is kept as the element's own record, and compared with the next call's message", () => {
  const memo = new RenderState();
  const button = (onClick: unknown) => () => Ui.h("button", { onClick } as never, "go");
  const first = renderWith(memo, button(["Pick", 1, "a", true, null]));
  const record = first.handlers?.click;
  assert.ok(first.call?.includes(record), "the call keeps the handler's record, not a copy of the message");
  assert.equal(renderWith(memo, button(["Pick", 1, "a", true, null])), first, "the same message: reused");
  for (
    const other of [["Pick", 1, "a", true], ["Pick", 2, "a", true, null], ["Drop", 1, "a", true, null], "Pick", [
      "Pick",
      1,
      "a",
      true,
      null,
      0,
    ]]
  ) {
    const built = renderWith(memo, button(other));
    assert.notEqual(built, first, `${JSON.stringify(other)} is another message: built`);
    assert.deepEqual(dom(built), dom(Ui.h("button", { onClick: other } as never, "go")));
    assert.equal(renderWith(memo, button(["Pick", 1, "a", true, null])).handlers?.click?.args[0], 1);
  }
  // One plain argument, kept in the record itself: compared by value and type.
  const one = renderWith(memo, button(["Row", 7]));
  assert.deepEqual(one.handlers?.click?.args, [7]);
  assert.equal(renderWith(memo, button(["Row", 7])), one, "the same one-argument message: reused");
  for (const other of [["Row", "7"], ["Row", 8], ["Row"], ["Row", 7, 7], ["Col", 7]]) {
    const built = renderWith(memo, button(other));
    assert.notEqual(built, one, `${JSON.stringify(other)} is another message: built`);
    assert.deepEqual(dom(built), dom(Ui.h("button", { onClick: other } as never, "go")));
    assert.equal(renderWith(memo, button(["Row", 7])).attrs["data-svc-click"], '["Row",7]');
  }
  // An argument that is itself data is copied, as any other value: a change in place is seen.
  const nested = { row: 1 };
  const view = button(["Open", nested]);
  const withData = renderWith(memo, view);
  assert.equal(renderWith(memo, view), withData, "unchanged data: reused");
  nested.row = 2;
  const changed = renderWith(memo, view);
  assert.notEqual(changed, withData, "the argument's data changed in place");
  assert.equal(changed.attrs["data-svc-click"], '["Open",{"row":2}]');
});

test("keyed rows inserted above or removed keep the other rows' elements", () => {
  const memo = new RenderState();
  const view = (ids: number[]) =>
    Ui.h(
      "ul",
      {},
      ...ids.map((id) => Ui.keyed(id, Ui.h("li", {}, Ui.h("span", {}, `row ${id}`), Ui.h("button", { onClick: ["Del", id] }, "x")))),
    );
  const ids = Array.from({ length: 12 }, (_, i) => i + 1);
  const first = renderWith(memo, () => view(ids));
  const inserted = renderWith(memo, () => view([0, ...ids]));
  for (let i = 0; i < ids.length; i++) assert.equal(inserted.children[i + 1], first.children[i], `row ${ids[i]} after an insert above`);
  const removed = renderWith(memo, () => view(ids.slice(2)));
  for (let i = 0; i < ids.length - 2; i++) {
    assert.equal(removed.children[i], first.children[i + 2], `row ${ids[i + 2]} after two removed above`);
  }
  assert.deepEqual(dom(removed), dom(view(ids.slice(2))));
});

test("a view that throws leaves the previous render's elements to be reused", () => {
  const memo = new RenderState();
  const first = renderWith(memo, () => Ui.h("ul", {}, Ui.h("li", {}, "a")));
  assert.throws(() =>
    renderWith(memo, () =>
      Ui.h(
        "ul",
        {},
        Ui.h("li", {}, "b"),
        (() => {
          throw new Error("view failed");
        })(),
      ))
  );
  assert.throws(() => renderWith(memo, () => Ui.h("input", {}, "no children in a void element")), /void/);
  assert.equal(renderWith(memo, () => Ui.h("ul", {}, Ui.h("li", {}, "a"))), first);
});

test("the log keeps the previous render's elements alive, and none of the renders before it", async () => {
  const memo = new RenderState();
  const page = (word: string, rows: number) =>
    Ui.h("ul", {}, ...Array.from({ length: rows }, (_, i) => Ui.h("li", { class: word }, `${word} ${i}`)));
  // Six earlier renders, each of a page whose last row no later render's list reaches; built in a
  // function of their own, so that no slot of this test's frame still points at them.
  const earlier = () =>
    Array.from({ length: 6 }, (_, n) => {
      const built = renderWith(memo, () => page(`old${n}`, 200 - n));
      return [new WeakRef(built), new WeakRef(built.children[built.children.length - 1] as UiElement)] as const;
    });
  const refs = earlier();
  renderWith(memo, () => page("second", 100));
  const third = renderWith(memo, () => page("third", 10));
  // A log that kept renders before the previous one would keep all six. Bun's collector scans the
  // stack conservatively, and a stale slot there may keep one page of its own accord.
  let kept = refs.length;
  for (let i = 0; i < 5 && kept > 1; i++) {
    await heapAfterCollection();
    kept = refs.filter(([built, lastRow]) => built.deref() !== undefined || lastRow.deref() !== undefined).length;
  }
  assert.ok(kept <= 1, `${kept} of 6 earlier renders' pages (or their last rows) are still alive`);
  // The previous render's elements are still handed back.
  assert.equal(renderWith(memo, () => page("third", 10)), third);
});

test("property: a session's renders of random trees and their edits render and diff exactly as fresh builds", () => {
  fc.assert(
    fc.property(specArb, fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }), (spec, edits) => {
      const specs = [spec];
      for (const picks of edits) specs.push(mutate(specs[specs.length - 1]!, picks));
      assertRendersLikeFresh(specs, build, build);
    }),
    { numRuns: 300 },
  );
});

const todoView = (m: TodoModel) =>
  Ui.h(
    "main",
    {},
    Ui.h("header", {}, Ui.h("h1", {}, m.title), Ui.h("input", { name: "title", value: m.title, onInput: "SetTitle" })),
    Ui.h("p", {}, "count ", m.count),
    Ui.h(
      "ul",
      {},
      m.rows.map((r) =>
        Ui.keyed(
          r.id,
          Ui.h(
            "li",
            { class: r.done ? "done" : undefined },
            Ui.h("span", {}, r.text),
            r.tags.length > 0 ? Ui.h("small", {}, r.tags.join(", ")) : null,
            Ui.h("button", { onClick: ["Toggle", r.id] }, r.done ? "undo" : "done"),
          ),
        )
      ),
    ),
    Ui.h("footer", {}, Ui.h("p", {}, "static")),
  );

test("property: a session's renders of a todo list render and diff exactly as fresh builds", () => {
  fc.assert(
    fc.property(fc.array(todoModelArb, { minLength: 2, maxLength: 6 }), (models) => assertRendersLikeFresh(models, todoView, todoView)),
    { numRuns: 300 },
  );
});

test("a live app written with Ui.h answers an event with only what changed, its page reused", async () => {
  type M = { count: number; name: string };
  const live = app<M>({
    init: () => ({ count: 0, name: "" }),
    update: (m, msg, args) => (msg === "Inc" ? { ...m, count: m.count + 1 } : { ...m, name: String(args.at(-1)) }),
    view: (m) =>
      Ui.h(
        "main",
        {},
        Ui.h("p", { id: "count" }, `count ${m.count}`),
        Ui.h("input", { name: "name", value: m.name, onInput: "SetName" }),
        Ui.h("button", { onClick: "Inc" }, "+"),
        Ui.h("ul", {}, ...Array.from({ length: 20 }, (_, i) => Ui.h("li", {}, `item ${i}`))),
      ),
  });
  const tab = await openTab(live);
  const inc = idIn(tab.html, "button");
  const reply = await tab.post({ seq: 1, msg: "Inc", handlerId: inc });
  assert.equal(reply.status, 200);
  assert.deepEqual((await reply.json()).patches, [{ id: "r.0#p", text: "count 1" }]);
  const typed = await tab.post({
    seq: 2,
    msg: "SetName",
    args: ["Ada"],
    handlerId: "r.#input:name",
    inputState: { "r.#input:name": { value: "Ada", seq: 2 } },
  });
  assert.deepEqual((await typed.json()).patches, [], "the typed value is the client's: nothing to patch");
  const again = await tab.post({ seq: 3, msg: "Inc", handlerId: inc });
  assert.deepEqual((await again.json()).patches, [{ id: "r.0#p", text: "count 2" }]);
  live.close();
});
