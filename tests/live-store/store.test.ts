/**
 * The live session store's contract (src/live/store/store.ts), run against the in-memory store and
 * a real Postgres (tests/support/db-targets.ts): ownership under a lease with an epoch, saves fenced on
 * the epoch, dead keys, and keys that are hashes of the ids.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Db } from "../../src/db/mod.ts";
import { MemoryLiveStore } from "../../src/live/store/memory.ts";
import { PostgresLiveStore } from "../../src/live/store/postgres.ts";
import { Sealer } from "../../src/live/store/seal.ts";
import { sessionKey } from "../../src/live/store/session-key.ts";
import type { LiveStore, StoredSession } from "../../src/live/store/store.ts";
import { sql, targets } from "../support/db-targets.ts";

const postgres = targets().find((target) => target.name === "Postgres")!;

let counter = 0;
async function freshSession(overrides: Partial<StoredSession> = {}): Promise<StoredSession> {
  const id = `session-id-${Date.now()}-${++counter}-${Math.random()}`;
  return {
    key: await sessionKey(id),
    handle: `handle-${counter}`,
    model: JSON.stringify({ count: 0 }),
    outSeq: 0,
    inputSeqs: [],
    pageSeqs: [],
    user: undefined,
    boundAt: 1_700_000_000_000,
    ...overrides,
  };
}

type Made = { store: LiveStore; db?: Db };

function contract(name: string, skip: string | undefined, make: () => Promise<Made>, done: () => Promise<void>) {
  describe(`live store: ${name}`, { skip }, () => {
    let store: LiveStore;
    let made: Made;
    before(async () => {
      made = await make();
      store = made.store;
    });
    after(done);

    test("a created session is owned by its creator at epoch 1, and its owner's saves land", async () => {
      const session = await freshSession();
      assert.equal(await store.create(session, "replica-a"), 1);
      assert.deepEqual(await store.ownership(session.key), {
        owner: "replica-a",
        epoch: 1,
        leaseLive: true,
        outSeq: 0,
        user: undefined,
        boundAt: 1_700_000_000_000,
      });
      assert.equal(
        await store.save(
          { ...session, outSeq: 3, model: '{"count":3}', inputSeqs: [["r.0#input", 7]], pageSeqs: [["p1", 4]], user: "42" },
          "replica-a",
          1,
        ),
        true,
      );
      const taken = await store.take(session.key, "replica-b");
      assert.ok(taken);
      assert.deepEqual(taken.session, {
        ...session,
        outSeq: 3,
        model: '{"count":3}',
        inputSeqs: [["r.0#input", 7]],
        pageSeqs: [["p1", 4]],
        user: "42",
      });
    });

    test("a takeover bumps the epoch and names the previous owner; the old owner's save is fenced off", async () => {
      const session = await freshSession();
      await store.create(session, "replica-a");
      const taken = await store.take(session.key, "replica-b");
      assert.deepEqual({ epoch: taken?.epoch, previousOwner: taken?.previousOwner }, { epoch: 2, previousOwner: "replica-a" });
      assert.equal(
        await store.save({ ...session, outSeq: 99, model: '{"count":99}' }, "replica-a", 1),
        false,
        "the old epoch must not write",
      );
      assert.equal(await store.save({ ...session, outSeq: 5, model: '{"count":5}' }, "replica-b", 2), true);
      const again = await store.take(session.key, "replica-c");
      assert.equal(again?.session.outSeq, 5);
      assert.equal(again?.session.model, '{"count":5}');
      assert.equal(again?.epoch, 3);
    });

    test("of concurrent takeovers each gets its own epoch, and only the last one's saves land", async () => {
      const session = await freshSession();
      await store.create(session, "replica-a");
      const takes = await Promise.all(["b", "c", "d", "e"].map((r) => store.take(session.key, `replica-${r}`)));
      const epochs = takes.map((t) => t!.epoch).sort((x, y) => x - y);
      assert.deepEqual(epochs, [2, 3, 4, 5]);
      const saves = await Promise.all(takes.map((t, i) => store.save({ ...session, outSeq: 10 + i }, `replica-${i}`, t!.epoch)));
      assert.equal(saves.filter(Boolean).length, 1);
      assert.equal(saves[takes.findIndex((t) => t!.epoch === 5)], true);
    });

    test("renew extends the leases a replica still holds and leaves out the ones taken from it", async () => {
      const kept = await freshSession();
      const lost = await freshSession();
      await store.create(kept, "replica-renew");
      await store.create(lost, "replica-renew");
      await store.take(lost.key, "replica-other");
      const held = await store.renew("replica-renew");
      assert.ok(held.has(kept.key));
      assert.ok(!held.has(lost.key));
    });

    test("a released lease has no owner and is free; a release by a stale epoch changes nothing", async () => {
      const session = await freshSession();
      await store.create(session, "replica-a");
      await store.release(session.key, "replica-a", 7);
      assert.equal((await store.ownership(session.key))?.owner, "replica-a");
      await store.release(session.key, "replica-a", 1);
      assert.deepEqual(await store.ownership(session.key), {
        owner: undefined,
        epoch: 1,
        leaseLive: false,
        outSeq: 0,
        user: undefined,
        boundAt: 1_700_000_000_000,
      });
      const taken = await store.take(session.key, "replica-b");
      assert.deepEqual({ epoch: taken?.epoch, previousOwner: taken?.previousOwner }, { epoch: 2, previousOwner: undefined });
    });

    test("a killed session is gone and its key is dead: no takeover, no save", async () => {
      const session = await freshSession();
      await store.create(session, "replica-a");
      assert.equal(await store.isDead(session.key), false);
      await store.kill(session.key);
      assert.equal(await store.isDead(session.key), true);
      assert.equal(await store.take(session.key, "replica-b"), undefined);
      assert.equal(await store.save(session, "replica-a", 1), false);
      assert.equal(await store.ownership(session.key), undefined);
    });

    test("a move with a rotation: the old key finds the new one within the grace period, the taker learns it, a kill ends it", async () => {
      const first = await freshSession();
      const second = await freshSession();
      const third = await freshSession();
      await store.create(first, "replica-a");
      const rotation = (from: string) => ({
        fromHandle: `handle-of-${from}`,
        fromSealed: `sealed-${from}`,
        toSealed: "sealed-new",
        ticketHash: "ticket-hash",
        graceMs: 60_000,
      });
      await store.move(first.key, second, "replica-a", rotation("first"));
      assert.deepEqual(await store.rotation(first.key), { toKey: second.key, toSealed: "sealed-new", ticketHash: "ticket-hash" });
      // A second rotation: the first old key now leads to the newest key.
      await store.move(second.key, third, "replica-a", { ...rotation("second"), toSealed: "sealed-newest" });
      assert.equal((await store.rotation(first.key))?.toKey, third.key);
      assert.equal((await store.rotation(first.key))?.toSealed, "sealed-newest");
      const taken = await store.take(third.key, "replica-b");
      const learned = [...taken!.rotatedFrom].sort((x, y) => x.fromHandle.localeCompare(y.fromHandle));
      assert.deepEqual(learned.map((r) => [r.fromHandle, r.fromSealed]), [["handle-of-first", "sealed-first"], [
        "handle-of-second",
        "sealed-second",
      ]]);
      assert.ok(learned.every((r) => r.remainingMs > 55_000 && r.remainingMs <= 60_000));
      await store.kill(third.key);
      assert.equal(await store.rotation(first.key), undefined, "rotations die with their session");
      assert.equal(await store.rotation(second.key), undefined);
    });

    test("a load takes nothing; the save that claims it makes the loader the owner one epoch on, unless another replica wrote first", async () => {
      const session = await freshSession();
      await store.create(session, "replica-a");
      const loaded = await store.load(session.key);
      assert.deepEqual({ epoch: loaded?.epoch, owner: loaded?.owner }, { epoch: 1, owner: "replica-a" });
      assert.equal((await store.ownership(session.key))?.owner, "replica-a", "a load changes nothing");
      // Two replicas load the same epoch; the first claim wins, the second is fenced off.
      const claim = { previousOwner: "replica-a" };
      assert.equal(await store.save({ ...session, outSeq: 1, model: '{"count":1}' }, "replica-b", 1, undefined, claim), true);
      assert.equal(await store.save({ ...session, outSeq: 1, model: '{"count":9}' }, "replica-c", 1, undefined, claim), false);
      assert.equal(await store.save({ ...session, outSeq: 2 }, "replica-a", 1), false, "the old owner is fenced off");
      assert.deepEqual({ ...(await store.ownership(session.key)), leaseLive: true }, {
        owner: "replica-b",
        epoch: 2,
        leaseLive: true,
        outSeq: 1,
        user: undefined,
        boundAt: 1_700_000_000_000,
      });
      assert.equal(await store.save({ ...session, outSeq: 2 }, "replica-b", 2), true, "the claimer saves at the new epoch");
      assert.equal((await store.load(session.key))?.session.outSeq, 2);
    });

    test("alive names, of the keys asked about, those that still have a session", async () => {
      const kept = await freshSession();
      const killed = await freshSession();
      await store.create(kept, "replica-a");
      await store.create(killed, "replica-a");
      await store.kill(killed.key);
      const unknown = await sessionKey(`never-${Math.random()}`);
      assert.deepEqual([...await store.alive([kept.key, killed.key, unknown])], [kept.key]);
      assert.equal((await store.alive([])).size, 0);
    });

    test("an unknown key is neither live nor dead", async () => {
      const unknown = await sessionKey("never-made");
      assert.equal(await store.take(unknown, "replica-a"), undefined);
      assert.equal(await store.isDead(unknown), false);
    });

    if (name === "Postgres") {
      test("the table holds the SHA-256 of the id, never the id itself", async () => {
        const id = `cookie-value-${Math.random().toString(36).slice(2)}`;
        const session = await freshSession({ key: await sessionKey(id) });
        await store.create(session, "replica-a");
        const rows = await sql(made.db!, "SELECT * FROM svc_live_sessions");
        const dump = JSON.stringify(rows);
        assert.ok(!dump.includes(id), "the cookie must not be in the table");
        assert.ok(dump.includes(session.key));
        assert.match(session.key, /^[0-9a-f]{64}$/);
      });
    }
  });
}

test("sessionKey is the hex SHA-256 of the id", async () => {
  // echo -n abc | sha256sum
  assert.equal(await sessionKey("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

contract("memory", undefined, async () => ({ store: new MemoryLiveStore() }), async () => {});

let pgDb: Db | undefined;
contract(
  "Postgres",
  postgres.skip,
  async () => {
    await postgres.setup();
    pgDb = postgres.open();
    return { store: new PostgresLiveStore(pgDb, "svc_sid"), db: pgDb };
  },
  async () => {
    await pgDb?.close();
    await postgres.teardown();
  },
);

test("sealed text opens only with the key that sealed it, and a changed seal opens to nothing", async () => {
  const sealer = new Sealer(new Uint8Array(32).fill(7));
  const other = new Sealer(new Uint8Array(32).fill(8));
  const sealed = await sealer.seal("a-session-id");
  assert.ok(!sealed.includes("a-session-id"));
  assert.notEqual(await sealer.seal("a-session-id"), sealed, "a fresh IV each time");
  assert.equal(await sealer.unseal(sealed), "a-session-id");
  assert.equal(await other.unseal(sealed), undefined);
  // One character of the ciphertext changed (in the middle: the last one also carries padding bits).
  const changed = sealed.slice(0, 20) + (sealed[20] === "A" ? "B" : "A") + sealed.slice(21);
  assert.equal(await sealer.unseal(changed), undefined);
  assert.equal(await sealer.unseal("short"), undefined);
});
