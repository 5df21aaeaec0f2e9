// The split client's tree and applier (docs/protocol.md#the-split-client): every patch applies to
// the page's tree first, then to the DOM; a kept or addressed node the DOM lost is built again from
// the tree in its place, with no request; only a node missing from the tree itself resyncs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Window } from "happy-dom";
import type { Patch } from "../../src/protocol/mod.ts";
import { Applier, Desync } from "../../client/apply.ts";
import { fillPage } from "../../client/dom.ts";
import { InputTable } from "../../client/inputs.ts";
import { SplitApplier } from "../../client/split/apply.ts";
import { markupOf } from "../../client/split/tree.ts";
import { canon } from "../support/dom.ts";
import { json, page, ROOT, settle } from "./support.ts";

/** A document holding `body`, with its ids filled in, and a split applier over it. */
function split(body: string) {
  const win = new Window({ url: "http://app.test/" });
  const doc = win.document as unknown as Document;
  doc.body.innerHTML = body;
  fillPage(doc);
  const inputs = new InputTable(doc);
  const applier = new SplitApplier(doc, inputs);
  const root = () => doc.querySelector(`[svc-id="r"]`) as Element;
  /** The tree's markup equals the DOM's: the DOM shows what the tree holds. */
  const agree = () => {
    const holder = doc.createElement("div");
    holder.innerHTML = markupOf(doc, applier.tree.root!);
    assert.deepEqual(canon(holder.firstChild!), canon(root()));
  };
  return { win, doc, inputs, applier, root, agree, el: (id: string) => doc.querySelector(`[svc-id="${id}"]`) };
}

const LIST = `<main svc-id="r"><p svc-id="r.0#p">a</p><p svc-id="r.1#p">b</p><p svc-id="r.2#p">c</p>` +
  `<div svc-id="r.3#div"><input svc-id="r.3#div.0#input" value="x"></div></main>`;

test("the tree reads the page with its derived ids, attributes, texts and handler messages", () => {
  const s = split(`<main svc-id="r"><p>t<b data-svc-click="Inc">x</b></p><input name="q" value="v"></main>`);
  const tree = s.applier.tree;
  assert.equal(tree.size, 4);
  const b = tree.get("r.0#p.1#b")!;
  assert.equal(b.tag, "b");
  assert.deepEqual([...b.attrs], [["data-svc-click", "Inc"]]);
  assert.deepEqual(tree.get("r.#input:q")!.attrs.get("value"), "v");
  s.agree();
});

test("each operation applies to the tree and then to the DOM, and both end as the render", () => {
  const s = split(ROOT);
  const patches: Patch[] = [
    { id: "r.0#p", text: "count <1>" },
    { id: "r.3#ul", kids: [{ keep: "r.3#ul.#li:b" }, { html: `<li svc-id="r.3#ul.#li:c" svc-key="c">C</li>` }] },
    { id: "r.2#button", attrs: { class: "big", "data-svc-click": "Dec" } },
    { id: "r.#form:f", replace: `<form svc-id="r.#form:f" name="f"><input svc-id="r.#form:f.#input:note" name="note"></form>` },
    { id: "r.#select:size", html: `<option value="l">L</option>` },
    { id: "r.6#input", remove: true },
  ];
  s.applier.patches(patches, 1);
  s.agree();
  assert.equal(s.applier.tree.get("r.0#p")!.kids.length, 1);
  assert.equal(s.applier.tree.get("r.2#button")!.attrs.get("data-svc-click"), "Dec");
  assert.equal(s.applier.tree.get("r.6#input"), undefined);
  assert.equal(s.applier.tree.get("r.#select:size.0#option")?.attrs.get("value"), "l", "html children take derived ids");
  assert.equal(s.applier.rebuilt, 0);
});

test("renames of one kids list are one simultaneous mapping in the tree: r.1 -> r.2 beside r.2 -> r.3", () => {
  const s = split(LIST);
  const [a, b, c] = ["r.0#p", "r.1#p", "r.2#p"].map((id) => s.el(id));
  s.applier.patches([{
    id: "r",
    kids: [
      { html: `<p svc-id="r.0#p">new</p>` },
      { keep: "r.0#p", id: "r.1#p" },
      { keep: "r.1#p", id: "r.2#p" },
      { keep: "r.2#p", id: "r.3#p" },
      { keep: "r.3#div", id: "r.4#div" },
    ],
  }], 1);
  s.agree();
  assert.deepEqual([s.el("r.1#p"), s.el("r.2#p"), s.el("r.3#p")], [a, b, c], "each node moved once");
  assert.equal(s.applier.tree.get("r.4#div.0#input")?.attrs.get("value"), "x", "a subtree's ids follow its root");
  assert.equal(s.applier.tree.get("r.3#div"), undefined);
  // A later patch of the same frame uses the new ids, in the tree and the DOM alike.
  s.applier.patches([{ id: "r.4#div.0#input", attrs: { value: "y" } }], 2);
  s.agree();
});

test("a kept node the DOM lost is built again from the tree in its place, with its subtree, and the patch applies", () => {
  const s = split(LIST);
  s.el("r.1#p")!.remove();
  s.el("r.3#div")!.remove();
  const patches: Patch[] = [{
    id: "r",
    kids: [{ html: `<p svc-id="r.0#p">new</p>` }, { keep: "r.0#p", id: "r.1#p" }, { keep: "r.1#p", id: "r.2#p" }, {
      keep: "r.2#p",
      id: "r.3#p",
    }, { keep: "r.3#div", id: "r.4#div" }],
  }, { id: "r.4#div.0#input", attrs: { class: "k" } }];
  s.applier.patches(patches, 1);
  s.agree();
  assert.equal(s.applier.rebuilt, 2);
  const expected = s.doc.createElement("div");
  expected.innerHTML = `<main svc-id="r"><p svc-id="r.0#p">new</p><p svc-id="r.1#p">a</p><p svc-id="r.2#p">b</p><p svc-id="r.3#p">c</p>` +
    `<div svc-id="r.4#div"><input svc-id="r.4#div.0#input" value="x" class="k"></div></main>`;
  assert.deepEqual(canon(s.root()), canon(expected.firstChild!));

  // The live client, on the same page and patches, has no tree to rebuild from: a desync.
  const win = new Window({ url: "http://app.test/" });
  const doc = win.document as unknown as Document;
  doc.body.innerHTML = LIST;
  doc.querySelector(`[svc-id="r.1#p"]`)!.remove();
  assert.throws(() => new Applier(doc, new InputTable(doc)).patches(patches, 1), Desync);
});

test("an element a patch addresses that the DOM lost is rebuilt between the right texts, its lost parent first", () => {
  const s = split(`<main svc-id="r"><p svc-id="r.0#p">one <b svc-id="r.0#p.1#b">two</b> three <i svc-id="r.0#p.3#i">x</i> end</p></main>`);
  s.el("r.0#p.3#i")!.remove();
  s.applier.patches([{ id: "r.0#p.3#i", text: "four" }], 1);
  s.agree();
  assert.equal(s.el("r.0#p")!.innerHTML, `one <b svc-id="r.0#p.1#b">two</b> three <i svc-id="r.0#p.3#i">four</i> end`);

  s.el("r.0#p")!.remove();
  s.applier.patches([{ id: "r.0#p.1#b", attrs: { title: "t" } }], 2);
  s.agree();
  assert.equal(s.applier.rebuilt, 2, "the lost paragraph is rebuilt from the tree, with its children");
});

test("a slot after raw HTML (a comment and elements without ids) is rebuilt after them", () => {
  const s = split(`<div svc-id="r"><!----><b>bold</b> tail<textarea svc-id="r.1#textarea"></textarea><p svc-id="r.2#p">p</p></div>`);
  s.el("r.1#textarea")!.remove();
  s.applier.patches([{ id: "r.1#textarea", html: "typed" }], 1);
  s.agree();
  assert.equal(s.root().innerHTML, `<!----><b>bold</b> tail<textarea svc-id="r.1#textarea">typed</textarea><p svc-id="r.2#p">p</p>`);
});

test("the keeps of a patch that also replaces, or sets html, name the children those made, in the tree and the DOM", () => {
  const s = split(`<div svc-id="r"><p svc-id="r.0#p">old</p><p svc-id="r.1#p">gone</p></div>`);
  s.applier.patches([
    { id: "r.0#p", replace: `<p svc-id="r.0#p">new</p>`, attrs: { class: "x" } },
    { id: "r.1#p", html: `<b svc-id="r.1#p.0#b">b</b><i svc-id="r.1#p.1#i">i</i>`, kids: [{ keep: "r.1#p.1#i" }] },
  ], 1);
  s.agree();
  assert.equal(s.root().innerHTML, `<p svc-id="r.0#p" class="x">new</p><p svc-id="r.1#p"><i svc-id="r.1#p.1#i">i</i></p>`);
  s.applier.patches([{ id: "r.1#p", attrs: { class: "y" }, remove: true }], 2);
  s.agree();
  assert.equal(s.applier.tree.get("r.1#p.1#i"), undefined);
});

test("a kept node a script moved or wrapped is taken back into its slot (the same node)", () => {
  const s = split(LIST);
  const b = s.el("r.1#p")!;
  const wrapper = s.doc.createElement("section");
  s.root().insertBefore(wrapper, b);
  wrapper.appendChild(b);
  s.applier.patches([{ id: "r", kids: [{ keep: "r.2#p" }, { keep: "r.1#p" }, { keep: "r.0#p" }, { keep: "r.3#div" }] }], 1);
  s.agree();
  assert.equal(s.el("r.1#p"), b);
  assert.equal(s.applier.rebuilt, 0);
});

test("removing an element the DOM already lost rebuilds nothing", () => {
  const s = split(LIST);
  s.el("r.2#p")!.remove();
  s.applier.patches([{ id: "r.2#p", remove: true }], 1);
  s.agree();
  assert.equal(s.applier.rebuilt, 0);
});

test("a patch or keep naming what the tree lacks is a desync", () => {
  const s = split(LIST);
  assert.throws(() => s.applier.patches([{ id: "r.9#p", text: "x" }], 1), Desync);
  assert.throws(() => s.applier.patches([{ id: "r", kids: [{ keep: "r.9#p" }] }], 1), Desync);
  // A keep of an element that is in the tree, but not a child of the patched one.
  assert.throws(() => s.applier.patches([{ id: "r.3#div", kids: [{ keep: "r.0#p" }] }], 1), Desync);
});

test("a full render replaces the tree, and the moves of a resync rename and remove in the tree as in the DOM", () => {
  const s = split(LIST);
  s.applier.move([{ gone: "r.0#p" }, { parent: "r", kept: [["r.1#p", "r.0#p"], ["r.2#p", "r.1#p"], ["r.3#div", "r.2#div"]] }]);
  s.agree();
  assert.deepEqual(s.applier.tree.root!.kids.map((k) => k.kind === "element" ? k.id : "text"), ["r.0#p", "r.1#p", "r.2#div"]);
  s.applier.root(`<main svc-id="r"><h1>fresh</h1></main>`, 5);
  s.agree();
  assert.equal(s.applier.tree.get("r.0#h1")?.kids.length, 1);
  assert.equal(s.applier.tree.size, 2);
});

test("a dirty input keeps what the user typed in the DOM while the tree takes the render's value", () => {
  const s = split(LIST);
  const input = s.el("r.3#div.0#input") as HTMLInputElement;
  input.value = "typed";
  const entry = s.inputs.ensure(input)!;
  entry.liveValue = "typed";
  entry.pending = { msg: "Set", args: [], handler: input, kind: "input" }; // a debounced send: dirty
  s.applier.patches([{ id: "r.3#div.0#input", attrs: { value: "server" } }], 1);
  assert.equal(input.value, "typed", "the authority rule holds in the DOM");
  assert.equal(s.applier.tree.get("r.3#div.0#input")!.attrs.get("value"), "server", "the tree is the session's render");
});

test("through the client: a frame whose kept nodes a script removed applies without a render request", async () => {
  const p = page(LIST, { split: true });
  p.el("r.1#p").remove();
  p.sse.frame({ seq: 1, patches: [{ id: "r", kids: [{ keep: "r.1#p" }, { keep: "r.0#p" }, { keep: "r.2#p" }, { keep: "r.3#div" }] }] });
  await settle();
  assert.deepEqual(Array.from(p.el("r").children).map((c) => c.textContent), ["b", "a", "c", ""]);
  assert.deepEqual(p.requests.filter((r) => r.url.includes("/_svc/render")), [], "no resync");
  assert.deepEqual(p.logs, []);
  await p.close();

  // The live client resyncs on the same frame.
  const live = page(LIST);
  live.el("r.1#p").remove();
  live.sse.frame({ seq: 1, patches: [{ id: "r", kids: [{ keep: "r.1#p" }, { keep: "r.0#p" }, { keep: "r.2#p" }, { keep: "r.3#div" }] }] });
  await settle();
  assert.equal(live.requests.filter((r) => r.url.includes("/_svc/render")).length, 1);
  await live.close();
});

test("through the client: a keep missing from the split client's tree resyncs from a render", async () => {
  const p = page(LIST, { split: true });
  p.sse.frame({ seq: 1, patches: [{ id: "r", kids: [{ keep: "r.7#p" }] }] });
  await settle();
  assert.equal(p.requests.filter((r) => r.url.includes("/_svc/render")).length, 1);
  await p.close();
});

test("through the client: values the server took with no patch (the page reported them) are in the tree, so a rebuilt slot shows them", async () => {
  const CONTROLS = `<main svc-id="r"><div svc-id="r.0#div">` +
    `<input svc-id="r.0#div.0#input" type="checkbox" data-svc-hid="r.0#div.0#input" data-svc-on="change" data-svc-change="SetDone">` +
    `<select svc-id="r.0#div.#select:size" name="size" data-svc-hid="r.0#div.#select:size" data-svc-on="change" data-svc-change="SetSize">` +
    `<option svc-id="r.0#div.#select:size.0#option" value="" selected="selected">choose</option>` +
    `<option svc-id="r.0#div.#select:size.1#option" value="m">medium</option></select>` +
    `<input svc-id="r.0#div.2#input" data-svc-hid="r.0#div.2#input" data-svc-on="input" data-svc-input="SetText">` +
    `<textarea svc-id="r.0#div.3#textarea" data-svc-hid="r.0#div.3#textarea" data-svc-on="input" data-svc-input="SetArea"></textarea>` +
    `</div><p svc-id="r.1#p">line</p></main>`;
  const p = page(CONTROLS, { split: true, options: { debounceMs: 0 } });
  // The user changes a control (one event: a click, a choice, a paste), and the event is answered
  // as the server does when its render took the reported value: an ack, and no patch for the value
  // (the page shows it already).
  let seq = 0;
  const changeAndAck = async (id: string, change: (el: HTMLInputElement) => void, kind: "change" | "input") => {
    const el = p.el<HTMLInputElement>(id);
    change(el);
    p.fire(el, kind);
    seq++;
    (await p.waitFor(seq)).respond(json({ seq, ackInputs: { [id]: seq }, patches: [] }));
    await settle();
  };
  await changeAndAck("r.0#div.0#input", (box) => (box.checked = true), "change");
  await changeAndAck("r.0#div.#select:size", (select) => (select.value = "m"), "change");
  await changeAndAck("r.0#div.2#input", (text) => (text.value = "hi"), "input");
  await changeAndAck("r.0#div.3#textarea", (area) => (area.value = "note"), "input");
  // A page script takes the controls' wrapper out; the next frame keeps it, and the split client
  // builds it again from its tree.
  p.el("r.0#div").remove();
  p.sse.frame({ seq: 5, patches: [{ id: "r", kids: [{ keep: "r.1#p" }, { keep: "r.0#div", id: "r.1#div" }] }] });
  await settle();
  assert.deepEqual(p.requests.filter((r) => r.url.includes("/_svc/render")), [], "no resync");
  assert.equal(p.el<HTMLInputElement>("r.1#div.0#input").checked, true, "the checkbox the user checked");
  assert.equal(p.el<HTMLSelectElement>("r.1#div.#select:size").value, "m", "the option the user chose");
  assert.equal(p.el<HTMLInputElement>("r.1#div.2#input").value, "hi", "the text the user typed");
  assert.equal(p.el<HTMLTextAreaElement>("r.1#div.3#textarea").value, "note", "the textarea's text");
  await p.close();
});
