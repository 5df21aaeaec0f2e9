// The authority rule (docs/protocol.md#client-rules (rules 1, 2, 5, 6)) and each row of the
// per-input state table (docs/protocol.md#input-state).
// Each test runs with both browser clients (the split client shares these rules).
import assert from "node:assert/strict";
import { eachClient, json, type Page, ROOT, settle, TITLE } from "./support.ts";

const setTitle = (seq: number, value: string, ackInputs?: Record<string, number>) => ({
  seq,
  ...(ackInputs ? { ackInputs } : {}),
  patches: [{ id: TITLE, attrs: { value, class: `v${seq}` } }],
});

eachClient("rule 1 case 1: a dirty input (debounce pending) keeps its value; the patch's other attributes apply", async (page) => {
  const p = page(ROOT, { options: { debounceMs: 1000 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "typed");
  p.sse.frame(setTitle(1, "server"));
  assert.equal(title.value, "typed");
  assert.equal(title.getAttribute("class"), "v1");
  assert.equal(p.client.inputs.of(title)?.liveValue, "typed");
  await p.close();
});

eachClient("rule 1 case 1: an input whose send is not yet acked keeps its value", async (page) => {
  const p = page(ROOT, { options: { debounceMs: 0 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "ab");
  await p.waitFor(1);
  p.sse.frame(setTitle(1, "a")); // a frame from before the server saw "ab"
  assert.equal(title.value, "ab");
  await p.close();
});

eachClient("rule 1 case 1: an input with an open composition keeps its value", async (page) => {
  const p = page(ROOT);
  const title = p.el<HTMLInputElement>(TITLE);
  p.fire(title, "compositionstart");
  title.value = "か";
  p.fire(title, "input", { isComposing: true });
  p.sse.frame(setTitle(1, "server"));
  assert.equal(title.value, "か");
  await p.close();
});

eachClient("rule 1 case 2: a patch equal to the entry's liveValue is an echo and does not write the DOM", async (page) => {
  const p = page(ROOT, { options: { debounceMs: 0 } });
  const title = p.el<HTMLInputElement>(TITLE);
  title.focus();
  p.type(title, "same");
  title.setSelectionRange(1, 3);
  const req = await p.waitFor(1);
  req.respond(json(setTitle(1, "same", { [TITLE]: 1 })));
  await settle();
  assert.equal(title.value, "same");
  assert.deepEqual([title.selectionStart, title.selectionEnd], [1, 3], "the selection is untouched");
  await p.close();
});

eachClient("rule 1 case 3: a frame older than the entry's acknowledgement point is dropped whole", async (page) => {
  const p = page(ROOT);
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "v");
  const entry = p.client.inputs.of(title)!;
  entry.timer && clearTimeout(entry.timer);
  entry.timer = undefined;
  entry.pending = undefined;
  entry.ackFrame = 5;
  p.client.applier.patches([{ id: TITLE, attrs: { value: "old", class: "x" } }], 4);
  assert.equal(title.value, "v");
  assert.equal(title.hasAttribute("class"), false, "the whole patch is dropped");
  await p.close();
});

eachClient(
  "rule 1 case 4: once acked, a changed rendered value applies to the focused tracked input and liveValue follows",
  async (page) => {
    const p = page(ROOT, { options: { debounceMs: 5 } });
    const title = p.el<HTMLInputElement>(TITLE);
    title.focus();
    p.type(title, "abc");
    const req = await p.waitFor(1);
    req.respond(json(setTitle(1, "ABC", { [TITLE]: 1 })));
    await settle();
    assert.equal(title.value, "ABC");
    assert.equal(title.selectionStart, 3, "the caret stays where it was");
    assert.equal(p.client.inputs.of(title)?.liveValue, "ABC");
    assert.equal(p.doc.activeElement, title);
    await p.close();
  },
);

eachClient("rule 2: the ack in a frame is ingested before its patches, so a server-side clear in the same frame applies", async (page) => {
  const p = page(ROOT, { options: { debounceMs: 5 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "todo");
  await p.waitFor(1);
  p.sse.frame(setTitle(1, "", { [TITLE]: 1 }));
  assert.equal(title.value, "");
  assert.equal(title.hasAttribute("value"), false);
  await p.close();
});

eachClient("rule 2: a value patch arriving before its ack is dropped, and the next changed value after the ack applies", async (page) => {
  const p = page(ROOT, { options: { debounceMs: 0 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "x");
  await p.waitFor(1);
  p.sse.frame(setTitle(1, "background")); // not yet acked: dropped
  assert.equal(title.value, "x");
  p.sse.frame({ seq: 2, ackInputs: { [TITLE]: 1 }, patches: [] });
  p.sse.frame(setTitle(3, "later"));
  assert.equal(title.value, "later");
  await p.close();
});

eachClient("an ack above anything this page sent (an earlier page's seqs) counts only up to the request it answers", async (page) => {
  const p = page(ROOT, { options: { debounceMs: 0 } });
  const title = p.el<HTMLInputElement>(TITLE);
  p.type(title, "a");
  const first = await p.waitFor(1);
  first.respond(json({ seq: 1, ackInputs: { [TITLE]: 50 }, patches: [] }));
  await settle();
  assert.equal(p.client.inputs.of(title)?.lastAckedSeq, 1);
  p.type(title, "b");
  await p.waitFor(2);
  assert.equal(p.client.inputs.dirty(p.client.inputs.of(title)!), true, "the second send is still unacked");
  await p.close();
});

eachClient(
  "focus alone does not protect a tracked input; an untracked input is protected by focus plus typing since focus",
  async (page) => {
    const p = page(ROOT);
    const title = p.el<HTMLInputElement>(TITLE);
    title.focus();
    p.sse.frame(setTitle(1, "model"));
    assert.equal(title.value, "model", "tracked, focused, never typed: the model applies");

    const free = p.el<HTMLInputElement>("r.#input:free");
    free.focus();
    p.sse.frame({ seq: 2, patches: [{ id: "r.#input:free", attrs: { value: "one" } }] });
    assert.equal(free.value, "one", "focused but not typed: applies");
    p.type(free, "!");
    p.sse.frame({ seq: 3, patches: [{ id: "r.#input:free", attrs: { value: "two" } }] });
    assert.equal(free.value, "one!", "focused and typed: protected");
    free.blur();
    p.sse.frame({ seq: 4, patches: [{ id: "r.#input:free", attrs: { value: "three" } }] });
    assert.equal(free.value, "three", "after blur: applies");
    await p.close();
  },
);

eachClient("rule 1 governs checkboxes through checked and selects through their options' selected", async (page) => {
  const p = page(ROOT);
  const box = p.el<HTMLInputElement>("r.#input:done");
  box.click(); // checked, change sent and unacked
  const req = await p.waitFor(1);
  p.sse.frame({ seq: 1, patches: [{ id: "r.#input:done", attrs: { checked: "" } }] });
  assert.equal(box.checked, true, "unacked: kept");
  req.respond(json({ seq: 2, ackInputs: { "r.#input:done": 1 }, patches: [{ id: "r.#input:done", attrs: { checked: "" } }] }));
  await settle();
  assert.equal(box.checked, false, "acked and changed: applied");

  const select = p.el<HTMLSelectElement>("r.#select:size");
  select.value = "m";
  p.fire(select, "change");
  await p.waitFor(2);
  p.sse.frame({ seq: 3, patches: [{ id: "r.#select:size.0#option", attrs: { selected: "selected" } }] });
  assert.equal(select.value, "m", "unacked: the user's choice stays");
  await p.close();
});

eachClient("a textarea's text patch is its value under the authority rule", async (page) => {
  const p = page(ROOT, { options: { debounceMs: 1000 } });
  const body = p.el<HTMLTextAreaElement>("r.#textarea:body");
  p.sse.frame({ seq: 1, patches: [{ id: "r.#textarea:body", html: "a &amp; b" }] });
  assert.equal(body.value, "a & b", "untouched: applies");
  p.type(body, "!");
  p.sse.frame({ seq: 2, patches: [{ id: "r.#textarea:body", html: "server" }] });
  assert.equal(body.value, "a & b!", "dirty: kept");
  await p.close();
});

eachClient(
  "rule 5: a control's value is written only when the render changes it; an unchanged render leaves what was typed",
  async (page) => {
    const p = page(ROOT, { options: { debounceMs: 0 } });
    const title = p.el<HTMLInputElement>(TITLE);
    p.type(title, "  padded");
    const req = await p.waitFor(1);
    // The server normalised to the value the previous render showed: no patch, only the ack.
    req.respond(json({ seq: 1, ackInputs: { [TITLE]: 1 }, patches: [{ id: "r.0#p", text: "count 1" }] }));
    await settle();
    assert.equal(title.value, "  padded");
    await p.close();
  },
);

eachClient("rule 6: an uncontrolled field keeps what the user typed across re-renders of its form", async (page) => {
  const p = page(ROOT);
  const note = p.el<HTMLInputElement>("r.#form:f.#input:note");
  note.focus();
  p.type(note, "draft");
  p.sse.frame({
    seq: 1,
    patches: [{
      id: "r.#form:f",
      kids: [{ html: `<p svc-id="r.#form:f.0#p">hint</p>` }, { keep: "r.#form:f.#input:note", id: "r.#form:f.#input:note" }, {
        keep: "r.#form:f.1#button",
      }],
    }],
  });
  assert.equal(p.el("r.#form:f.#input:note"), note);
  assert.equal(note.value, "draft");
  assert.equal(p.doc.activeElement, note);
  await p.close();
});

eachClient(
  "state table: an input event sets liveValue, schedules a debounce with pendingSend, and the send clears it with lastSentSeq",
  async (page) => {
    const p = page(ROOT, { options: { debounceMs: 15 } });
    const title = p.el<HTMLInputElement>(TITLE);
    p.type(title, "q");
    const entry = p.client.inputs.of(title)!;
    assert.equal(entry.liveValue, "q");
    assert.notEqual(entry.timer, undefined);
    assert.equal(entry.pending?.msg, "SetTitle");
    assert.equal(entry.lastSentSeq, 0);
    const req = await p.waitFor(1);
    assert.equal(entry.timer, undefined);
    assert.equal(entry.pending, undefined);
    assert.equal(entry.lastSentSeq, 1);
    assert.deepEqual(req.body?.inputState, { [TITLE]: { value: "q", seq: 1 } });
    req.respond(json({ seq: 1, ackInputs: { [TITLE]: 1 }, patches: [] }));
    await settle();
    assert.equal(entry.lastAckedSeq, 1);
    // A lower ack never lowers it (max).
    p.sse.frame({ seq: 2, ackInputs: { [TITLE]: 0 }, patches: [] });
    assert.equal(entry.lastAckedSeq, 1);
    await p.close();
  },
);

/** Radio `i` of the group "color", a child of the root. */
const radio = (i: number, color: string, checked: boolean) =>
  `<input type="radio" name="color" value="${color}" svc-id="r.${i}#input:color" data-svc-hid="r.${i}#input:color" data-svc-on="change" data-svc-change='["SetColor","${color}"]'${
    checked ? ' checked="checked"' : ""
  }>`;

/** The user picks radio `el` on page `p`: it is checked, and its change fires. */
const pick = (p: Page, el: HTMLInputElement) => {
  el.checked = true;
  p.fire(el, "change");
};

eachClient(
  "a radio group is one choice: while the user's pick is unacked, a frame checking another radio of the group (or unchecking the pick) is dropped",
  async (page) => {
    const p = page(`<main svc-id="r">${radio(0, "red", true)}${radio(1, "green", false)}</main>`);
    const [red, green] = [p.el<HTMLInputElement>("r.0#input:color"), p.el<HTMLInputElement>("r.1#input:color")];
    pick(p, green);
    await p.waitFor(1);
    assert.equal(red.checked, false);
    // A frame from before the server saw the pick: red checked, green not.
    p.sse.frame({
      seq: 1,
      patches: [{ id: "r.0#input:color", attrs: { checked: "checked" } }, { id: "r.1#input:color", attrs: { checked: "" } }],
    });
    assert.deepEqual([red.checked, green.checked], [false, true], "the user's pick stands");
    // Once acked, the server's choice applies again.
    p.sse.frame({ seq: 2, ackInputs: { "r.1#input:color": 1 }, patches: [] });
    p.requests[0]!.respond(
      json({
        seq: 3,
        ackInputs: { "r.1#input:color": 1 },
        patches: [{ id: "r.0#input:color", attrs: { checked: "checked" } }, { id: "r.1#input:color", attrs: { checked: "" } }],
      }),
    );
    await settle();
    assert.deepEqual([red.checked, green.checked], [true, false]);
    await p.close();
  },
);

eachClient(
  "text typed again after a frame wrote the server's value is reported under a new seq, and no older frame writes over it",
  async (page) => {
    const p = page(ROOT, { options: { debounceMs: 0 } });
    const title = p.el<HTMLInputElement>(TITLE);
    p.type(title, "a");
    const first = await p.waitFor(1);
    assert.deepEqual(first.body?.inputState, { [TITLE]: { value: "a", seq: 1 } });
    first.respond(json({ seq: 1, ackInputs: { [TITLE]: 1 }, patches: [] }));
    await settle();
    // The server replaces the value (the input is clean: the frame is written).
    p.sse.frame(setTitle(2, "b"));
    assert.equal(title.value, "b");
    // The user types "a" again: the value reported before, but not what the server holds now.
    title.value = "";
    p.type(title, "a");
    const second = await p.waitFor(2);
    assert.deepEqual(second.body?.inputState, { [TITLE]: { value: "a", seq: 2 } }, "a new seq, not the acked one");
    // A frame from before the server saw the second "a" leaves it alone.
    p.sse.frame(setTitle(3, "c"));
    assert.equal(title.value, "a");
    await p.close();
  },
);

eachClient(
  "a radio picked again reports the pick under a new seq, even when the frame that unchecked it was dropped, and keeps it until acked",
  async (page) => {
    const p = page(`<main svc-id="r">${radio(0, "red", true)}${radio(1, "green", false)}${radio(2, "blue", false)}</main>`);
    const [red, green, blue] = [0, 1, 2].map((i) => p.el<HTMLInputElement>(`r.${i}#input:color`)) as [
      HTMLInputElement,
      HTMLInputElement,
      HTMLInputElement,
    ];
    const GREEN = "r.1#input:color";
    pick(p, green);
    (await p.waitFor(1)).respond(json({ seq: 1, ackInputs: { [GREEN]: 1 }, patches: [{ id: "r.0#input:color", attrs: { checked: "" } }] }));
    await settle();
    // Red, then blue at once: the server's answer to red unchecks green while blue's pick is
    // pending, so the authority rule drops it (the browser had unchecked green already).
    pick(p, red);
    const second = await p.waitFor(2);
    pick(p, blue);
    second.respond(json({ seq: 2, ackInputs: { "r.0#input:color": 2 }, patches: [{ id: GREEN, attrs: { checked: "" } }] }));
    const third = await p.waitFor(3);
    third.respond(json({ seq: 3, ackInputs: { "r.2#input:color": 3 }, patches: [{ id: "r.0#input:color", attrs: { checked: "" } }] }));
    await settle();
    assert.deepEqual([red.checked, green.checked, blue.checked], [false, false, true]);
    // Green again: the value it carried at seq 1, but the user's new pick.
    pick(p, green);
    const fourth = await p.waitFor(4);
    assert.deepEqual(fourth.body?.inputState, { [GREEN]: { value: "checked", seq: 4 } }, "a new seq, not the acked one");
    // A frame from before the server saw the pick: blue checked, green not. The pick stands.
    p.sse.frame({ seq: 4, patches: [{ id: "r.2#input:color", attrs: { checked: "checked" } }, { id: GREEN, attrs: { checked: "" } }] });
    assert.deepEqual([red.checked, green.checked, blue.checked], [false, true, false]);
    await p.close();
  },
);

eachClient(
  "a radio picked, another of its group, then the first again while requests wait: the last pick takes its own seq and no frame from before it unchecks it",
  async (page) => {
    const button = `<button svc-id="r.2#button" data-svc-hid="r.2#button" data-svc-on="click" data-svc-click="Inc">+</button>`;
    const p = page(`<main svc-id="r">${radio(0, "red", true)}${radio(1, "green", false)}${button}</main>`);
    const [red, green] = [0, 1].map((i) => p.el<HTMLInputElement>(`r.${i}#input:color`)) as [HTMLInputElement, HTMLInputElement];
    const [RED, GREEN] = ["r.0#input:color", "r.1#input:color"];
    // A click in flight; then green, red and green again, all three waiting behind it.
    p.el("r.2#button").click();
    const click = await p.waitFor(1);
    pick(p, green);
    pick(p, red);
    pick(p, green);
    await settle();
    click.respond(json({ seq: 1, patches: [] }));
    const first = await p.waitFor(2);
    assert.deepEqual([first.body?.msg, first.body?.args], ["SetColor", ["green", true]]);
    first.respond(json({ seq: 2, ackInputs: { [GREEN]: 2 }, patches: [{ id: RED, attrs: { checked: "" } }] }));
    const second = await p.waitFor(3);
    assert.deepEqual([second.body?.msg, second.body?.args], ["SetColor", ["red", true]]);
    // The server's answer to red, rendered before it saw green again: red checked, green not.
    const beforeLastPick = {
      seq: 3,
      ackInputs: { [RED]: 3, [GREEN]: 2 },
      patches: [{ id: RED, attrs: { checked: "checked" } }, { id: GREEN, attrs: { checked: "" } }],
    };
    second.respond(json(beforeLastPick));
    const third = await p.waitFor(4);
    assert.deepEqual([third.body?.msg, third.body?.args], ["SetColor", ["green", true]]);
    const reported = third.body?.inputState as Record<string, unknown> | undefined;
    assert.deepEqual(reported?.[GREEN], { value: "checked", seq: 4 }, "its own seq, not the first pick's");
    assert.deepEqual([red.checked, green.checked], [false, true], "the last pick stands");
    // The same frame again, late over the stream, changes nothing while the last pick is unacked.
    p.sse.frame(beforeLastPick);
    assert.deepEqual([red.checked, green.checked], [false, true]);
    third.respond(json({ seq: 4, ackInputs: { [RED]: 3, [GREEN]: 4 }, patches: [] }));
    await settle();
    assert.deepEqual([red.checked, green.checked], [false, true]);
    await p.close();
  },
);
