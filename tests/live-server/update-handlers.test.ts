/**
 * `update` as one handler per message (docs/live-apps.md#the-app-definition): each message reaches
 * its handler with the model and its arguments; a message without a handler is update's error,
 * named; the handlers' names are the messages development checks the view against, unless the
 * definition lists its own.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { buttonId } from "./apps.ts";
import { openTab } from "../support/live-harness.ts";
import { Live } from "../../src/live/mod.ts";
import { Ui, type UiElement } from "../../src/ui/mod.ts";
import { setLogSink } from "../../src/log.ts";
import { updateByMessage } from "../../src/live/server/session/definition.ts";

type Model = { count: number; removed: number[] };
// A part of the view the compiler did not check (a message in a template's markup, an untyped helper).
const strayButton = (): UiElement => Ui.h("button", { onClick: ["Remvoe", 7] }, "y");
type Messages = { Inc: []; Remove: [id: number] };

function counter(options: { misspelt?: boolean; messages?: { Inc: true; Remove: true; Remvoe: true } } = {}) {
  const ui = Ui.typed<Messages>();
  return Live.app<Model, Messages>({
    init: () => ({ count: 0, removed: [] }),
    update: {
      Inc: (model) => ({ ...model, count: model.count + 1 }),
      Remove: (model, id) => ({ ...model, removed: [...model.removed, id] }),
    },
    view: ({ count }) =>
      ui.h(
        "main",
        {},
        ui.h("p", {}, String(count)),
        ui.h("button", { onClick: "Inc" }, "+"),
        ui.h("button", { onClick: ["Remove", 7] }, "x"),
        options.misspelt ? strayButton() : null,
      ),
    ...(options.messages === undefined ? {} : { messages: options.messages as unknown as { Inc: true; Remove: true } }),
  });
}

async function logged<A>(work: () => Promise<A>): Promise<{ result: A; lines: string[] }> {
  const lines: string[] = [];
  const previous = setLogSink((level, line) => lines.push(`${level} ${line}`));
  try {
    return { result: await work(), lines };
  } finally {
    setLogSink(previous);
  }
}

test("each message reaches its handler with the model and its arguments", async () => {
  const app = counter();
  try {
    const tab = await openTab(app);
    assert.equal((await tab.post({ seq: 1, msg: "Inc", handlerId: buttonId(tab.html, "\\+") })).status, 200);
    assert.equal((await tab.post({ seq: 2, msg: "Remove", args: [7], handlerId: buttonId(tab.html, "x") })).status, 200);
    assert.deepEqual([...app.sessions.all()][0]!.model, { count: 1, removed: [7] });
  } finally {
    app.close();
  }
});

test("a message without a handler is update's error, naming it; the handlers' names are the declared messages", async () => {
  const app = counter({ misspelt: true });
  try {
    const { result: tab, lines: rendered } = await logged(() => openTab(app));
    assert.ok(
      rendered.some((line) => line.startsWith('WARN live.message "Remvoe" is named by a handler') && line.includes('"Inc", "Remove"')),
      rendered.join("\n"),
    );
    const { result: resp, lines } = await logged(() => tab.post({ seq: 1, msg: "Remvoe", args: [7], handlerId: buttonId(tab.html, "y") }));
    assert.equal(resp.status, 500);
    assert.equal(resp.headers.get("X-Svc-Status"), "app-error");
    const body = (await resp.json()) as { report?: { message: string } };
    assert.equal(body.report?.message, 'update("Remvoe") failed: Error: update has no handler for the message "Remvoe"');
    assert.ok(lines.some((line) => line.startsWith("ERROR live.update failed")));
    assert.deepEqual([...app.sessions.all()][0]!.model, { count: 0, removed: [] }, "the session keeps its model");
  } finally {
    app.close();
  }
});

test("a definition's own messages list is kept", async () => {
  const app = counter({ misspelt: true, messages: { Inc: true, Remove: true, Remvoe: true } });
  try {
    const { lines } = await logged(() => openTab(app));
    assert.ok(!lines.some((line) => line.includes("live.message")), lines.join("\n"));
  } finally {
    app.close();
  }
});

test("only the handlers' own names dispatch: a name inherited from Object is no handler", () => {
  const update = updateByMessage<number>({ Inc: (n) => n + 1 });
  assert.equal(update(1, "Inc", []), 2);
  for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
    assert.throws(() => update(1, name, []), { message: `update has no handler for the message ${JSON.stringify(name)}` });
  }
});

test("an update that is neither a function nor handlers is refused at once", () => {
  assert.throws(
    () => Live.app({ init: () => 0, update: 1 as never, view: () => Ui.h("p", {}, "x") }),
    { name: "TypeError", message: "Live.app needs { init, update, view } functions" },
  );
});
