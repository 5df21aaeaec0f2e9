/**
 * The pure session step (src/live/server/session/step.ts) under random sequences of events: it
 * never changes what it is given, takes no outSeq, keeps input seqs rising and within the tree,
 * acks only inputs the client was shown, processes a page's entry once, and its patches turn the
 * DOM of the previous render into the DOM of the next.
 */
import { diffTrees } from "../../src/live/diff/diff.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { JsonValue } from "../../src/json.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { forEachElement, type LiveTree } from "../../src/live/tree.ts";
import type { EventEntry, InputReport } from "../../src/live/server/http/body.ts";
import { initialState, type SessionState, snapshotOf, stateFromSnapshot } from "../../src/live/server/session/state.ts";
import { RECENT_PAGES, type StepContext, stepEvent, stepMessage } from "../../src/live/server/session/step.ts";
import { followRenames } from "../../src/live/server/session/rename-log.ts";
import { VersionedMap } from "../../src/live/server/session/versioned-map.ts";
import { Ui } from "../../src/ui/mod.ts";
import { applyPatches } from "../support/apply.ts";
import { canon, parse } from "../support/dom.ts";

type Model = { readonly count: number; readonly title: string; readonly showTitle: boolean; readonly items: readonly string[] };

const MESSAGES = ["Inc", "SetTitle", "Toggle", "Add", "Drop", "Boom", "Same", "Unheard"] as const;

function update(model: Model, msg: string, args: readonly JsonValue[]): Model {
  switch (msg) {
    case "Inc":
      return { ...model, count: model.count + 1 };
    case "SetTitle":
      return { ...model, title: String(args[0] ?? "").trim().toUpperCase() };
    case "Toggle":
      return { ...model, showTitle: !model.showTitle };
    case "Add":
      return { ...model, items: [...model.items, `item ${model.count}`] };
    case "Drop":
      return { ...model, items: model.items.slice(1) };
    case "Boom":
      throw new Error("update exploded");
    default:
      return model;
  }
}

function view(model: Model) {
  return Ui.h(
    "main",
    {},
    Ui.h("p", {}, `count ${model.count}`),
    model.showTitle ? Ui.h("input", { name: "title", value: model.title, onInput: "SetTitle" }) : null,
    Ui.h("ul", {}, model.items.map((item) => Ui.h("li", {}, Ui.h("input", { name: item, value: item, onInput: "SetTitle" })))),
    ...["Inc", "Toggle", "Add", "Drop", "Boom", "Same"].map((msg) => Ui.h("button", { onClick: msg }, msg)),
  );
}

const ctx: StepContext<Model> = {
  update,
  renderer: { render: (model) => assignIds(view(model)), diff: diffTrees },
  extraMessages: new Set(),
};
const start: Model = { count: 0, title: "", showTitle: true, items: ["a", "b"] };

/** The ids of the tree's inputs, and of its elements that handle `msg`. */
function idsIn(tree: LiveTree): { inputs: string[]; handlers: Map<string, string> } {
  const inputs: string[] = [], handlers = new Map<string, string>();
  forEachElement(tree, (el, id) => {
    if (el.tag === "input") inputs.push(id);
    for (const record of Object.values(el.handlers ?? {})) if (record) handlers.set(record.msg, id);
  });
  return { inputs, handlers };
}

/** One random event: which message, which page and seq, which inputs are reported (by position). */
const eventArb = fc.record({
  msg: fc.constantFrom(...MESSAGES),
  arg: fc.string({ maxLength: 6 }),
  page: fc.option(fc.constantFrom("p1", "p2", "p3"), { nil: undefined }),
  seq: fc.nat({ max: 12 }),
  byHandler: fc.boolean(),
  reports: fc.array(fc.record({ pick: fc.nat(), seq: fc.nat({ max: 20 }), value: fc.string({ maxLength: 4 }), stale: fc.boolean() }), {
    maxLength: 3,
  }),
  background: fc.boolean(),
});
type Event = typeof eventArb extends fc.Arbitrary<infer T> ? T : never;

function inputOf(event: Event, tree: LiveTree): { entry: EventEntry; inputs: Map<string, InputReport> } {
  const { inputs: inputIds, handlers } = idsIn(tree);
  const inputs = new Map<string, InputReport>();
  for (const report of event.reports) {
    // A stale report names an input the client showed earlier and the server no longer renders.
    const id = report.stale || inputIds.length === 0 ? `r.9${report.pick % 5}` : inputIds[report.pick % inputIds.length]!;
    inputs.set(id, { value: report.value, seq: report.seq });
  }
  const handlerId = event.byHandler ? handlers.get(event.msg) ?? "r.77" : undefined;
  return { entry: { seq: event.seq, msg: event.msg, args: [event.arg], handlerId }, inputs };
}

/**
 * What a state holds, as plain data: its input seqs are a versioned map (src/live/server/session/versioned-map.ts),
 * whose representation changes when an older version is read, not what it holds (sorted by id: the
 * order of its entries is not part of it).
 */
function observable<M>(state: SessionState<M>) {
  return { ...state, inputSeqs: [...state.inputSeqs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) };
}

test("the step never changes the state or tree it is given, and takes no outSeq", () => {
  fc.assert(
    fc.property(fc.array(eventArb, { maxLength: 25 }), (events) => {
      let state: SessionState<Model> = { ...initialState(start, 1000), outSeq: 7 };
      let tree = assignIds(view(start));
      for (const event of events) {
        const before = structuredClone(observable(state)), markup = render(tree);
        const { entry, inputs } = inputOf(event, tree);
        const stepped = event.background
          ? stepMessage(state, tree, [event.msg, event.arg], ctx)
          : stepEvent(state, tree, { entry, inputs, page: event.page }, ctx);
        assert.deepEqual(observable(state), before, "the state passed in is unchanged");
        assert.equal(render(tree), markup, "the tree passed in is unchanged");
        if (stepped.kind === "duplicate") continue;
        assert.equal(stepped.state.outSeq, 7, "the edge stamps frames, not the step");
        assert.equal(stepped.state.user, undefined);
        assert.equal(stepped.state.boundAt, 1000);
        state = stepped.state;
        if (stepped.kind === "applied") tree = stepped.tree;
      }
    }),
    { numRuns: 200 },
  );
});

test("input seqs only rise, stay within the rendered tree, and acks name only inputs the client was shown", () => {
  fc.assert(
    fc.property(fc.array(eventArb, { maxLength: 25 }), (events) => {
      let state = initialState(start, 0);
      let tree = assignIds(view(start));
      for (const event of events) {
        const { entry, inputs } = inputOf(event, tree);
        const stepped = stepEvent(state, tree, { entry, inputs, page: undefined }, ctx);
        if (stepped.kind !== "applied") {
          if (stepped.kind !== "duplicate") {
            assert.deepEqual([...stepped.state.inputSeqs], [...state.inputSeqs], "a refused or failed entry raises no seq");
          }
          continue;
        }
        const shown = new Set(idsIn(tree).inputs), kept = new Set(idsIn(stepped.tree).inputs);
        // A stored seq follows its input when a kids patch renames it (docs/protocol.md#ids-that-move):
        // compare under the ids the patches give the inputs.
        const before = followRenames(state.inputSeqs, stepped.patches);
        const reported = followRenames(new Map([...inputs].map(([id, report]) => [id, report.seq])), stepped.patches);
        for (const [id, seq] of stepped.state.inputSeqs) {
          assert.ok(kept.has(id), `input seq of ${id} kept only while it is rendered`);
          assert.ok(seq >= (before.get(id) ?? -1), "stored seqs never fall");
          assert.ok(seq >= (reported.get(id) ?? -1), "a reported seq is taken when higher");
        }
        for (const [id, seq] of Object.entries(stepped.ackInputs ?? {})) {
          assert.ok(inputs.has(id) && shown.has(id), `ack for ${id}: reported and shown`);
          assert.equal(seq, Math.max(state.inputSeqs.get(id) ?? -1, inputs.get(id)!.seq));
        }
        for (const id of inputs.keys()) {
          if (shown.has(id)) assert.ok(stepped.ackInputs && id in stepped.ackInputs, `a shown reported input ${id} is acked`);
        }
        state = stepped.state;
        tree = stepped.tree;
      }
    }),
    { numRuns: 200 },
  );
});

test("a page's entry is processed once: a seq at or below the page's highest is a duplicate; at most RECENT_PAGES pages are remembered", () => {
  fc.assert(
    fc.property(fc.array(fc.record({ page: fc.nat({ max: RECENT_PAGES + 4 }), seq: fc.nat({ max: 8 }) }), { maxLength: 60 }), (sends) => {
      let state = initialState(start, 0);
      const tree = assignIds(view(start));
      const highest = new Map<string, number>();
      for (const { page, seq } of sends) {
        const pageId = `page${page}`;
        const stepped = stepEvent(state, tree, {
          entry: { seq, msg: "Same", args: [], handlerId: undefined },
          inputs: new Map(),
          page: pageId,
        }, ctx);
        const known = highest.get(pageId);
        const expectDuplicate = seq > 0 && known !== undefined && seq <= known;
        assert.equal(stepped.kind === "duplicate", expectDuplicate, `page ${pageId} seq ${seq} after ${known}`);
        if (stepped.kind === "duplicate") continue;
        state = stepped.state;
        if (seq > 0) {
          highest.delete(pageId);
          highest.set(pageId, seq);
          if (highest.size > RECENT_PAGES) highest.delete(highest.keys().next().value!);
        }
        assert.deepEqual([...state.pageSeqs], [...highest]);
      }
    }),
    { numRuns: 300 },
  );
});

test("the step's patches turn the DOM of the previous render into the DOM of the next", () => {
  fc.assert(
    fc.property(fc.array(eventArb, { maxLength: 20 }), (events) => {
      let state = initialState(start, 0);
      let tree = assignIds(view(start));
      const dom = parse(render(tree));
      for (const event of events) {
        const entry = { seq: 0, msg: event.msg, args: [event.arg], handlerId: undefined };
        // No reported values: with them, the diff leaves what the client already shows.
        const stepped = event.background
          ? stepMessage(state, tree, [event.msg, event.arg], ctx)
          : stepEvent(state, tree, { entry, inputs: new Map(), page: undefined }, ctx);
        if (stepped.kind !== "applied") continue;
        applyPatches(dom, stepped.patches);
        assert.deepEqual(canon(dom), canon(parse(render(stepped.tree))));
        state = stepped.state;
        tree = stepped.tree;
      }
    }),
    { numRuns: 150 },
  );
});

test("a failing update or an unknown message leaves the model, tree and input seqs as they were", () => {
  const state = initialState(start, 0);
  const tree = assignIds(view(start));
  const inputs = new Map([[idsIn(tree).inputs[0]!, { value: "x", seq: 5 }]]);
  const boom = stepEvent(state, tree, { entry: { seq: 1, msg: "Boom", args: [], handlerId: undefined }, inputs, page: "p" }, ctx);
  assert.equal(boom.kind, "app_error");
  assert.ok(boom.kind === "app_error" && boom.error instanceof Error && boom.error.message === "update exploded");
  assert.equal(boom.kind === "app_error" && boom.state.model, start);
  assert.deepEqual(boom.kind === "app_error" && [...boom.state.inputSeqs], []);
  assert.deepEqual(boom.kind === "app_error" && [...boom.state.pageSeqs], [["p", 1]], "the entry's page seq is spent");
  const unknown = stepEvent(
    state,
    tree,
    { entry: { seq: 2, msg: "Unheard", args: [], handlerId: undefined }, inputs, page: undefined },
    ctx,
  );
  assert.equal(unknown.kind, "unknown_message");
  assert.equal(unknown.kind === "unknown_message" && unknown.state, state, "nothing at all changed");
  const extra = stepEvent(state, tree, { entry: { seq: 2, msg: "Unheard", args: [], handlerId: undefined }, inputs, page: undefined }, {
    ...ctx,
    extraMessages: new Set(["Unheard"]),
  });
  assert.equal(extra.kind, "applied", "a declared extra message is accepted");
});

test("a state survives its JSON snapshot: restored, it is the same value", () => {
  fc.assert(
    fc.property(fc.array(eventArb, { maxLength: 15 }), fc.option(fc.string({ minLength: 1 }), { nil: undefined }), (events, user) => {
      let state: SessionState<Model> = { ...initialState(start, 123), user, outSeq: 4 };
      let tree = assignIds(view(start));
      for (const event of events) {
        const { entry, inputs } = inputOf(event, tree);
        const stepped = stepEvent(state, tree, { entry, inputs, page: event.page }, ctx);
        if (stepped.kind === "duplicate") continue;
        state = stepped.state;
        if (stepped.kind === "applied") tree = stepped.tree;
      }
      const stored = JSON.parse(JSON.stringify(snapshotOf("sid", state, 99)));
      assert.equal(stored.id, "sid");
      assert.equal(stored.updatedAt, 99);
      const restored = stateFromSnapshot<Model>(stored);
      assert.deepEqual({ ...restored, inputSeqs: [...restored.inputSeqs] }, { ...state, inputSeqs: [...state.inputSeqs] });
    }),
    { numRuns: 100 },
  );
});

test("input seqs: the stored map is kept as it is when no reported seq rises, and a rise gives a new map with only that seq changed", () => {
  const tree = assignIds(view(start));
  const [title, first] = idsIn(tree).inputs;
  const stored = VersionedMap.of([[title!, 5], [first!, 2]]);
  const state: SessionState<Model> = { ...initialState(start, 1000), inputSeqs: stored };
  const step = (reports: [string, number][], msg = "Same") =>
    stepEvent(state, tree, {
      entry: { seq: 0, msg, args: [], handlerId: undefined },
      inputs: new Map(reports.map(([id, seq]) => [id, { value: "v", seq }])),
      page: undefined,
    }, ctx);
  for (const reports of [[], [[title!, 5]], [[title!, 3], [first!, 2]]] as [string, number][][]) {
    const stepped = step(reports);
    assert.equal(stepped.kind, "applied");
    assert.equal(stepped.kind === "applied" && stepped.state.inputSeqs, stored, `no rise in ${JSON.stringify(reports)}: the same map`);
  }
  const raised = step([[title!, 3], [first!, 9]]);
  assert.ok(raised.kind === "applied");
  assert.notEqual(raised.state.inputSeqs, stored);
  assert.deepEqual([...raised.state.inputSeqs], [[title!, 5], [first!, 9]]);
  assert.deepEqual(raised.ackInputs, { [title!]: 5, [first!]: 9 });
  assert.deepEqual([...stored], [[title!, 5], [first!, 2]], "the given map is never changed");
  // An update that throws keeps nothing of the report: the stored seqs are those before it.
  const failed = step([[first!, 11]], "Boom");
  assert.ok(failed.kind === "app_error");
  assert.equal(failed.state.inputSeqs, stored);
});
