// One patch interpreter, two targets (client/patch.ts): the live client's DOM and the split
// client's tree are written by the same reading of each frame. Every operation a target receives
// is recorded, with its arguments and results named by id, through the appliers the clients use
// (the live client's Applier, the split client's SplitApplier with its tree and its DOM); for the
// same frame the three records are the same list. FC_SEED replays a run.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Window } from "happy-dom";
import { diff } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { ID_ATTR, type Move, type Patch } from "../../src/protocol/mod.ts";
import { Applier } from "../../client/apply.ts";
import { fillPage } from "../../client/dom.ts";
import { InputTable } from "../../client/inputs.ts";
import { SplitApplier } from "../../client/split/apply.ts";
import type { TreeNode } from "../../client/split/tree.ts";
import { domSettled } from "../support/dom.ts";
import { build, mutate, specArb } from "../support/trees.ts";

const seed = Number(process.env["FC_SEED"] ?? Date.now() % 2 ** 31);
console.log(`patch interpreter property: fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

/** The operations of a patch target that write or read the page for the interpreter. */
const OPS = ["stale", "replace", "text", "html", "keyed", "parse", "rename", "place", "attrs", "remove"] as const;
/** Operations whose result the interpreter goes on with, recorded after the arrow. */
const ANSWERING = new Set<string>(["replace", "keyed", "parse"]);

type Entry = unknown[];

/** A DOM node or a tree node, named as both targets can: its id, or its tag, text or comment. */
function nameOf(node: Node | TreeNode): string {
  if ("kind" in node) {
    if (node.kind === "element") return node.id ?? `<${node.tag}>`;
    return `#${node.kind} ${node.text}`;
  }
  if (node.nodeType === 1) return (node as Element).getAttribute(ID_ATTR) ?? `<${(node as Element).localName}>`;
  return `${node.nodeType === 3 ? "#text" : "#comment"} ${node.nodeValue}`;
}

/** An argument or a result, with every node in it named. */
function shown(value: unknown): unknown {
  if (value === undefined || typeof value === "string" || typeof value === "boolean") return value;
  if (value instanceof Map) return [...value.keys()];
  if (Array.isArray(value)) return value.map(shown);
  const v = value as Record<string, unknown>;
  if ("kind" in v || typeof v["nodeType"] === "number") return nameOf(value as Node | TreeNode);
  return { ...v };
}

/** Records every operation the interpreter calls on `target`, in order. */
function record(target: object): Entry[] {
  const log: Entry[] = [];
  const t = target as Record<string, (...args: unknown[]) => unknown>;
  for (const op of OPS) {
    const original = t[op] as (...args: unknown[]) => unknown;
    assert.equal(typeof original, "function", `the target has ${op}`);
    t[op] = (...args: unknown[]) => {
      const entry: Entry = [op, ...args.map(shown)];
      log.push(entry);
      const result = original.apply(target, args);
      if (ANSWERING.has(op)) entry.push("=>", shown(result));
      return result;
    };
  }
  return log;
}

/** A document of its own holding `markup` in its body, ids filled in. */
function pageOf(markup: string): Document {
  const win = new Window({ url: "http://app.test/" });
  const doc = win.document as unknown as Document;
  doc.body.innerHTML = markup;
  fillPage(doc);
  return doc;
}

/** A live client's applier and a split client's, each on its own copy of `markup`, all three targets recorded. */
function appliers(markup: string) {
  const livePage = pageOf(markup);
  const splitPage = pageOf(markup);
  const live = new Applier(livePage, new InputTable(livePage));
  const split = new SplitApplier(splitPage, new InputTable(splitPage));
  return { live, split, logs: { dom: record(live.target), tree: record(split.tree), splitDom: record(split.dom.target) } };
}

/** The records since the last call, emptied. */
function taken<K extends string>(logs: Record<K, Entry[]>): Record<K, Entry[]> {
  const out = {} as Record<K, Entry[]>;
  for (const name of Object.keys(logs) as K[]) out[name] = logs[name].splice(0);
  return out;
}

const LIST = `<main svc-id="r"><p svc-id="r.0#p">a</p><p svc-id="r.1#p">b</p><p svc-id="r.2#p">c</p>` +
  `<div svc-id="r.3#div"><input svc-id="r.3#div.0#input" value="x"></div><textarea svc-id="r.4#textarea">t</textarea></main>`;

test("for one frame with every operation, the DOM and the tree receive the same operations in the wire order", () => {
  const { live, split, logs } = appliers(LIST);
  const patches: Patch[] = [
    { id: "r.0#p", replace: `<p svc-id="r.0#p">A</p>`, attrs: { class: "x" } },
    {
      id: "r",
      kids: [
        { html: `<p svc-id="r.0#p">new</p>` },
        { keep: "r.0#p", id: "r.1#p" },
        { keep: "r.1#p", id: "r.2#p" },
        { keep: "r.2#p", id: "r.3#p" },
        { keep: "r.3#div", id: "r.4#div" },
        { keep: "r.4#textarea", id: "r.5#textarea" },
      ],
    },
    { id: "r.4#div.0#input", attrs: { value: "y" } },
    { id: "r.5#textarea", text: "u" },
    { id: "r.3#p", html: `<b>bold</b>` },
    { id: "r.2#p", remove: true },
  ];
  live.patches(patches, 1);
  split.patches(patches, 1);
  const { dom, tree, splitDom } = taken(logs);
  const expected: Entry[] = [
    ["replace", "r.0#p", `<p svc-id="r.0#p">A</p>`, "=>", "r.0#p"],
    ["attrs", "r.0#p", { class: "x" }],
    ["keyed", "r", "=>", ["r.0#p", "r.1#p", "r.2#p", "r.3#div", "r.4#textarea"]],
    ["parse", "r", `<p svc-id="r.0#p">new</p>`, "=>", ["r.0#p"]],
    ["rename", [
      ["r.0#p", "r.0#p", "r.1#p"],
      ["r.1#p", "r.1#p", "r.2#p"],
      ["r.2#p", "r.2#p", "r.3#p"],
      ["r.3#div", "r.3#div", "r.4#div"],
      ["r.4#textarea", "r.4#textarea", "r.5#textarea"],
    ]],
    ["place", "r", ["r.0#p", "r.1#p", "r.2#p", "r.3#p", "r.4#div", "r.5#textarea"]],
    ["stale", "r.4#div.0#input", { value: "y" }],
    ["attrs", "r.4#div.0#input", { value: "y" }],
    ["text", "r.5#textarea", "u"],
    ["html", "r.3#p", "<b>bold</b>"],
    ["remove", "r.2#p"],
  ];
  // The first patch's replace comes before its attrs, and a replace is never checked for staleness.
  assert.deepEqual(tree, expected);
  assert.deepEqual(dom, expected);
  assert.deepEqual(splitDom, expected);
});

test("the moves replayed before a full render reach the DOM and the tree as the same operations", () => {
  const { live, split, logs } = appliers(LIST);
  const moves: Move[] = [{ gone: "r.0#p" }, {
    parent: "r",
    kept: [["r.1#p", "r.0#p"], ["r.2#p", "r.1#p"], ["r.4#textarea", "r.4#textarea"]],
  }];
  live.move(moves);
  split.move(moves);
  const { dom, tree, splitDom } = taken(logs);
  const expected: Entry[] = [
    ["remove", "r.0#p"],
    ["keyed", "r", "=>", ["r.1#p", "r.2#p", "r.3#div", "r.4#textarea"]],
    ["remove", "r.3#div"],
    ["rename", [["r.1#p", "r.1#p", "r.0#p"], ["r.2#p", "r.2#p", "r.1#p"]]],
  ];
  assert.deepEqual(tree, expected);
  assert.deepEqual(dom, expected);
  assert.deepEqual(splitDom, expected);
});

test("over random trees and edits, frame after frame, the live client's DOM, the split client's tree and its DOM receive the same operations", async () => {
  const seen = new Set<string>();
  await fc.assert(
    fc.asyncProperty(
      specArb,
      fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
      async (spec, edits) => {
        await domSettled();
        let prev = assignIds(build(spec));
        const { live, split, logs } = appliers(render(prev));
        let current = spec;
        for (const [i, picks] of edits.entries()) {
          current = mutate(current, picks);
          const next = assignIds(build(current));
          const patches = diff(prev, next);
          live.patches(patches, i + 1);
          split.patches(patches, i + 1);
          const { dom, tree, splitDom } = taken(logs);
          assert.deepEqual(tree, dom);
          assert.deepEqual(splitDom, dom);
          for (const [op] of dom) seen.add(op as string);
          prev = next;
        }
      },
    ),
    { seed, numRuns: 150 },
  );
  // The runs reached every operation, so the records were compared on all of them.
  assert.deepEqual([...seen].sort(), [...OPS].sort());
});
