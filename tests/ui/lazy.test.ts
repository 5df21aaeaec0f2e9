/**
 * Ui.lazy (src/ui/lazy.ts): a part of the view built again only when its arguments change, within
 * a session's renders; and whatever is reused, the renders and their diffs are exactly those of
 * the same view without lazy.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { render } from "../../src/live/render.ts";
import { app, every } from "../../src/live/server/mod.ts";
import { RenderState, renderWith } from "../../src/live/render-state/render-state.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { UiElement } from "../../src/ui/node.ts";
import { assertRendersLikeFresh } from "../support/renders.ts";
import { type TodoModel, todoModelArb } from "../support/todos.ts";
import { openTab } from "../support/live-harness.ts";

/** A row builder that counts its calls. */
function countingRow() {
  const calls: string[] = [];
  const row = (label: string, done: boolean) => {
    calls.push(label);
    return Ui.h("li", { class: done ? "done" : undefined }, label);
  };
  return { row, calls };
}

test("outside a session's render, lazy just calls the function", () => {
  const { row, calls } = countingRow();
  const a = Ui.lazy(row, "a", false);
  const b = Ui.lazy(row, "a", false);
  assert.deepEqual(calls, ["a", "a"]);
  assert.notEqual(a, b);
  assert.equal(render(a), render(row("a", false)));
});

test("a call with the same function and arguments as in the previous render gets that render's element", () => {
  const { row, calls } = countingRow();
  const memo = new RenderState();
  const view = (items: [string, boolean][]) => Ui.h("ul", {}, ...items.map(([label, done]) => Ui.lazy(row, label, done)));
  const first = renderWith(memo, () => view([["a", false], ["b", false]]));
  const second = renderWith(memo, () => view([["a", false], ["b", true]]));
  assert.deepEqual(calls, ["a", "b", "b"]);
  assert.equal(second.children[0], first.children[0]);
  assert.notEqual(second.children[1], first.children[1]);
  // Only the previous render counts: "a" left out once is built again when it comes back.
  renderWith(memo, () => view([["b", true]]));
  renderWith(memo, () => view([["a", false], ["b", true]]));
  assert.deepEqual(calls, ["a", "b", "b", "a"]);
});

test("a row inserted above or removed from a list of lazy rows builds that row only", () => {
  const { row, calls } = countingRow();
  const memo = new RenderState();
  const labels = Array.from({ length: 50 }, (_, i) => `row ${i}`);
  const view = (list: string[]) => Ui.h("ul", {}, ...list.map((label) => Ui.lazy(row, label, false)));
  renderWith(memo, () => view(labels));
  calls.length = 0;
  renderWith(memo, () => view(["new", ...labels]));
  assert.deepEqual(calls, ["new"]);
  renderWith(memo, () => view(labels));
  assert.deepEqual(calls, ["new"]);
  renderWith(memo, () => view(labels.slice(3)));
  renderWith(memo, () => view(["x", "y", ...labels.slice(3, 20), "z", ...labels.slice(20)]));
  assert.deepEqual(calls, ["new", "x", "y", "z"]);
});

test("lazy rows that make many lazy or template calls inside keep their places, render after render", () => {
  const built: string[] = [];
  // Each row makes twelve template calls of its own, more than the memo's search reaches (8).
  const cell = (text: string) => Ui.html`<td>${text}</td>`;
  const row = (label: string) => {
    built.push(label);
    return Ui.h("tr", {}, ...Array.from({ length: 12 }, (_, k) => cell(`${label}.${k}`)));
  };
  const memo = new RenderState();
  const view = (labels: string[]) => Ui.h("table", {}, ...labels.map((label) => Ui.lazy(row, label)));
  const labels = ["a", "b", "c", "d"];
  const first = renderWith(memo, () => view(labels));
  assert.deepEqual(built, labels);
  const second = renderWith(memo, () => view(labels));
  const third = renderWith(memo, () => view(labels));
  assert.deepEqual(built, labels, "no row was built again");
  assert.deepEqual(third.children, first.children);
  assert.deepEqual(second.children, first.children);
  renderWith(memo, () => view(["new", ...labels]));
  assert.deepEqual(built, [...labels, "new"], "a row inserted above builds that row only");
});

test("a view that throws leaves the previous render's results in place", () => {
  const { row, calls } = countingRow();
  const memo = new RenderState();
  renderWith(memo, () => Ui.h("ul", {}, Ui.lazy(row, "a", false)));
  assert.throws(() =>
    renderWith(memo, () =>
      Ui.h(
        "ul",
        {},
        Ui.lazy(row, "b", false),
        (() => {
          throw new Error("view failed");
        })(),
      ))
  );
  renderWith(memo, () => Ui.h("ul", {}, Ui.lazy(row, "a", false)));
  assert.deepEqual(calls, ["a", "b"]);
});

test("lazy refuses a non-function and a function that returns no element", () => {
  assert.throws(() => Ui.lazy("nope" as unknown as () => UiElement), /expects a function/);
  assert.throws(() => Ui.lazy((() => "text") as unknown as () => UiElement), /must return an element/);
  assert.throws(() => renderWith(new RenderState(), () => Ui.lazy((() => null) as unknown as () => UiElement)), /must return an element/);
});

// A small model and two views of it, one plain and one with lazy parts: every render and every
// diff must be the same.
type Model = TodoModel;

const heading = (title: string) =>
  Ui.h("header", {}, Ui.h("h1", {}, title), Ui.h("input", { name: "title", value: title, onInput: "SetTitle" }));
const line = (id: number, text: string, done: boolean) =>
  Ui.keyed(
    id,
    Ui.h(
      "li",
      { class: done ? "done" : undefined },
      Ui.h("span", {}, text),
      Ui.h("button", { onClick: ["Toggle", id] }, done ? "undo" : "done"),
    ),
  );

function plainView(m: Model) {
  return Ui.h(
    "main",
    {},
    heading(m.title),
    Ui.h("p", {}, `count ${m.count}`),
    Ui.h("ul", {}, ...m.rows.map((r) => line(r.id, r.text, r.done))),
  );
}
function lazyView(m: Model) {
  return Ui.h(
    "main",
    {},
    Ui.lazy(heading, m.title),
    Ui.h("p", {}, `count ${m.count}`),
    Ui.h("ul", {}, ...m.rows.map((r) => Ui.lazy(line, r.id, r.text, r.done))),
  );
}

test("a session's renders with lazy parts render and diff exactly as the same view without them", () => {
  fc.assert(
    fc.property(fc.array(todoModelArb, { minLength: 2, maxLength: 6 }), (models) => assertRendersLikeFresh(models, lazyView, plainView)),
    { numRuns: 300 },
  );
});

test("a live app's lazy parts are built again only for the events that change their arguments", async () => {
  const { row, calls } = countingRow();
  type M = { count: number; items: string[] };
  const live = app<M>({
    init: () => ({ count: 0, items: ["a", "b", "c"] }),
    update: (m, msg) => (msg === "Inc" ? { ...m, count: m.count + 1 } : msg === "Add" ? { ...m, items: [...m.items, "d"] } : m),
    view: (m) =>
      Ui.h(
        "main",
        {},
        Ui.h("button", { onClick: "Inc" }, `count ${m.count}`),
        Ui.h("button", { onClick: "Add" }, "add"),
        Ui.h("ul", {}, ...m.items.map((item) => Ui.lazy(row, item, false))),
      ),
  });
  try {
    const tab = await openTab(live);
    assert.deepEqual(calls, ["a", "b", "c"]);
    const inc = await tab.post({ seq: 1, msg: "Inc", args: [] });
    assert.equal(inc.status, 200);
    assert.deepEqual((await inc.json()).patches, [{ id: "r.0#button", text: "count 1" }]);
    assert.deepEqual(calls, ["a", "b", "c"], "no row was built again");
    const add = await tab.post({ seq: 2, msg: "Add", args: [] });
    assert.equal(add.status, 200);
    assert.deepEqual(calls, ["a", "b", "c", "d"]);
  } finally {
    live.close();
  }
});

test("lazy results are a session's own, and go when its rendered tree is dropped", async () => {
  const { row, calls } = countingRow();
  let now = 0;
  const live = app<{ count: number }>(
    {
      init: () => ({ count: 0 }),
      update: (m, msg) => (msg === "Inc" ? { count: m.count + 1 } : m),
      view: (m) => Ui.h("main", {}, Ui.h("button", { onClick: "Inc" }, `count ${m.count}`), Ui.h("ul", {}, Ui.lazy(row, "shared", false))),
    },
    { now: () => now, treeIdleMs: 1_000 },
  );
  try {
    const first = await openTab(live);
    const second = await openTab(live);
    // The same call in another session is built for that session: nothing passes between them.
    assert.deepEqual(calls, ["shared", "shared"]);
    assert.equal((await first.post({ seq: 1, msg: "Inc", args: [] })).status, 200);
    assert.deepEqual(calls, ["shared", "shared"]);
    now += 1_000;
    live.sessions.sweep();
    // The quiet sessions dropped their trees and memos: the next event re-renders the previous
    // model, which builds the row again, and its own render then reuses that.
    const resp = await second.post({ seq: 1, msg: "Inc", args: [] });
    assert.deepEqual((await resp.json()).patches, [{ id: "r.0#button", text: "count 1" }]);
    assert.deepEqual(calls, ["shared", "shared", "shared"]);
  } finally {
    live.close();
  }
});

/**
 * A row with an input that breaks `fn`'s rule (docs/live-apps.md: it must depend on its arguments
 * alone): it reads `flag.broken`, so the part a session kept as its call cannot be built again
 * while the flag is set. The update's "Set" message writes a row's value.
 */
function rowThatReadsAFlag() {
  const flag = { broken: false };
  const row = (i: number, value: string) => {
    if (flag.broken) throw new Error("the row read something besides its arguments");
    return Ui.h("div", {}, Ui.h("input", { name: `q${i}`, value, onInput: ["Set", i] }));
  };
  const setValue = (values: string[], args: readonly unknown[]) => values.map((v, i) => (i === args[0] ? String(args[1]) : v));
  return { row, flag, setValue };
}

test("a lazy function that throws when an event builds its part again fails that event as a throwing view does, and the session goes on", async () => {
  const { row, flag, setValue } = rowThatReadsAFlag();
  type M = { values: string[]; count: number };
  const live = app<M>({
    init: () => ({ values: ["a", "b"], count: 0 }),
    update: (m, msg, args) => msg === "Inc" ? { ...m, count: m.count + 1 } : msg === "Set" ? { ...m, values: setValue(m.values, args) } : m,
    view: (m) => Ui.h("main", {}, Ui.h("button", { onClick: "Inc" }, `count ${m.count}`), ...m.values.map((v, i) => Ui.lazy(row, i, v))),
  });
  try {
    const tab = await openTab(live);
    assert.equal((await tab.post({ seq: 1, msg: "Inc", args: [], handlerId: "r.0#button" })).status, 200);
    flag.broken = true;
    // The handler's lookup builds the part again: the event fails, and nothing of it is kept.
    const failed = await tab.post({ seq: 2, msg: "Set", args: [0, "x"], handlerId: "r.1#div.#input:q0" });
    assert.equal(failed.status, 500);
    assert.equal((await failed.json()).error, "app-error");
    flag.broken = false;
    const next = await tab.post({ seq: 3, msg: "Set", args: [0, "y"], handlerId: "r.1#div.#input:q0" });
    assert.equal(next.status, 200);
    assert.deepEqual((await next.json()).patches, [{ id: "r.1#div.#input:q0", attrs: { value: "y" } }]);
  } finally {
    live.close();
  }
});

test("a lazy function that throws when a background message's bookkeeping builds its part again fails that message, and the session goes on", async () => {
  const { row, flag, setValue } = rowThatReadsAFlag();
  type M = { values: string[]; ticks: number; ticking: boolean };
  const live = app<M>({
    init: () => ({ values: ["a"], ticks: 0, ticking: false }),
    update: (m, msg, args) =>
      msg === "Start"
        ? { ...m, ticking: true }
        : msg === "Tick"
        ? { ...m, ticks: m.ticks + 1, ticking: m.ticks < 1 }
        : msg === "Set"
        ? { ...m, values: setValue(m.values, args) }
        : m,
    view: (m) =>
      Ui.h(
        "main",
        {},
        Ui.h("button", { onClick: "Start" }, "start"),
        // A tick adds an item after the rows, not a row: the tick's render calls no row function.
        Ui.h(
          "ul",
          {},
          ...m.values.map((v, i) => Ui.lazy(row, i, v)),
          ...Array.from({ length: m.ticks }, (_, k) => Ui.h("li", {}, `tick ${k}`)),
        ),
      ),
    subscriptions: (m) => (m.ticking ? [every(15, "Tick")] : []),
  }, { messages: ["Tick"] });
  const input = "r.1#ul.0#div.#input:q0";
  try {
    const tab = await openTab(live);
    // The input's seq is stored: a tick that changes the list looks it up in the new tree, inside
    // the first row's part, which the tick's render reused and which holds nothing.
    const set = await tab.post({
      seq: 1,
      page: "p",
      msg: "Set",
      args: [0, "x"],
      handlerId: input,
      inputState: { [input]: { value: "x", seq: 1 } },
    });
    assert.equal(set.status, 200);
    flag.broken = true;
    assert.equal((await tab.post({ seq: 2, page: "p", msg: "Start", args: [], handlerId: "r.0#button" })).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 120));
    flag.broken = false;
    // The session goes on: the next event applies (no reported value, so the render's own is patched).
    const next = await tab.post({ seq: 3, page: "p", msg: "Set", args: [0, "y"], handlerId: input });
    assert.equal(next.status, 200);
    const patches = (await next.json()).patches as unknown[];
    assert.ok(patches.some((p) => JSON.stringify(p) === JSON.stringify({ id: input, attrs: { value: "y" } })), JSON.stringify(patches));
  } finally {
    live.close();
  }
});
