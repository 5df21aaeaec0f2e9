/**
 * The form a session keeps its page in between events, held to plain objects: a session's render
 * and keep loop (src/live/server/session/render.ts, as the event path drives it) gives, event
 * after event, exactly what fresh renders of the same view give with no session memo at all.
 *
 * Whatever the session keeps (view objects today; a compact form of rows and subtrees later) and
 * however its memo matches the next render's `Ui.h` calls against it, at each event:
 *   1. its patches are the patches between two fresh renders, with the same reported values;
 *   2. they turn the page the browser holds into the fresh render of the new model;
 *   3. the kept tree renders as the fresh render: it means exactly the new page;
 *   4. every handler of the fresh render is found at its id in the kept tree, with its message.
 * The pages are random models of the row page (tests/support/row-page.ts) under random edits,
 * with values the browser reports and renders whose event failed (rendered, never kept) between;
 * the page is written with `Ui.h`, and again with `Ui.html` templates (holes in attributes, texts
 * and children, options of a select), its rows listed with `Ui.each` and parts built by `Ui.lazy`.
 * FC_SEED replays a run.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { diffTrees } from "../../src/live/diff/diff.ts";
import { assignIds } from "../../src/live/ids.ts";
import { render } from "../../src/live/render.ts";
import { KEPT_AS_BUILT_PER_KEEP } from "../../src/live/render-state/fold/fold-tree.ts";
import { SessionRender } from "../../src/live/server/session/render.ts";
import { findElement, forEachElement, handlerFor, type LiveTree } from "../../src/live/tree.ts";
import { EVENT_KINDS, ID_ATTR, type Patch } from "../../src/protocol/mod.ts";
import { applyPatches } from "../support/apply.ts";
import { canon, parse } from "../support/dom.ts";
import { partsIn } from "../support/folds.ts";
import {
  applyEdits,
  type Edit,
  editArb,
  type Model,
  modelOf,
  NOTES,
  type Start,
  startArb,
  templateView,
  VALUES,
  view as hView,
} from "../support/row-page.ts";
import type { UiElement } from "../../src/ui/node.ts";

const seed = Number(process.env["FC_SEED"] ?? Date.now() % 2 ** 31);
console.log(`compact-form property: fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

/**
 * One event: the model's edits (none for an event that changes nothing), the browser's report of
 * a control of the previous page (see `reportOf`), and edits of a render made before it whose
 * event then failed, so it was never kept.
 */
type Step = {
  readonly edits: readonly Edit[];
  readonly report: Report | null;
  readonly failed: readonly Edit[] | null;
};

/**
 * A typed report is the usual event: the user set a control, the message stores its value (the
 * edit, made before the step's others), and the browser reports that value. Any other report
 * names a control picked among all of them, with a value picked among its usual ones.
 */
type Report =
  | { readonly kind: "typed"; readonly edit: Edit; readonly at: number }
  | { readonly kind: "any"; readonly at: number; readonly value: number };

/** `arb` one time in `n`, else null. */
const oneIn = <T>(n: number, arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

/** The edits a user makes in a control: a row's value or checkbox, the query, the note, the "all" checkbox. */
const typedEditArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant("value" as const), at: fc.nat(), value: fc.constantFrom(...VALUES) }),
  fc.record({ op: fc.constant("toggle" as const), at: fc.nat() }),
  fc.constantFrom(...VALUES).map((query) => ({ op: "page" as const, page: { query } })),
  fc.constantFrom(...NOTES).map((note) => ({ op: "page" as const, page: { note } })),
  fc.boolean().map((all) => ({ op: "page" as const, page: { all } })),
);
const reportArb: fc.Arbitrary<Report> = fc.oneof(
  fc.record({ kind: fc.constant("typed" as const), edit: typedEditArb, at: fc.nat() }),
  fc.record({ kind: fc.constant("any" as const), at: fc.nat(), value: fc.nat() }),
);
const failedArb = fc.array(editArb, { minLength: 1, maxLength: 2 });

const stepArb: fc.Arbitrary<Step> = fc.record({
  edits: fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 6, arbitrary: fc.array(editArb, { minLength: 1, maxLength: 3 }) }),
  report: oneIn(3, reportArb),
  failed: oneIn(5, failedArb),
});

/** The step's edits, a typed report's first. */
const editsOf = (step: Step): readonly Edit[] => step.report?.kind === "typed" ? [step.report.edit, ...step.edits] : step.edits;

/** A page's controls: the elements whose values the browser reports, by id. */
function controlsOf(tree: LiveTree): { id: string; tag: string; checkbox: boolean }[] {
  const found: { id: string; tag: string; checkbox: boolean }[] = [];
  forEachElement(tree, (el, id) => {
    if (el.tag === "input" || el.tag === "textarea") found.push({ id, tag: el.tag, checkbox: el.attrs["type"] === "checkbox" });
  });
  return found;
}

/** The browser's report of `step`, on `tree`, the page of `model`, as the event path passes it to the diff; undefined for none. */
function reportOf(tree: LiveTree, model: Model, step: Step): Map<string, string> | undefined {
  const report = step.report;
  if (report === null) return undefined;
  const typed = report.kind === "typed" ? typedControl(model, report.edit) : undefined;
  if (typed !== undefined) {
    // The control is the one whose handler sends the message that stores its value.
    const ids: string[] = [];
    forEachElement(tree, (el, id) => {
      const record = el.handlers?.[typed.kind];
      if (record?.msg === typed.msg && (typed.arg === undefined || record.args[0] === typed.arg)) ids.push(id);
    });
    if (ids.length > 0) return new Map([[ids[report.at % ids.length]!, typed.value]]);
  }
  // Any control; also a typed report's when its control is not on the page (a row of no rows).
  const controls = controlsOf(tree);
  if (controls.length === 0) return undefined;
  const control = controls[report.at % controls.length]!;
  const value = report.kind === "any" ? report.value : 0;
  const values: readonly string[] = control.checkbox ? ["checked", ""] : control.tag === "textarea" ? NOTES : VALUES;
  return new Map([[control.id, values[value % values.length]!]]);
}

/** The control an edit of `model` sets, by its handler, and the value it shows after; undefined for other edits. */
function typedControl(
  model: Model,
  edit: Edit,
): { kind: "input" | "change"; msg: string; arg?: number; value: string } | undefined {
  const row = model.rows.length === 0 || !("at" in edit) ? undefined : model.rows[edit.at % model.rows.length]!;
  if (edit.op === "value" && row !== undefined) return { kind: "input", msg: "Edit", arg: row.id, value: edit.value };
  if (edit.op === "toggle" && row !== undefined) return { kind: "change", msg: "Check", arg: row.id, value: row.on ? "" : "checked" };
  if (edit.op !== "page") return undefined;
  if (edit.page.query !== undefined) return { kind: "input", msg: "SetQuery", value: edit.page.query };
  if (edit.page.note !== undefined) return { kind: "input", msg: "SetNote", value: edit.page.note };
  if (edit.page.all !== undefined) return { kind: "change", msg: "SetAll", value: edit.page.all ? "checked" : "" };
  return undefined;
}

/** The element of `page` with this id. */
function elementIn(page: Element, id: string): Element | undefined {
  if (page.getAttribute(ID_ATTR) === id) return page;
  for (const child of Array.from(page.children)) {
    const found = elementIn(child, id);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** What a control shows, as the browser reports it (docs/protocol.md#input-state). */
function shownBy(el: Element): string {
  if (el.tagName.toLowerCase() === "textarea") return el.textContent ?? "";
  if (el.getAttribute("type") === "checkbox") return el.hasAttribute("checked") ? "checked" : "";
  return el.getAttribute("value") ?? "";
}

/** The user sets a control to `value`: written as its markup, so that the page's canonical form shows it. */
function show(el: Element, value: string): void {
  if (el.tagName.toLowerCase() === "textarea") el.textContent = value;
  else if (el.getAttribute("type") === "checkbox") value === "" ? el.removeAttribute("checked") : el.setAttribute("checked", "checked");
  else value === "" ? el.removeAttribute("value") : el.setAttribute("value", value);
}

/**
 * Applies an event's patches to the page, and checks it is the fresh render `html`. A reported
 * control shows what the user set it to before the event; the diff leaves it so where the render
 * did not change its value, and patches it where it did (docs/protocol.md#input-state).
 */
function assertPatchesInto(
  page: HTMLElement,
  patches: readonly Patch[],
  html: string,
  reported: Map<string, string> | undefined,
  label: string,
) {
  const [id, value] = reported === undefined ? [] : [...reported][0]!;
  const typed = id === undefined ? undefined : elementIn(page, id);
  const rendered = typed === undefined ? undefined : shownBy(typed);
  if (typed !== undefined) show(typed, value!);
  applyPatches(page, patches);
  const expected = parse(html);
  const there = typed !== undefined && page.contains(typed) ? elementIn(expected, typed.getAttribute(ID_ATTR)!) : undefined;
  const fresh = there === undefined ? undefined : shownBy(there);
  if (there !== undefined && fresh === rendered) show(there, value!);
  assertSame(canon(page), canon(expected), `${label}: the patched page is the fresh render`);
  // What the user typed stays in the page, which no render shows; the next event starts from the
  // page as rendered, so that its comparison is exact again.
  if (there !== undefined) show(typed!, fresh!);
}

/**
 * `actual` and `expected` are equal; a failure shows where they first differ, as JSON, rather
 * than a diff of two whole pages.
 */
function assertSame(actual: unknown, expected: unknown, label: string): void {
  if (isDeepStrictEqual(actual, expected)) return;
  const a = typeof actual === "string" ? actual : JSON.stringify(actual);
  const b = typeof expected === "string" ? expected : JSON.stringify(expected);
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  const around = (text: string) => text.slice(Math.max(0, at - 160), at + 160);
  assert.fail(`${label}: differs at character ${at}\n  actual:   ${around(a)}\n  expected: ${around(b)}`);
}

/** Every handler of `fresh` is at its id in `kept`, with the same message, on an element of the same tag. */
function assertHandlersKept(kept: LiveTree, fresh: LiveTree, label: string): number {
  let count = 0;
  forEachElement(fresh, (el, id) => {
    if (el.handlers === undefined) return;
    assert.equal(findElement(kept, id)?.tag, el.tag, `${label}: the kept tree has ${id}`);
    for (const kind of EVENT_KINDS) {
      assert.deepEqual(handlerFor(kept, id, kind), el.handlers[kind], `${label}: ${kind} handler of ${id}`);
    }
    count++;
  });
  return count;
}

/** What the runs covered, checked at the end so that the property cannot pass by doing nothing. */
const covered = { events: 0, patched: 0, reported: 0, shown: 0, failed: 0, handlers: 0, foldedAtOnce: 0, foldedLater: 0 };

/**
 * A task boundary. happy-dom's select holds its parsed page through WeakRefs, which keep their
 * targets until the task that made them ends: without one between events, every page parsed in
 * a run stays in memory.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** How a session of `checkSession` runs. */
type SessionOptions = {
  /** The session's (src/live/render-state/fold/fold-tree.ts); 0 folds every subtree at each keep. */
  readonly keptAsBuilt?: number;
  /** The page's view: the row page written with `Ui.h` by default, or with templates, `Ui.each` and `Ui.lazy`. */
  readonly view?: (m: Model) => UiElement;
};

/** A session's events from the model of `start` under `steps`, each checked against fresh renders. */
async function checkSession(start: Start, steps: readonly Step[], options: SessionOptions = {}): Promise<void> {
  const { keptAsBuilt = KEPT_AS_BUILT_PER_KEEP, view = hView } = options;
  let model = modelOf(start);
  const session = new SessionRender(view, { keptAsBuilt: keptAsBuilt });
  session.keep(session.render(model));
  // The reference: the view rendered with no session memo, fresh objects every time.
  let before = assignIds(view(model));
  assertSame(render(session.kept!), render(before), "the first render");
  const page = parse(render(before));
  for (const [i, step] of steps.entries()) {
    await nextTask();
    const label = `event ${i + 1}`;
    if (step.failed !== null) {
      // Rendered, then dropped: the event failed after its render, and the session keeps its tree.
      session.render(applyEdits(model, step.failed));
      covered.failed++;
    }
    const next = applyEdits(model, editsOf(step));
    const reported = reportOf(before, model, step);
    if (reported !== undefined) covered.reported++;

    // The session's loop, as src/live/server/session/step.ts and session.ts run it.
    const rendered = session.render(next);
    const { patches, tree } = diffTrees(session.kept!, rendered, reported);
    session.keep(tree);

    const after = assignIds(view(next));
    const html = render(after);
    const expected = diffTrees(before, after, reported).patches;
    assertSame(patches, expected, `${label}: the patches of fresh renders`);
    // A report the diff took into account: a patch it left out, the browser showing it already.
    if (reported !== undefined && !isDeepStrictEqual(expected, diffTrees(before, after).patches)) covered.shown++;
    assertPatchesInto(page, patches, html, reported, label);
    assertSame(render(session.kept!), html, `${label}: the kept tree renders as the fresh render`);
    covered.handlers += assertHandlersKept(session.kept!, after, label);
    covered.events++;
    if (partsIn(session.kept!).folds.length > 0) {
      if (keptAsBuilt === 0) covered.foldedAtOnce++;
      else covered.foldedLater++;
    }
    if (patches.length > 0) covered.patched++;
    before = after;
    model = next;
  }
}

/** A run takes seconds: more than Bun's default of 5 s per test. */
const LONG = { timeout: 120_000 };

test("a session's kept page patches and renders, event after event, as fresh renders of the view", LONG, async () => {
  await fc.assert(
    // Half the sessions fold every subtree at each keep, half leave what a render built as built
    // until later renders hand it back unchanged, as a live session does.
    fc.asyncProperty(
      startArb(),
      fc.array(stepArb, { minLength: 1, maxLength: 12 }),
      fc.constantFrom(0, KEPT_AS_BUILT_PER_KEEP),
      (start, steps, keptAsBuilt) => checkSession(start, steps, { keptAsBuilt }),
    ),
    { seed, numRuns: 50, includeErrorInReport: true },
  );
  console.log(`compact-form property: covered ${JSON.stringify(covered)}`);
  assert.ok(covered.events >= 150, `${covered.events} events`);
  assert.ok(covered.patched >= covered.events / 2, `${covered.patched} of ${covered.events} events patched`);
  assert.ok(
    covered.reported >= 40 && covered.shown >= 10,
    `${covered.reported} events with a report, ${covered.shown} of them shown already`,
  );
  assert.ok(covered.failed >= 20, `${covered.failed} events after a failed render`);
  assert.ok(covered.handlers >= 10_000, `${covered.handlers} handlers found in kept trees`);
  assert.ok(
    covered.foldedAtOnce >= 40 && covered.foldedLater >= 40,
    `${covered.foldedAtOnce} events kept folds folding at once, ${covered.foldedLater} deferring`,
  );
});

test("a page of 300 rows and more: the same, on a page of thousands of elements", LONG, async () => {
  // Besides the edits' own resizes, some back to a large page.
  const big = fc.integer({ min: 300, max: 360 });
  const bigStep = fc.record({
    edits: fc.array(
      fc.oneof({ weight: 5, arbitrary: editArb }, {
        weight: 1,
        arbitrary: big.map((count) => ({ op: "resize" as const, count, salt: 7 })),
      }),
      { maxLength: 3 },
    ),
    report: oneIn(3, reportArb),
    failed: oneIn(4, failedArb),
  });
  await fc.assert(
    fc.asyncProperty(startArb(big), fc.array(bigStep, { minLength: 1, maxLength: 5 }), (start, steps) => checkSession(start, steps)),
    {
      seed,
      numRuns: 3,
      includeErrorInReport: true,
    },
  );
});

test("a page written with Ui.html templates, Ui.each and Ui.lazy: the same, against fresh renders of the same view", LONG, async () => {
  const before = { ...covered };
  await fc.assert(
    fc.asyncProperty(
      startArb(),
      fc.array(stepArb, { minLength: 1, maxLength: 12 }),
      fc.constantFrom(0, KEPT_AS_BUILT_PER_KEEP),
      (start, steps, keptAsBuilt) => checkSession(start, steps, { keptAsBuilt, view: templateView }),
    ),
    { seed, numRuns: 25, includeErrorInReport: true },
  );
  const events = covered.events - before.events;
  console.log(`compact-form property, templates: ${events} events, ${covered.patched - before.patched} patched`);
  assert.ok(events >= 75, `${events} events`);
  assert.ok(covered.patched - before.patched >= events / 2, `${covered.patched - before.patched} of ${events} events patched`);
  assert.ok(covered.reported - before.reported >= 20, `${covered.reported - before.reported} events with a report`);
  assert.ok(covered.handlers - before.handlers >= 3_000, `${covered.handlers - before.handlers} handlers found in kept trees`);
});
