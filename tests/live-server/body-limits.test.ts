import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { app } from "../../src/live/server/mod.ts";
import type { LiveApp } from "../../src/live/server/app/app.ts";
import { LIMITS } from "../../src/protocol/mod.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { JsonValue } from "../../src/json.ts";
import { setLogSink } from "../../src/log.ts";
import { openTab } from "../support/live-harness.ts";

// docs/protocol.md#limits: the shape limits of an event body, and an update that throws.
type Model = { depth: number; size: number; runs: number };

/** How deep a value nests, by recursion, as an app's own update might measure it. */
const depthOf = (value: JsonValue): number => (Array.isArray(value) ? 1 + Math.max(0, ...value.map(depthOf)) : 0);
/** Recurses without end: a stack overflow in the app's own code. */
const forever = (n: number): number => forever(n + 1) + 1;

const made: LiveApp<Model>[] = [];
after(() => made.forEach((a) => a.close()));
function deepApp(): LiveApp<Model> {
  const a = app<Model>(
    {
      init: () => ({ depth: 0, size: 0, runs: 0 }),
      update: (model, msg, args) => {
        if (msg === "Measure") return { depth: depthOf(args as JsonValue[]), size: String(args.at(-1)).length, runs: model.runs + 1 };
        if (msg === "Overflow") return { ...model, runs: forever(0) };
        return model;
      },
      view: (model) => Ui.h("p", {}, `depth ${model.depth} runs ${model.runs}`),
    },
    { messages: ["Measure", "Overflow"] },
  );
  made.push(a);
  return a;
}

/** An array nested `levels` deep around a string. */
function nested(levels: number): JsonValue {
  let value: JsonValue = "leaf";
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

async function refusal(resp: Response): Promise<{ status: number; error: string; message: string }> {
  const body = (await resp.json()) as { error: string; message: string };
  return { status: resp.status, ...body };
}

describe("event body limits", () => {
  test(`args may nest up to the depth limit (${LIMITS.maxDepth} levels counting the body), and one level more is a 400 naming maxDepth`, async () => {
    const a = deepApp();
    const tab = await openTab(a);
    // The body object is level 1 and args level 2: a value nested 30 deep inside args is level 32.
    const deepest = await tab.post({ seq: 1, msg: "Measure", args: [nested(LIMITS.maxDepth - 2)] });
    assert.equal(deepest.status, 200);
    const session = [...a.sessions.all()][0]!;
    assert.equal(session.model.depth, LIMITS.maxDepth - 1);
    const over = await refusal(await tab.post({ seq: 2, msg: "Measure", args: [nested(LIMITS.maxDepth - 1)] }));
    assert.equal(over.status, 400);
    assert.equal(over.error, "limit_exceeded");
    assert.match(over.message, /maxDepth = 32/);
    assert.deepEqual(session.model, { depth: LIMITS.maxDepth - 1, size: "leaf".length, runs: 1 });
  });

  test("a body nested 100,000 deep is refused before parsing, every time, and the session carries on", async () => {
    const a = deepApp();
    const tab = await openTab(a);
    const hostile = `{"seq":1,"msg":"Measure","args":[${"[".repeat(100_000)}${"]".repeat(100_000)}]}`;
    for (let i = 0; i < 4; i++) {
      const resp = await refusal(await tab.postRaw(hostile));
      assert.equal(resp.status, 400);
      assert.equal(resp.error, "limit_exceeded");
    }
    const session = [...a.sessions.all()][0]!;
    assert.equal(session.model.runs, 0);
    assert.equal((await tab.post({ seq: 2, msg: "Measure", args: ["fine"] })).status, 200);
    assert.equal(session.model.runs, 1);
  });

  test("brackets inside strings do not count toward the depth", async () => {
    const tab = await openTab(deepApp());
    const resp = await tab.post({ seq: 1, msg: "Measure", args: ["[".repeat(1000) + '\\"{' + "]".repeat(10)] });
    assert.equal(resp.status, 200);
  });

  test("a string over maxStringLength in args or in an input's value is a 400 naming the limit", async () => {
    const a = deepApp();
    const tab = await openTab(a);
    const long = "x".repeat(LIMITS.maxStringLength + 1);
    const inArgs = await refusal(await tab.post({ seq: 1, msg: "Measure", args: [[long]] }));
    assert.deepEqual([inArgs.status, inArgs.error], [400, "limit_exceeded"]);
    assert.match(inArgs.message, /maxStringLength/);
    const inInput = await refusal(
      await tab.post({ seq: 2, msg: "Measure", args: [], inputState: { "r.#input:x": { value: long, seq: 1 } } }),
    );
    assert.deepEqual([inInput.status, inInput.error], [400, "limit_exceeded"]);
    assert.match(inInput.message, /maxStringLength/);
    const atLimit = await tab.post({ seq: 3, msg: "Measure", args: ["x".repeat(LIMITS.maxStringLength)] });
    assert.equal(atLimit.status, 200);
    assert.equal([...a.sessions.all()][0]!.model.size, LIMITS.maxStringLength);
  });

  test("an array or object inside args with more than maxArrayLength entries is a 400 naming the limit", async () => {
    const tab = await openTab(deepApp());
    const bigArray = Array.from({ length: LIMITS.maxArrayLength + 1 }, (_, i) => i);
    const bigObject = Object.fromEntries(bigArray.map((i) => [`k${i}`, i]));
    for (const arg of [bigArray, bigObject, [[bigArray]]]) {
      const resp = await refusal(await tab.post({ seq: 1, msg: "Measure", args: [arg] }));
      assert.deepEqual([resp.status, resp.error], [400, "limit_exceeded"]);
      assert.match(resp.message, /maxArrayLength = 1024/);
    }
    assert.equal((await tab.post({ seq: 1, msg: "Measure", args: [bigArray.slice(1)] })).status, 200);
  });
});

test("an update that overflows the stack gets the app-error reply, and the session survives unchanged", async () => {
  const logged: string[] = [];
  const previous = setLogSink((_level, message) => logged.push(message));
  try {
    const a = deepApp();
    const tab = await openTab(a);
    assert.equal((await tab.post({ seq: 1, msg: "Measure", args: [nested(5)] })).status, 200);
    const session = [...a.sessions.all()][0]!;
    const before = { model: structuredClone(session.model), outSeq: session.outSeq };
    const resp = await tab.post({ seq: 2, msg: "Overflow" });
    assert.equal(resp.status, 500);
    assert.equal(resp.headers.get("X-Svc-Status"), "app-error");
    assert.equal(((await resp.json()) as { error: string }).error, "app-error");
    assert.deepEqual({ model: session.model, outSeq: session.outSeq }, before);
    assert.ok(logged.some((line) => line.includes("live.update failed")));
    const next = await tab.post({ seq: 3, msg: "Measure", args: ["again"] });
    assert.equal(next.status, 200);
    assert.equal(session.model.runs, 2);
  } finally {
    setLogSink(previous);
  }
});

test("the depth check counts nesting, not brackets: many shallow brackets pass, and the limit holds on both sides", async () => {
  const { checkDepth } = await import("../../src/live/server/http/body-limits.ts");
  const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
  assert.equal(checkDepth(deep(LIMITS.maxDepth)).ok, true);
  assert.equal(checkDepth(deep(LIMITS.maxDepth + 1)).ok, false);
  // More opening brackets than the limit, side by side: scanned, and shallow.
  const wide = `{"args":[${Array.from({ length: LIMITS.maxDepth * 2 }, () => "[{}]").join(",")}]}`;
  assert.equal(checkDepth(wide).ok, true);
  // More of them than the limit inside a string, and the real nesting one past it.
  assert.equal(checkDepth(`[${JSON.stringify("[".repeat(LIMITS.maxDepth * 2))},${deep(LIMITS.maxDepth)}]`).ok, false);
  assert.equal(checkDepth(`[${JSON.stringify("{".repeat(LIMITS.maxDepth * 2))},${deep(LIMITS.maxDepth - 1)}]`).ok, true);
});

test("the depth check on the raw text agrees with the parsed value's depth, strings with brackets and escapes included", async () => {
  const { default: fc } = await import("fast-check");
  const { checkDepth } = await import("../../src/live/server/http/body-limits.ts");
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
  console.log(`fast-check seed ${seed} (FC_SEED=${seed} to replay)`);
  const tricky = fc.constantFrom("[", "]", "{", "}", '"', "\\", '\\"[', "[[[", "]]}}", "\\\\");
  const leaf = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string(), fc.stringMatching(/^[\[\]{}"\\a]{0,8}$/), tricky);
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 40 },
      leaf,
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 3 }), tie("value"), { maxKeys: 3 }),
    ),
  }));
  const depthOfValue = (v: unknown): number =>
    typeof v === "object" && v !== null ? 1 + Math.max(0, ...(Array.isArray(v) ? v : Object.values(v)).map(depthOfValue)) : 0;
  // Wrapped in 0 to 36 arrays or objects, so that both sides of the limit are reached often.
  const wrapped = fc.tuple(value, fc.integer({ min: 0, max: 36 }).chain((n) => fc.array(fc.boolean(), { minLength: n, maxLength: n }))).map(
    ([inner, wraps]) => wraps.reduce<unknown>((v, asArray) => (asArray ? [v] : { k: v }), inner),
  );
  let over = 0;
  fc.assert(
    fc.property(wrapped, (v) => {
      const text = JSON.stringify(v);
      const deep = depthOfValue(v) > LIMITS.maxDepth;
      if (deep) over++;
      return checkDepth(text).ok === !deep;
    }),
    { seed, numRuns: 2000 },
  );
  assert.ok(over > 50 && over < 1950, `both sides of the limit were tried (${over} of 2000 over it)`);
});
