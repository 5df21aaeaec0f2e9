/**
 * The bus between replicas (src/live/store/bus.ts), on each bus (docs/deployment.md#the-bus):
 * Postgres LISTEN/NOTIFY on the schema's channel, and Redis and NATS when their servers are given
 * (tests/support/bus-targets.ts). Notices over the bus's limit travel by reference; notices that
 * go with a write (a fenced save, a kill, a revoke or disable) are sent if and only if the write
 * commits: in it on Postgres, after it on a broker. Two handles on one database stand for two replicas.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Auth } from "../../src/auth/mod.ts";
import { onAccessChange } from "../../src/auth/access-events.ts";
import { Db } from "../../src/db/mod.ts";
import { type BusMessage, encodeMessage, type LiveBus, MemoryBus } from "../../src/live/store/bus.ts";
import { PostgresBus } from "../../src/live/store/postgres-bus.ts";
import { openSharedStore } from "../../src/live/store/shared-bus.ts";
import { busTargets } from "../support/bus-targets.ts";
import { PostgresLiveStore } from "../../src/live/store/postgres.ts";
import { sessionKey } from "../../src/live/store/session-key.ts";
import type { StoredSession } from "../../src/live/store/store.ts";
import { POSTGRES_SKIP, POSTGRES_URL, targets } from "../support/db-targets.ts";

const postgres = targets().find((target) => target.name === "Postgres")!;

/** Resolves with the first message `match` accepts, or rejects after `ms`. */
function nextMessage(
  bus: { subscribe(l: (m: BusMessage) => void): () => void },
  match: (m: BusMessage) => boolean,
  ms = 2000,
): Promise<BusMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error("no matching message within " + ms + " ms"));
    }, ms);
    const stop = bus.subscribe((message) => {
      if (!match(message)) return;
      clearTimeout(timer);
      stop();
      resolve(message);
    });
  });
}

test("the in-process bus delivers a message to every listener after the publisher's turn", async () => {
  const bus = new MemoryBus();
  const heard: string[] = [];
  bus.subscribe((m) => heard.push(`a:${m.t}`));
  bus.subscribe((m) => heard.push(`b:${m.t}`));
  const sent = bus.publish({ t: "ended", app: "x", key: "k", from: "p" });
  assert.deepEqual(heard, []);
  await sent;
  assert.deepEqual(heard, ["a:ended", "b:ended"]);
});

// Brokers send a notice over 8,000 bytes by reference too, as NOTIFY must, so that the cases below
// hold every bus to the same sizes.
for (const target of busTargets({ inlineBytes: 8000 })) {
  describe(`the bus on ${target.name}`, { skip: postgres.skip ?? target.skip }, () => {
    let dbA: Db;
    let dbB: Db;
    let storeA: PostgresLiveStore;
    let storeB: PostgresLiveStore;
    let busA: LiveBus;
    let busB: LiveBus;
    /** SQL texts dbA ran. */
    const ranA: string[] = [];
    before(async () => {
      await postgres.setup();
      dbA = postgres.open();
      dbB = postgres.open();
      const query = dbA.query.bind(dbA);
      const transaction = dbA.transaction.bind(dbA);
      dbA.query = (statement) => (ranA.push(statement.sql), query(statement));
      dbA.transaction = (statements) => (ranA.push(...statements.map((one) => one.sql)), transaction(statements));
      const a = openSharedStore(dbA, "svc_sid", target.option);
      const b = openSharedStore(dbB, "svc_sid", target.option);
      storeA = a.store;
      storeB = b.store;
      busA = await a.bus;
      busB = await b.bus;
    });
    after(async () => {
      await busA.close();
      await busB.close();
      await dbA.close();
      await dbB.close();
      await postgres.teardown();
    });

    const session = async (): Promise<StoredSession> => ({
      key: await sessionKey(`id-${Math.random()}`),
      handle: "h",
      model: "{}",
      outSeq: 0,
      inputSeqs: [],
      pageSeqs: [],
      user: undefined,
      boundAt: 0,
    });

    test("a message published by one replica reaches the other", async () => {
      const heard = nextMessage(busB, (m) => m.t === "taken" && m.key === "k1");
      await busA.publish({ t: "taken", app: "svc_sid", key: "k1", from: "replica-a", epoch: 4 });
      assert.deepEqual(await heard, { t: "taken", app: "svc_sid", key: "k1", from: "replica-a", epoch: 4 });
    });

    test("a frame larger than NOTIFY's 8,000-byte limit arrives whole, by reference", async () => {
      const big = "x".repeat(50_000) + "é";
      const frame = { seq: 7, patches: [{ id: "r", text: big }] };
      const heard = nextMessage(busB, (m) => m.t === "frame" && m.key === "big");
      await busA.publish({ t: "frame", app: "svc_sid", key: "big", from: "replica-a", epoch: 1, frame });
      const message = await heard;
      assert.equal(message.t, "frame");
      assert.deepEqual(message.t === "frame" ? message.frame : undefined, frame);
    });

    test("frames of one session arrive in the order they were saved, small and large mixed", async () => {
      const s = await session();
      await storeA.create(s, "replica-a");
      // Replica B streams the session: from now on A's saves publish their frames.
      assert.equal((await storeB.ownership(s.key, { streaming: true }))?.owner, "replica-a");
      const seqs: number[] = [];
      const all = new Promise<void>((resolve) => {
        const stop = busB.subscribe((m) => {
          if (m.t !== "frame" || m.key !== s.key) return;
          seqs.push(m.frame.seq);
          if (seqs.length === 6) {
            stop();
            resolve();
          }
        });
      });
      for (let seq = 1; seq <= 6; seq++) {
        const text = seq % 2 === 0 ? "y".repeat(20_000) : "small";
        const frame = { seq, patches: [{ id: "r", text }] };
        assert.equal(
          await storeA.save(
            { ...s, outSeq: seq },
            "replica-a",
            1,
            encodeMessage({ t: "frame", app: "svc_sid", key: s.key, from: "replica-a", epoch: 1, frame }),
          ),
          true,
        );
      }
      await all;
      assert.deepEqual(seqs, [1, 2, 3, 4, 5, 6]);
    });

    test("a save publishes its frame only once another replica streams the session", async () => {
      const s = await session();
      await storeA.create(s, "replica-a");
      const heard: number[] = [];
      const stop = busB.subscribe((m) => m.t === "frame" && m.key === s.key && heard.push(m.frame.seq));
      const frame = (seq: number) =>
        encodeMessage({ t: "frame", app: "svc_sid", key: s.key, from: "replica-a", epoch: 1, frame: { seq, patches: [] } });
      assert.equal(await storeA.save({ ...s, outSeq: 1 }, "replica-a", 1, frame(1)), true, "saved, though published to no one");
      await storeB.ownership(s.key, { streaming: true });
      assert.equal(await storeA.save({ ...s, outSeq: 2 }, "replica-a", 1, frame(2)), true);
      const marker = nextMessage(busB, (m) => m.t === "taken" && m.key === "marker-streamed-" + s.key);
      await busA.publish({ t: "taken", app: "svc_sid", key: "marker-streamed-" + s.key, from: "replica-a", epoch: 0 });
      await marker;
      stop();
      assert.deepEqual(heard, [2]);
    });

    test("a fenced-off save sends no notice", async () => {
      const s = await session();
      await storeA.create(s, "replica-a");
      await storeB.ownership(s.key, { streaming: true });
      await storeB.take(s.key, "replica-b");
      const heard: BusMessage[] = [];
      const stop = busB.subscribe((m) => m.t === "frame" && m.key === s.key && heard.push(m));
      const saved = await storeA.save(
        { ...s, outSeq: 1 },
        "replica-a",
        1,
        encodeMessage({ t: "frame", app: "svc_sid", key: s.key, from: "replica-a", epoch: 1, frame: { seq: 1, patches: [] } }),
      );
      assert.equal(saved, false);
      // A marker sent after it arrives after it would have: nothing came before the marker.
      const marker = nextMessage(busB, (m) => m.t === "taken" && m.key === "marker-" + s.key);
      await busA.publish({ t: "taken", app: "svc_sid", key: "marker-" + s.key, from: "replica-a", epoch: 0 });
      await marker;
      stop();
      assert.deepEqual(heard, []);
    });

    test("heardUpTo settles once every notice committed before it has reached the listeners", async () => {
      const key = `heard-up-to-${Math.random()}`;
      const heard: number[] = [];
      const stop = busB.subscribe((m) => m.t === "taken" && m.key === key && heard.push(m.epoch));
      // Half small, half by reference, whose text the listening replica cannot fetch until heardUpTo
      // has been called: the notices are committed, not all delivered, when it is; it waits for all.
      const fetchPayload = storeB.framePayload.bind(storeB);
      let open = () => {};
      const opened = new Promise<void>((resolve) => (open = resolve));
      storeB.framePayload = async (id) => {
        await opened;
        return fetchPayload(id);
      };
      try {
        for (let epoch = 1; epoch <= 10; epoch++) {
          const big = epoch % 2 === 0 ? { pad: "z".repeat(9000) } : {};
          await busA.publish({ t: "taken", app: "svc_sid", key, from: "replica-a", epoch, ...big });
        }
        assert.ok(heard.length < 10, "not all delivered yet");
        const waiting = busB.heardUpTo(10_000);
        open();
        await waiting;
        assert.deepEqual(heard, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      } finally {
        open();
        storeB.framePayload = fetchPayload;
        stop();
      }
    });

    test("a kill's notice goes out with the kill", async () => {
      const s = await session();
      await storeA.create(s, "replica-a");
      const heard = nextMessage(busB, (m) => m.t === "ended" && m.key === s.key);
      await storeA.kill(s.key, encodeMessage({ t: "ended", app: "svc_sid", key: s.key, from: "replica-a" }));
      assert.equal((await heard).t, "ended");
      assert.equal(await storeB.isDead(s.key), true);
    });

    test("revokeUser and disableUser notify every replica in the write's transaction, and this process's listeners", async () => {
      const user = `user-${Date.now()}`;
      const local: string[] = [];
      const stop = onAccessChange((id) => local.push(id));
      const revoked = nextMessage(busB, (m) => m.t === "access" && m.user === user);
      assert.deepEqual(await Auth.revokeUser(dbA, user), { ok: true, value: undefined });
      assert.equal((await revoked).t, "access");
      const disabled = nextMessage(busB, (m) => m.t === "access" && m.user === user);
      assert.deepEqual(await Auth.disableUser(dbA, user), { ok: true, value: undefined });
      await disabled;
      stop();
      assert.deepEqual(local, [user, user]);
    });

    test("a revoke that fails writes nothing and notifies no one", async () => {
      const heard: BusMessage[] = [];
      const stop = busB.subscribe((m) => m.t === "access" && heard.push(m));
      const closed = postgres.open();
      await closed.close();
      const result = await Auth.revokeUser(closed, "someone");
      assert.equal(result.ok, false);
      const marker = nextMessage(busB, (m) => m.t === "taken" && m.key === "after-failed-revoke");
      await busA.publish({ t: "taken", app: "svc_sid", key: "after-failed-revoke", from: "replica-a", epoch: 0 });
      await marker;
      stop();
      assert.deepEqual(heard, []);
    });

    const onPostgres = target.option === "postgres";
    test(
      onPostgres
        ? "a save, a takeover, a claim and a kill notify on Postgres, in their own statements"
        : "a save, a takeover, a claim and a kill send their notices on the broker and issue no NOTIFY",
      async () => {
        const { default: pg } = await import("postgres");
        const named = await dbA.query({ sql: "SELECT 'svc:' || current_schema() AS channel", args: [] });
        if (!named.ok) throw named.error;
        const channel = String(named.value[0]?.channel);
        // A listener of its own on the Postgres channel; the replicas' own pings and markers aside.
        const listener = pg(POSTGRES_URL!, { onnotice: () => {}, max: 1 });
        const notified: string[] = [];
        await listener.listen(channel, (text) => !text.startsWith("ping:") && !text.startsWith("mark:") && notified.push(text));
        try {
          const s = await session();
          await storeA.create(s, "replica-a");
          await storeB.ownership(s.key, { streaming: true });
          const heard: string[] = [];
          const stop = busB.subscribe((m) => "key" in m && m.key === s.key && heard.push(m.t));
          const ranBefore = ranA.length;
          const frame = encodeMessage({
            t: "frame",
            app: "svc_sid",
            key: s.key,
            from: "replica-a",
            epoch: 1,
            frame: { seq: 1, patches: [] },
          });
          assert.equal(await storeA.save({ ...s, outSeq: 1 }, "replica-a", 1, frame), true);
          assert.ok(await storeB.take(s.key, "replica-b"), "taken by B");
          // A loads it and claims it back with its next save.
          const loaded = await storeA.load(s.key);
          assert.equal(
            await storeA.save({ ...s, outSeq: 2 }, "replica-a", loaded!.epoch, undefined, {
              previousOwner: loaded!.owner,
              version: loaded!.version,
            }),
            true,
          );
          await storeA.kill(s.key, encodeMessage({ t: "ended", app: "svc_sid", key: s.key, from: "replica-a" }));
          const marker = nextMessage(busB, (m) => m.t === "taken" && m.key === "after-" + s.key);
          await busA.publish({ t: "taken", app: "svc_sid", key: "after-" + s.key, from: "replica-a", epoch: 0 });
          await marker;
          stop();
          // The frame; B's takeover told to A; A's claim told to B; the end.
          assert.deepEqual(heard, ["frame", "taken", "taken", "ended"]);
          const ranSql = ranA.slice(ranBefore).join("\n");
          // The Postgres listener has had the time the broker took, and more.
          await new Promise((resolve) => setTimeout(resolve, 300));
          if (onPostgres) {
            assert.match(ranSql, /pg_notify/);
            const ofSession = notified.filter((text) => text.includes(`"${s.key}"`));
            assert.equal(ofSession.length, 4, notified.join(" | "));
          } else {
            assert.doesNotMatch(ranSql, /pg_notify|NOTIFY/i);
            assert.deepEqual(notified, []);
          }
        } finally {
          await listener.end({ timeout: 1 });
        }
      },
    );
  });
}

/**
 * A TCP relay to Postgres that can be cut: its connections reset and new ones refused, as when
 * the database server goes away, until it is restored.
 */
async function cuttableRelay(
  target: URL,
): Promise<{ url: (schema: string) => string; port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const { createServer, connect } = await import("node:net");
  const sockets = new Set<import("node:net").Socket>();
  let down = false;
  const server = createServer((client) => {
    if (down) return client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    upstream.setNoDelay(true);
    client.setNoDelay(true);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as import("node:net").AddressInfo).port;
  return {
    port,
    url: (schema) => {
      const relayed = new URL(target);
      relayed.hostname = "127.0.0.1";
      relayed.port = String(port);
      relayed.searchParams.set("search_path", schema);
      return relayed.toString();
    },
    cut() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      down = false;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * How the listening replica's handle is made: from a URL (the bus then listens on a connection of
 * its own each time), or around the app's own postgres.js instance (it listens again on that
 * instance's listening connection, which comes back on postgres.js's own reconnect schedule: its
 * delay between tries grows with each failed one, up to 20 s, so after a 4 s outage of refused
 * connections the next try may be up to 20 s away).
 */
const HANDLES: readonly { readonly name: string; readonly open: (url: string) => Promise<Db>; readonly backMs: number }[] = [
  { name: "Db.open(url)", open: (url) => Promise.resolve(Db.open(url)), backMs: 5000 },
  {
    name: "Db.fromPostgres(sql)",
    open: async (url) => {
      const { default: postgres } = await import("postgres");
      return Db.fromPostgres(postgres(url, { onnotice: () => {} }) as never, { closeClient: true });
    },
    backMs: 30_000,
  },
];

describe("a bus whose handle is closed under it", { skip: POSTGRES_SKIP }, () => {
  test("stops checking that it hears, instead of trying the closed handle forever", async () => {
    const schema = `svc_bus_closed_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
    const url = `${POSTGRES_URL}${POSTGRES_URL!.includes("?") ? "&" : "?"}search_path=${schema}`;
    const admin = Db.open(url);
    const db = Db.open(url);
    try {
      assert.ok((await admin.query({ sql: `CREATE SCHEMA ${schema}`, args: [] })).ok);
      const bus = await PostgresBus.open(db, new PostgresLiveStore(db, "svc_sid"), 50);
      await new Promise((resolve) => setTimeout(resolve, 200)); // a few pings, heard
      await db.close(); // the app closes its handle and forgets the bus
      let tries = 0;
      const query = db.query.bind(db);
      const listen = db.listen.bind(db);
      Object.assign(db, {
        query: (...args: Parameters<Db["query"]>) => (tries++, query(...args)),
        listen: (...args: Parameters<Db["listen"]>) => (tries++, listen(...args)),
      });
      await new Promise((resolve) => setTimeout(resolve, 600));
      assert.ok(tries <= 1, `the bus tried the closed handle ${tries} times in 600 ms`);
      await bus.close();
    } finally {
      await admin.query({ sql: `DROP SCHEMA IF EXISTS ${schema} CASCADE`, args: [] });
      await admin.close();
    }
  });
});

describe("a bus whose database goes away", { skip: POSTGRES_SKIP }, () => {
  for (const handle of HANDLES) {
    test(`listens again once the database is back, although the driver's own re-listen failed while it was down (${handle.name})`, async () => {
      const schema = `svc_bus_outage_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
      const relay = await cuttableRelay(new URL(POSTGRES_URL!));
      const direct = Db.open(`${POSTGRES_URL}${POSTGRES_URL!.includes("?") ? "&" : "?"}search_path=${schema}`);
      const viaRelay = await handle.open(relay.url(schema));
      const buses: PostgresBus[] = [];
      try {
        assert.ok((await direct.query({ sql: `CREATE SCHEMA ${schema}`, args: [] })).ok);
        const sender = await PostgresBus.open(direct, new PostgresLiveStore(direct, "svc_sid"));
        buses.push(sender);
        // Pings every 250 ms: often enough to find the outage soon, seldom enough that a ping slowed
        // by a busy machine still comes back before the next one (a late one means: listen again).
        const listener = await PostgresBus.open(viaRelay, new PostgresLiveStore(viaRelay, "svc_sid"), 250);
        buses.push(listener);
        let resumed = 0;
        listener.onResume(() => resumed++);
        const heardAfter = async (key: string, ms: number) => {
          const heard = nextMessage(listener, (m) => m.t === "taken" && m.key === key, ms);
          // Published over and over: a notice sent while the listener is deaf is gone for good.
          const sending = setInterval(() => void sender.publish({ t: "taken", app: "svc_sid", key, from: "other", epoch: 1 }), 50);
          try {
            return await heard;
          } finally {
            clearInterval(sending);
          }
        };
        await heardAfter("before", 2000);
        await new Promise((resolve) => setTimeout(resolve, 1000)); // several pings, all heard
        assert.equal(resumed, 0, "a bus that hears its own pings never listens again");
        relay.cut(); // the listening connection drops; the driver's re-listen is refused
        await new Promise((resolve) => setTimeout(resolve, 4000));
        relay.restore();
        await heardAfter("after", handle.backMs);
        // The catch-up is queued when the driver confirms the LISTEN, which can come just after the
        // first notices the new connection hears: it follows them, it does not precede them.
        for (const until = Date.now() + 5000; resumed === 0 && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.ok(resumed >= 1, "it caught up as after any reconnect");
      } finally {
        // Closed whether or not it passed: a bus left open keeps trying to listen.
        for (const bus of buses) await bus.close();
        relay.cut();
        await viaRelay.close().catch(() => undefined);
        await relay.close();
        await direct.query({ sql: `DROP SCHEMA IF EXISTS ${schema} CASCADE`, args: [] });
        await direct.close();
      }
    });
  }
});

describe("a broker bus whose connection drops", { skip: POSTGRES_SKIP }, () => {
  for (const target of busTargets().filter((bus) => bus.option !== "postgres")) {
    test(`${target.name}: subscribes again, catches up once it hears its own marker, and hears what is sent after`, {
      skip: target.skip,
    }, async () => {
      const option = target.option as { redis: string } | { nats: string };
      const brokerUrl = new URL("redis" in option ? option.redis : option.nats);
      const relay = await cuttableRelay(brokerUrl);
      const viaRelay = new URL(brokerUrl);
      viaRelay.hostname = "127.0.0.1";
      viaRelay.port = String(relay.port);
      const relayed = "redis" in option ? { redis: viaRelay.toString() } : { nats: viaRelay.toString() };
      await postgres.setup();
      const dbSender = postgres.open();
      const dbListener = postgres.open();
      const buses: LiveBus[] = [];
      try {
        const sender = await openSharedStore(dbSender, "svc_sid", option).bus;
        buses.push(sender);
        const listener = await openSharedStore(dbListener, "svc_sid", relayed).bus;
        buses.push(listener);
        let resumed = 0;
        listener.onResume(() => resumed++);
        const heardAfter = async (key: string, ms: number) => {
          const heard = nextMessage(listener, (m) => m.t === "taken" && m.key === key, ms);
          // Published over and over: a notice sent while the listener is deaf is gone for good.
          const sending = setInterval(() => void sender.publish({ t: "taken", app: "svc_sid", key, from: "other", epoch: 1 }), 50);
          try {
            return await heard;
          } finally {
            clearInterval(sending);
          }
        };
        await heardAfter("before", 2000);
        assert.equal(resumed, 0, "a bus that never dropped does not catch up");
        relay.cut();
        await new Promise((resolve) => setTimeout(resolve, 2500));
        relay.restore();
        await heardAfter("after", 20_000);
        for (const until = Date.now() + 10_000; resumed === 0 && Date.now() < until;) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.ok(resumed >= 1, "it caught up as after any reconnect");
      } finally {
        for (const bus of buses) await bus.close();
        relay.cut();
        await relay.close();
        await dbSender.close();
        await dbListener.close();
        await postgres.teardown();
      }
    });
  }
});
