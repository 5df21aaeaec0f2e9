// The patch applier: each operation, their order, kids with keep / rename / html, rule 4 and
// desync (docs/protocol.md#patches, docs/protocol.md#client-rules and 5, docs/protocol.md#errors-and-statuses).
// Each test runs with both browser clients (the split client applies patches to its tree, then through the same code).
import assert from "node:assert/strict";
import type { Patch } from "../../src/protocol/mod.ts";
import { eachClient, ROOT, settle, status, TITLE } from "./support.ts";

const frame = (seq: number, patches: Patch[], ackInputs?: Record<string, number>) => ({
  seq,
  patches,
  ...(ackInputs ? { ackInputs } : {}),
});

/** Row `i` of the root `r` with a text and no input. */
const textRow = (i: number, text = "row") => `<div svc-id="r.${i}#div"><span svc-id="r.${i}#div.0#span">${text}</span></div>`;

/** Row `i` of the root `r` with an input that sends `msg`, and an element id when `id` is given. */
const inputRow = (i: number, msg = "T", id?: string) =>
  `<div svc-id="r.${i}#div"><input${id === undefined ? "" : ` id="${id}"`} svc-id="r.${i}#div.0#input" data-svc-input="${msg}"></div>`;

/** A page behind by two rows that arrived at the top: its input `r.1` is `r.3` in the render ahead. */
const twoRowsBehind = `<div svc-id="r">${textRow(0, "old")}${inputRow(1)}</div>`;
const twoRowsAhead = `<div svc-id="r">${textRow(0, "new b")}${textRow(1, "new a")}${textRow(2, "old")}${inputRow(3)}</div>`;

/**
 * A page with the typed-in field `mine` at `r.1`, and a render far ahead of it: two rows above, and
 * `r.1` is now the other field, which an id-only reconcile would take the dirty node for.
 */
const mineAtOne = `<div svc-id="r">${textRow(0)}${inputRow(1, "T", "mine")}${inputRow(2, "U", "other")}</div>`;
const mineAtThree = `<div svc-id="r">${textRow(0)}${inputRow(1, "U", "other")}${textRow(2)}${inputRow(3, "T", "mine")}</div>`;

eachClient("a text patch makes the text the element's only child", async (page) => {
  const p = page(ROOT);
  p.sse.frame(frame(1, [{ id: "r.0#p", text: "count <1>" }]));
  assert.equal(p.el("r.0#p").innerHTML, "count &lt;1&gt;");
  await p.close();
});

eachClient("an html patch sets the children from markup when no dirty input is inside", async (page) => {
  const p = page(ROOT);
  p.sse.frame(frame(1, [{ id: "r.3#ul", html: `<li svc-id="r.3#ul.0#li">x</li>` }]));
  assert.equal(p.el("r.3#ul").innerHTML, `<li svc-id="r.3#ul.0#li">x</li>`);
  await p.close();
});

eachClient("a replace patch swaps the element, and a replaced form's fields are new and empty", async (page) => {
  const p = page(ROOT);
  const note = p.el<HTMLInputElement>("r.#form:f.#input:note");
  note.value = "typed";
  p.sse.frame(
    frame(1, [{ id: "r.#form:f", replace: `<form svc-id="r.#form:f" name="f"><input svc-id="r.#form:f.#input:note" name="note"></form>` }]),
  );
  const fresh = p.el<HTMLInputElement>("r.#form:f.#input:note");
  assert.notEqual(fresh, note);
  assert.equal(fresh.value, "");
  assert.equal(note.isConnected, false);
  await p.close();
});

eachClient("a kids patch keeps existing nodes, inserts new markup in its slot and removes children not kept", async (page) => {
  const p = page(ROOT);
  const b = p.el("r.3#ul.#li:b");
  p.sse.frame(frame(1, [{ id: "r.3#ul", kids: [{ keep: "r.3#ul.#li:b" }, { html: `<li svc-id="r.3#ul.#li:c" svc-key="c">C</li>` }] }]));
  assert.equal(p.el("r.3#ul").innerHTML, `<li svc-id="r.3#ul.#li:b" svc-key="b">B</li><li svc-id="r.3#ul.#li:c" svc-key="c">C</li>`);
  assert.equal(p.el("r.3#ul.#li:b"), b, "the kept child is the same node");
  await p.close();
});

eachClient("a kids patch that reorders siblings keeps the focused input's node, focus and caret", async (page) => {
  const p = page(
    `<div svc-id="r"><p svc-id="r.#p:x" svc-key="x">x</p><input svc-id="r.#input:q" name="q"><p svc-id="r.#p:y" svc-key="y">y</p></div>`,
  );
  const q = p.el<HTMLInputElement>("r.#input:q");
  q.focus();
  q.value = "hello";
  q.setSelectionRange(2, 2);
  p.sse.frame(frame(1, [{ id: "r", kids: [{ keep: "r.#p:y" }, { keep: "r.#input:q" }, { keep: "r.#p:x" }] }]));
  assert.deepEqual(Array.from(p.el("r").children).map((c) => c.getAttribute("svc-id")), ["r.#p:y", "r.#input:q", "r.#p:x"]);
  assert.equal(p.doc.activeElement, q);
  assert.equal(q.value, "hello");
  assert.equal(q.selectionStart, 2);
  await p.close();
});

eachClient(
  "keep-and-rename rewrites every svc-id under the kept node (derived ids included), and later patches in the frame use the new id",
  async (page) => {
    // The page's markup leaves out the ids its places give (docs/protocol.md#derived-ids).
    const p = page(`<div svc-id="r"><section><button data-svc-click="Go">go</button></section></div>`);
    p.sse.frame(frame(1, [
      { id: "r", kids: [{ html: `<h1 svc-id="r.0#h1">t</h1>` }, { keep: "r.0#section", id: "r.1#section" }] },
      { id: "r.1#section.0#button", attrs: { title: "moved" } },
    ]));
    const button = p.el("r.1#section.0#button");
    assert.equal(button.getAttribute("title"), "moved");
    assert.equal(p.doc.querySelector('[svc-id="r.0#h1"]')?.textContent, "t");
    assert.equal(p.doc.querySelector('[svc-id^="r.0#section"]'), null);
    await p.close();
  },
);

eachClient("keep-and-rename moves the per-input entry to the new id, and the pending send follows", async (page) => {
  const p = page(
    `<div svc-id="r"><label svc-id="r.0#label"><input svc-id="r.0#label.#input:t" name="t" data-svc-hid="r.0#label.#input:t" data-svc-on="input" data-svc-input="T"></label></div>`,
    { options: { debounceMs: 30 } },
  );
  const input = p.el<HTMLInputElement>("r.0#label.#input:t");
  p.type(input, "ab");
  const entry = p.client.inputs.of(input)!;
  p.sse.frame(frame(1, [{ id: "r", kids: [{ html: '<hr svc-id="r.0#hr">' }, { keep: "r.0#label", id: "r.1#label" }] }]));
  assert.equal(p.client.inputs.get("r.1#label.#input:t"), entry);
  assert.equal(p.client.inputs.get("r.0#label.#input:t"), undefined);
  assert.equal(entry.liveValue, "ab");
  const req = await p.waitFor(1);
  assert.equal(req.body?.handlerId, "r.1#label.#input:t");
  assert.deepEqual(req.body?.inputState, { "r.1#label.#input:t": { value: "ab", seq: 1 } });
  await p.close();
});

eachClient(
  "the renames of one kids patch are one simultaneous mapping: a chain moves each entry and send once, and dirty inputs keep their typing",
  async (page) => {
    const row = (i: number) => inputRow(i, `T${i}`);
    const p = page(`<div svc-id="r">${row(0)}${row(1)}${row(2)}</div>`, { options: { debounceMs: 10_000 } });
    const inputs = [0, 1, 2].map((i) => p.el<HTMLInputElement>(`r.${i}#div.0#input`));
    p.type(inputs[0]!, "zero");
    p.type(inputs[1]!, "one");
    const [zero, one] = [p.client.inputs.of(inputs[0]!)!, p.client.inputs.of(inputs[1]!)!];
    // A row arrives at the top: r.0 -> r.1, r.1 -> r.2, r.2 -> r.3 in one patch; then the server writes
    // the (older) model values into the renamed inputs.
    p.sse.frame(frame(1, [
      {
        id: "r",
        kids: [{ html: `<p svc-id="r.0#p">new</p>` }, { keep: "r.0#div", id: "r.1#div" }, { keep: "r.1#div", id: "r.2#div" }, {
          keep: "r.2#div",
          id: "r.3#div",
        }],
      },
      { id: "r.1#div.0#input", attrs: { value: "server zero" } },
      { id: "r.2#div.0#input", attrs: { value: "server one" } },
      { id: "r.3#div.0#input", attrs: { value: "server two" } },
    ]));
    assert.deepEqual(inputs.map((i) => i.getAttribute("svc-id")), ["r.1#div.0#input", "r.2#div.0#input", "r.3#div.0#input"]);
    assert.deepEqual(
      inputs.map((i) => i.value),
      ["zero", "one", "server two"],
      "dirty inputs keep what was typed; the untouched one follows the server",
    );
    assert.equal(p.client.inputs.get("r.1#div.0#input"), zero);
    assert.equal(p.client.inputs.get("r.2#div.0#input"), one);
    assert.equal(p.client.inputs.get("r.0#div.0#input"), undefined);
    p.client.flushDebounced(true);
    const req = await p.waitFor(1);
    assert.deepEqual([req.body?.msg, req.body?.handlerId, req.body?.lastAppliedSeq], ["T0", "r.1#div.0#input", 1]);
    assert.deepEqual(req.body?.inputState, { "r.1#div.0#input": { value: "zero", seq: 1 }, "r.2#div.0#input": { value: "one", seq: 1 } });
    await p.close();
  },
);

eachClient(
  "a resync on a page behind a chain of renames moves its ids first (X-Svc-Moves), so the dirty input keeps its node and value",
  async (page) => {
    // The page shows frame 0; the render is at frame 2.
    const moves = JSON.stringify([
      { parent: "r", kept: [["r.0#div", "r.1#div"], ["r.1#div", "r.2#div"]] },
      { parent: "r", kept: [["r.1#div", "r.2#div"], ["r.2#div", "r.3#div"]] },
    ]);
    const p = page(twoRowsBehind, {
      options: { debounceMs: 10_000 },
      auto: (
        req,
      ) => (req.url.startsWith("/_svc/render")
        ? new Response(twoRowsAhead, { headers: { "Content-Type": "text/html", "X-Svc-Seq": "2", "X-Svc-Moves": moves } })
        : undefined),
    });
    const input = p.el<HTMLInputElement>("r.1#div.0#input");
    p.type(input, "typed");
    await p.client.resync();
    assert.equal(p.requests[0]?.url, "/_svc/render?since=0");
    assert.equal(input.isConnected, true, "the same node");
    assert.equal(input.getAttribute("svc-id"), "r.3#div.0#input");
    assert.equal(input.value, "typed");
    assert.equal(p.client.inputs.of(input)?.liveValue, "typed");
    assert.deepEqual(Array.from(p.doc.querySelectorAll("span")).map((s) => s.textContent), ["new b", "new a", "old"]);
    assert.equal(p.client.order.lastAppliedSeq, 2);
    await p.close();
  },
);

eachClient(
  "a stream's render event carries the moves since the stream's last frame: a dirty input keeps its node and its pending send",
  async (page) => {
    // The page shows frame 3; the render is at frame 40.
    const p = page(twoRowsBehind, { seq: 3, options: { debounceMs: 10_000 } });
    const input = p.el<HTMLInputElement>("r.1#div.0#input");
    p.type(input, "typed");
    p.sse.event("render", {
      seq: 40,
      html: twoRowsAhead,
      since: 3,
      moves: [{ parent: "r", kept: [["r.0#div", "r.2#div"], ["r.1#div", "r.3#div"]] }],
    });
    assert.equal(p.requests.length, 0, "adopted without a resync");
    assert.equal(input.isConnected, true, "the same node");
    assert.equal(input.getAttribute("svc-id"), "r.3#div.0#input");
    assert.equal(input.value, "typed");
    assert.deepEqual(Array.from(p.doc.querySelectorAll("span")).map((s) => s.textContent), ["new b", "new a", "old"]);
    p.client.flushDebounced(true);
    const req = await p.waitFor(1);
    assert.deepEqual([req.body?.msg, req.body?.args, req.body?.handlerId, req.body?.lastAppliedSeq], [
      "T",
      ["typed"],
      "r.3#div.0#input",
      40,
    ]);
    await p.close();
  },
);

eachClient(
  "a resync whose render comes without moves (the log does not reach back) carries a dirty input's value, caret and pending send to the control with its identity",
  async (page) => {
    const p = page(mineAtOne, {
      options: { debounceMs: 10_000 },
      auto: (req) =>
        req.url.startsWith("/_svc/render")
          ? new Response(mineAtThree, { headers: { "Content-Type": "text/html", "X-Svc-Seq": "400" } })
          : undefined,
    });
    const mine = p.el<HTMLInputElement>("r.1#div.0#input");
    mine.focus();
    p.type(mine, "typed");
    mine.setSelectionRange(2, 2);
    await p.client.resync();
    assert.equal(p.requests[0]?.url, "/_svc/render?since=0");
    const now = p.doc.getElementById("mine") as unknown as HTMLInputElement;
    assert.equal(now.getAttribute("svc-id"), "r.3#div.0#input");
    assert.equal(now.value, "typed", "the typed value is on the control with its identity");
    assert.equal((p.doc.getElementById("other") as unknown as HTMLInputElement).value, "", "and not on the other field");
    assert.equal(p.doc.activeElement, now, "focus follows");
    assert.deepEqual([now.selectionStart, now.selectionEnd], [2, 2], "so does the caret");
    assert.equal(p.client.inputs.of(now)?.liveValue, "typed");
    p.client.flushDebounced(true);
    const req = await p.waitFor(2);
    assert.deepEqual([req.body?.msg, req.body?.args, req.body?.handlerId, req.body?.lastAppliedSeq], [
      "T",
      ["typed"],
      "r.3#div.0#input",
      400,
    ]);
    assert.deepEqual(req.body?.inputState, { "r.3#div.0#input": { value: "typed", seq: 1 } });
    assert.deepEqual(p.logs, []);
    await p.close();
  },
);

eachClient(
  "a resync without moves that keeps a dirty, focused input on its node leaves its caret where the user had it, whatever value the render's markup shows",
  async (page) => {
    // The render says what the model had before the user's latest keys (docs/protocol.md#client-rules, G1).
    const behind = mineAtOne.replace('id="mine"', 'id="mine" value="keep e"');
    const p = page(mineAtOne, {
      options: { debounceMs: 10_000 },
      auto: (req) =>
        req.url.startsWith("/_svc/render")
          ? new Response(behind, { headers: { "Content-Type": "text/html", "X-Svc-Seq": "400" } })
          : undefined,
    });
    const mine = p.el<HTMLInputElement>("r.1#div.0#input");
    mine.focus();
    p.type(mine, "keep every key");
    await p.client.resync();
    assert.equal(p.requests[0]?.url, "/_svc/render?since=0");
    assert.equal(p.doc.getElementById("mine"), mine, "the same node");
    assert.equal(mine.value, "keep every key");
    assert.equal(p.doc.activeElement, mine);
    assert.deepEqual([mine.selectionStart, mine.selectionEnd], [14, 14], "the caret stays at the end of what was typed");
    await p.close();
  },
);

eachClient(
  "an event refused 410 handler-gone leaves its input dirty; the gap that follows resyncs, and a render without moves still keeps the typed value",
  async (page) => {
    const p = page(mineAtOne, {
      auto: (req) =>
        req.url.startsWith("/_svc/render")
          ? new Response(mineAtThree, { headers: { "Content-Type": "text/html", "X-Svc-Seq": "9" } })
          : req.url.endsWith("/_svc/event") && req.body?.seq === 1
          ? status(410, "handler-gone")
          : undefined,
    });
    p.type(p.el<HTMLInputElement>("r.1#div.0#input"), "typed");
    const refused = await p.waitFor(1);
    assert.equal(refused.body?.msg, "T");
    await settle();
    assert.equal(p.requests.length, 1, "with the stream open, no render yet: its frames are on their way");
    p.sse.frame({ seq: 9, patches: [] }); // frames 1-8 do not come: a gap, then a resync
    const resync = await p.waitFor(2);
    assert.equal(resync.url, "/_svc/render?since=0");
    await settle();
    const mine = p.doc.getElementById("mine") as unknown as HTMLInputElement;
    assert.equal(mine.getAttribute("svc-id"), "r.3#div.0#input");
    assert.equal(mine.value, "typed");
    assert.equal((p.doc.getElementById("other") as unknown as HTMLInputElement).value, "");
    // The next event carries the still unacked value under the input's id now.
    p.type(mine, "!");
    p.client.flushDebounced(true);
    const next = await p.waitFor(3);
    assert.deepEqual([next.body?.handlerId, next.body?.args, next.body?.lastAppliedSeq], ["r.3#div.0#input", ["typed!"], 9]);
    await p.close();
  },
);

eachClient("attrs set and remove attributes; removing disabled, checked and value resets the DOM properties", async (page) => {
  const p = page(
    `<div svc-id="r"><input svc-id="r.0#input" value="v" disabled><input type="checkbox" svc-id="r.1#input" checked><span svc-id="r.2#span" title="t"></span></div>`,
  );
  const text = p.el<HTMLInputElement>("r.0#input");
  const box = p.el<HTMLInputElement>("r.1#input");
  text.value = "changed";
  p.sse.frame(frame(1, [
    { id: "r.0#input", attrs: { value: "", disabled: "" } },
    { id: "r.1#input", attrs: { checked: "" } },
    { id: "r.2#span", attrs: { title: "", class: "on" } },
  ]));
  assert.equal(text.hasAttribute("value"), false);
  assert.equal(text.value, "");
  assert.equal(text.disabled, false);
  assert.equal(box.checked, false);
  assert.equal(p.el("r.2#span").outerHTML, `<span svc-id="r.2#span" class="on"></span>`);
  await p.close();
});

eachClient("removing selected resets the option's selected property", async (page) => {
  const p = page(
    `<div svc-id="r"><select svc-id="r.0#select"><option svc-id="r.0#select.0#option" value="a">a</option><option svc-id="r.0#select.1#option" value="b" selected>b</option></select></div>`,
  );
  p.sse.frame(
    frame(1, [{ id: "r.0#select.1#option", attrs: { selected: "" } }, { id: "r.0#select.0#option", attrs: { selected: "selected" } }]),
  );
  assert.equal(p.el<HTMLSelectElement>("r.0#select").value, "a");
  assert.equal(p.el<HTMLOptionElement>("r.0#select.1#option").selected, false);
  await p.close();
});

eachClient("a remove patch takes the element out and deletes the entries of the inputs inside", async (page) => {
  const p = page(ROOT);
  p.type(p.el<HTMLInputElement>("r.#form:f.#input:note"), "n");
  assert.ok(p.client.inputs.get("r.#form:f.#input:note"));
  p.sse.frame(frame(1, [{ id: "r.#form:f", remove: true }]));
  assert.equal(p.doc.querySelector('[svc-id="r.#form:f"]'), null);
  assert.equal(p.client.inputs.get("r.#form:f.#input:note"), undefined);
  await p.close();
});

eachClient("the operations of one patch apply in the order replace, text, html, kids, attrs, remove", async (page) => {
  const p = page(`<div svc-id="r"><p svc-id="r.0#p">old</p><p svc-id="r.1#p">gone</p></div>`);
  // replace then attrs: the attrs land on the new element.
  p.sse.frame(frame(1, [
    { id: "r.0#p", replace: `<p svc-id="r.0#p">new</p>`, attrs: { class: "x" } },
    // html then kids: kids reconciles the children html produced.
    { id: "r.1#p", html: `<b svc-id="r.1#p.0#b">b</b><i svc-id="r.1#p.1#i">i</i>`, kids: [{ keep: "r.1#p.1#i" }] },
  ]));
  assert.equal(p.el("r").innerHTML, `<p svc-id="r.0#p" class="x">new</p><p svc-id="r.1#p"><i svc-id="r.1#p.1#i">i</i></p>`);
  // attrs then remove: the element ends up removed.
  p.sse.frame(frame(2, [{ id: "r.1#p", attrs: { class: "y" }, remove: true }]));
  assert.equal(p.el("r").innerHTML, `<p svc-id="r.0#p" class="x">new</p>`);
  await p.close();
});

eachClient(
  "an html patch at an ancestor of a dirty input reconciles element by element and keeps the input's node, value, focus and caret",
  async (page) => {
    const p = page(
      `<div svc-id="r"><div svc-id="r.0#div"><input svc-id="r.0#div.#input:q" name="q" data-svc-hid="r.0#div.#input:q" data-svc-on="input" data-svc-input="Q"><b svc-id="r.0#div.1#b">0 hits</b></div></div>`,
      { options: { debounceMs: 1000 } },
    );
    const q = p.el<HTMLInputElement>("r.0#div.#input:q");
    q.focus();
    p.type(q, "abc");
    q.setSelectionRange(1, 1);
    p.sse.frame(
      frame(1, [{
        id: "r.0#div",
        html:
          `<input svc-id="r.0#div.#input:q" name="q" value="a" data-svc-hid="r.0#div.#input:q" data-svc-on="input" data-svc-input="Q">raw <b svc-id="r.0#div.1#b">3 hits</b>`,
      }]),
    );
    assert.equal(p.el("r.0#div.#input:q"), q, "the same node");
    assert.equal(q.value, "abc");
    assert.equal(p.doc.activeElement, q);
    assert.equal(q.selectionStart, 1);
    assert.equal(p.el("r.0#div").textContent, "raw 3 hits");
    await p.close();
  },
);

eachClient("a keep whose node is missing is a desync: the client resyncs from a full render and keeps the dirty input", async (page) => {
  const p = page(
    `<div svc-id="r"><input svc-id="r.#input:q" name="q" data-svc-hid="r.#input:q" data-svc-on="input" data-svc-input="Q"><p svc-id="r.1#p">1</p></div>`,
    {
      options: { debounceMs: 1000 },
      auto: (req) =>
        req.url.split("?")[0]!.endsWith("/_svc/render")
          ? new Response(
            `<div svc-id="r"><input svc-id="r.#input:q" name="q" value="server" data-svc-hid="r.#input:q" data-svc-on="input" data-svc-input="Q"><p svc-id="r.1#p">9</p></div>`,
            { headers: { "Content-Type": "text/html", "X-Svc-Seq": "7" } },
          )
          : undefined,
    },
  );
  const q = p.el<HTMLInputElement>("r.#input:q");
  p.type(q, "mine");
  p.sse.frame(frame(1, [{ id: "r", kids: [{ keep: "r.#input:gone" }] }]));
  await settle();
  const render = p.requests.find((r) => r.url.split("?")[0] === "/_svc/render");
  assert.ok(render, "GET /_svc/render was requested");
  assert.equal(render.headers["X-Svc-Csrf"], "tok");
  assert.equal(p.el("r.#input:q"), q);
  assert.equal(q.value, "mine");
  assert.equal(p.el("r.1#p").textContent, "9");
  assert.equal(p.client.order.lastAppliedSeq, 7);
  // Frames the render already contains are dropped; the next one applies.
  p.sse.frame(frame(7, [{ id: "r.1#p", text: "stale" }]));
  p.sse.frame(frame(8, [{ id: "r.1#p", text: "10" }]));
  assert.equal(p.el("r.1#p").textContent, "10");
  await p.close();
});

eachClient("a full-HTML reply replaces the root and takes its seq and acks from the headers", async (page) => {
  // A gap wait far above settle(), so a loaded machine does not resync before frames 1-3 come.
  const p = page(ROOT, { options: { debounceMs: 0, gapMs: 10_000 } });
  p.type(p.el<HTMLInputElement>(TITLE), "x");
  const req = await p.waitFor(1);
  req.respond(
    new Response(`<section svc-id="r"><p svc-id="r.0#p">done</p></section>`, {
      headers: { "Content-Type": "text/html; charset=utf-8", "X-Svc-Seq": "4", "X-Svc-Ack-Inputs": JSON.stringify({ [TITLE]: 1 }) },
    }),
  );
  await settle();
  assert.equal(p.client.order.lastAppliedSeq, 0, "seq 4 waits for frames 1-3");
  assert.equal(p.client.inputs.get(TITLE)?.lastAckedSeq, 0);
  p.sse.frame(frame(1, []));
  p.sse.frame(frame(2, []));
  p.sse.frame(frame(3, []));
  assert.equal(p.client.order.lastAppliedSeq, 4);
  assert.equal(p.doc.body.innerHTML, `<section svc-id="r"><p svc-id="r.0#p">done</p></section>`);
  await p.close();
});
