/**
 * The eviction of stored input seqs from the event's patches (src/live/server/session/input-pruning.ts)
 * finds exactly the stored ids that are not in the new tree, as looking every one of them up would.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diff } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { findElement, forEachElement } from "../../src/live/tree.ts";
import { renderProbe } from "../../src/live/probe.ts";
import { inputsLeft } from "../../src/live/server/session/input-pruning.ts";
import { Ui } from "../../src/ui/mod.ts";
import { build, mutate, specArb } from "../support/trees.ts";

const bogus = fc.constantFrom("r.9#div", "r.0#div.7#span", "x", "r.", "r.0#div.~mq", "r.#input:nope");

test("the stored ids found gone are exactly those with no element in the new tree", () => {
  fc.assert(
    fc.property(
      specArb,
      fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.array(bogus, { maxLength: 3 }),
      (spec, picks, chosen, extra) => {
        const before = assignIds(build(spec));
        const after = assignIds(build(mutate(spec, picks)));
        // Stored: some ids of the old tree (every element may be an input), and what the event reported.
        const ids: string[] = [];
        forEachElement(before, (_, id) => ids.push(id));
        const reported = [...chosen.map((k) => ids[k % ids.length]!), ...extra];
        const seqs = new Map<string, number>();
        for (const k of chosen) seqs.set(ids[(k * 7) % ids.length]!, k);
        for (const id of reported) seqs.set(id, 1);
        const expected = [...seqs.keys()].filter((id) => findElement(after, id) === undefined).sort();
        assert.deepEqual(inputsLeft(seqs, { prev: before, tree: after, patches: diff(before, after) }, reported).sort(), expected);
      },
    ),
    { numRuns: 1000 },
  );
});

test("after patches of texts and attributes only, no stored id is looked up", () => {
  const rows = (edited: number) =>
    assignIds(
      Ui.h(
        "table",
        {},
        Ui.h(
          "tbody",
          {},
          ...Array.from({ length: 50 }, (_, i) =>
            Ui.h(
              "tr",
              {},
              Ui.h("td", {}, Ui.h("input", { name: `q${i}`, value: i === edited ? "x" : "" })),
              Ui.h("td", {}, i === edited ? "changed" : "total"),
            )),
        ),
      ),
    );
  const before = rows(-1);
  const after = rows(3);
  const seqs = new Map<string, number>();
  forEachElement(before, (el, id) => el.tag === "input" && seqs.set(id, 1));
  const patches = diff(before, after);
  assert.ok(patches.every((p) => Object.keys(p).every((k) => k === "id" || k === "text" || k === "attrs")), JSON.stringify(patches));
  // A new text in a cell of text takes no element away: the lookups are the patches', however many ids are stored.
  const visitsWith = (stored: ReadonlyMap<string, number>) => {
    const probe = renderProbe();
    assert.deepEqual(inputsLeft(stored, { prev: before, tree: after, patches }, [], probe), []);
    return probe.looked;
  };
  assert.equal(visitsWith(seqs), visitsWith(new Map([...seqs].slice(0, 1))));
});

test("a removed row's input is gone; the rows that stayed keep theirs", () => {
  const list = (count: number) =>
    assignIds(
      Ui.h("ul", {}, ...Array.from({ length: count }, (_, i) => Ui.h("li", { "svc-key": `k${i}` }, Ui.h("input", { name: `q${i}` })))),
    );
  const before = list(20);
  const after = list(19);
  const seqs = new Map<string, number>();
  forEachElement(before, (el, id) => el.tag === "input" && seqs.set(id, 1));
  assert.deepEqual(inputsLeft(seqs, { prev: before, tree: after, patches: diff(before, after) }, []), ["r.#li:k19.#input:q19"]);
});
