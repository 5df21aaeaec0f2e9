/**
 * The versioned map of a session's input seqs (src/live/server/session/versioned-map.ts): every version
 * keeps what it held, whichever versions are updated or read after it and in whatever order, and
 * updating the newest version copies nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { VersionedMap, versionedMapWork } from "../../src/live/server/session/versioned-map.ts";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

/** An operation on the version at `from` (an index into the versions made so far, wrapped). */
type Op =
  | { kind: "with"; from: number; key: string; value: number }
  | { kind: "without"; from: number; key: string }
  | { kind: "read"; from: number };

const keyArb: fc.Arbitrary<string> = fc.constantFrom("a", "b", "c", "d", "e", "f");
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("with" as const), from: fc.nat(), key: keyArb, value: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant("without" as const), from: fc.nat(), key: keyArb }),
  fc.record({ kind: fc.constant("read" as const), from: fc.nat() }),
);

const sorted = (entries: Iterable<readonly [string, number]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Everything a reader can see of a version, set against the plain map it should equal. */
function assertHolds(version: VersionedMap<string, number>, expected: ReadonlyMap<string, number>, what: string): void {
  assert.equal(version.size, expected.size, `${what}: size`);
  for (const key of ["a", "b", "c", "d", "e", "f"]) {
    assert.equal(version.has(key), expected.has(key), `${what}: has ${key}`);
    assert.equal(version.get(key), expected.get(key), `${what}: get ${key}`);
  }
  assert.deepEqual(sorted(version), sorted(expected), `${what}: entries`);
  assert.deepEqual([...version.keys()].sort(), [...expected.keys()].sort(), `${what}: keys`);
  assert.deepEqual([...version.values()].sort(), [...expected.values()].sort(), `${what}: values`);
  const seen: [string, number][] = [];
  version.forEach((value, key) => seen.push([key, value]));
  assert.deepEqual(sorted(seen), sorted(expected), `${what}: forEach`);
}

test("every version holds what it was made with, whatever is updated or read after it", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(keyArb, fc.integer({ min: 0, max: 3 })), { maxLength: 4 }),
      fc.array(opArb, { maxLength: 60 }),
      (start, ops) => {
        const versions = [VersionedMap.of(start)];
        const expected: ReadonlyMap<string, number>[] = [new Map(start)];
        for (const op of ops) {
          const at = op.from % versions.length;
          const version = versions[at]!, model = expected[at]!;
          if (op.kind === "read") {
            assertHolds(version, model, `version ${at}`);
            continue;
          }
          const next = op.kind === "with" ? version.with(op.key, op.value) : version.without(op.key);
          const nextModel = new Map(model);
          if (op.kind === "with") nextModel.set(op.key, op.value);
          else nextModel.delete(op.key);
          // Nothing to change gives the same version back.
          const same = op.kind === "with" ? model.get(op.key) === op.value : !model.has(op.key);
          assert.equal(next === version, same, `${op.kind} ${op.key} on version ${at}: the same version only when nothing changes`);
          versions.push(next);
          expected.push(nextModel);
        }
        versions.forEach((version, i) => assertHolds(version, expected[i]!, `version ${i} at the end`));
        // And once more in reverse: each read walks the map back through the others.
        for (let i = versions.length - 1; i >= 0; i--) assertHolds(versions[i]!, expected[i]!, `version ${i}, read in reverse`);
      },
    ),
    { seed, numRuns: 300 },
  );
});

test("versions from one empty map shared by many owners do not share a map", () => {
  const empty = VersionedMap.of<string, number>();
  const one = empty.with("a", 1);
  const other = empty.with("a", 2).with("b", 3);
  const before = versionedMapWork.count;
  assert.equal(one.get("a"), 1);
  assert.equal(other.get("a"), 2);
  assert.equal(one.get("a"), 1);
  assert.equal(versionedMapWork.count, before, "reading one owner's version never walks another's");
  assert.equal(empty.size, 0);
});

test("updating the newest version copies no entry, however many there are", () => {
  let version = VersionedMap.of<string, number>();
  for (let i = 0; i < 1000; i++) version = version.with(`r.${i}#input`, 1);
  const before = versionedMapWork.count;
  for (let i = 0; i < 1000; i++) version = version.with(`r.${i}#input`, 2).without(`r.${i}#input`).with(`r.${i}#input`, 3);
  assert.equal(versionedMapWork.count, before, "3,000 updates of the newest version moved no entry");
  assert.equal(version.size, 1000);
  assert.equal(version.get("r.999#input"), 3);
});
