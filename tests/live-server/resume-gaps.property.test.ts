// docs/protocol.md#resume: a stream resuming from frame `last` gets every frame after it up to the
// session's seq, or a render; never a partial run. The frames a session holds need not be a run
// that ends at its seq: a replica that took a session over holds the frames its streams heard over
// the bus, which may stop short of the state it read or miss some on the way
// (docs/deployment.md#late-notices). Property-tested on the pure resume step.
import { test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import fc from "fast-check";
import { resumeText } from "../../src/live/server/streams/resume.ts";
import type { Frame } from "../../src/live/server/streams/sse-wire.ts";

// One seed for this file's properties, printed so that a failing run can be replayed.
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

const frame = (seq: number): Frame => ({ seq, patches: [] });

/** The events of an SSE text: each one's type and seq. */
function eventsOf(text: string): { event: string; seq: number }[] {
  return text.split("\n\n").filter((block) => block.includes("event: ")).map((block) => {
    const lines = block.split("\n");
    const event = lines.find((line) => line.startsWith("event: "))!.slice(7);
    const data = JSON.parse(lines.find((line) => line.startsWith("data: "))!.slice(6)) as { seq: number };
    return { event, seq: data.seq };
  });
}

test("a resuming stream gets every frame from its last id to the session's seq, or a render, whatever frames the session holds", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 60 }),
      fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 40 }),
      fc.integer({ min: 0, max: 60 }),
      (outSeq, held, last) => {
        // The frames held, oldest first, none past the session's seq (gaps and a short end allowed).
        const recent = held.filter((seq) => seq <= outSeq).sort((a, b) => a - b).map(frame);
        const got = eventsOf(resumeText(String(last), { outSeq, recent, renderRoot: () => "<main></main>" }));
        if (last === outSeq) return assert.deepEqual(got, []);
        if (got.length === 1 && got[0]!.event === "render") return assert.equal(got[0]!.seq, outSeq);
        // Frames: exactly last+1 .. outSeq, in order.
        assert.deepEqual(got, Array.from({ length: outSeq - last }, (_, i) => ({ event: "patch", seq: last + 1 + i })));
      },
    ),
    { seed, numRuns: 3000 },
  );
});

test("a stream resuming from frame 23 of a session at 40 that holds frames 1 to 23 gets a render, not silence", () => {
  const recent = Array.from({ length: 23 }, (_, i) => frame(i + 1));
  const got = eventsOf(resumeText("23", { outSeq: 40, recent, renderRoot: () => "<main></main>" }));
  assert.deepEqual(got, [{ event: "render", seq: 40 }]);
});
