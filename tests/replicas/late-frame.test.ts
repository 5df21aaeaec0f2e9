// Notices heard late (docs/deployment.md#late-notices): a frame notice carries the epoch of the save
// that published it, so a replica that read or claimed the session at that epoch keeps its copy;
// and a save the store accepted is the session's change even when a takeover made just after it is
// heard before the save returns: the event is answered with its frame, and the replica's streams
// get that frame. Two apps in this process on one Postgres schema stand for two replicas; the late
// notices are sent by hand, and the test waits until the replica has heard each one, so every
// interleaving is the one named.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Secret } from "../../src/auth/mod.ts";
import type { LiveApp } from "../../src/live/server/app/app.ts";
import type { BusMessage, LiveBus } from "../../src/live/store/bus.ts";
import { PairedBus } from "../../src/live/store/shared-bus.ts";
import { sessionKey } from "../../src/live/store/session-key.ts";
import { counterApp } from "../support/counter-app.ts";
import { frameReader, openTab, type Tab } from "../support/live-harness.ts";
import { POSTGRES_SKIP } from "../support/db-targets.ts";
import { replicaSchema } from "../support/replica-schema.ts";
import { busTargets } from "../support/bus-targets.ts";
import type { SharedBusOption } from "../../src/live/store/shared-bus.ts";

const skip = POSTGRES_SKIP;
if (skip !== undefined) console.log(`# tests/replicas/late-frame skipped: ${skip}`);

const { schema, open, admin: adminOf } = replicaSchema("late", "schema option");

const secret = Secret.fromString("late-frame-test-secret-late-frame-test-secret-0123456789");
type Counter = ReturnType<typeof counterApp>;

/** The replica's shared sessions (the registry's), and its bus (private, read here to hear what it heard). */
function sharedOf(app: Counter) {
  const shared = app.sessions.shared;
  assert.ok(shared !== undefined, "the app shares its sessions");
  return { shared, bus: shared["bus"] as LiveBus };
}

/** Sends a notice on the replicas' bus and settles once `app` has heard it (its own listener ran first). */
async function notifyHeard(app: Counter, message: BusMessage): Promise<void> {
  const { bus } = sharedOf(app);
  const text = JSON.stringify(message);
  let stop = () => {};
  const heard = new Promise<void>((resolve) => {
    stop = bus.subscribe((m) => {
      if (JSON.stringify(m) === text) resolve();
    });
  });
  try {
    // On Postgres, a NOTIFY on the schema's channel.
    await bus.publish(message);
    await heard;
  } finally {
    stop();
  }
}

const epochNow = async () => Number((await adminOf().unsafe(`SELECT epoch FROM ${schema}.svc_live_sessions`))[0]!.epoch);
const event = (app: LiveApp<unknown> | Counter, tab: Tab, seq: number) =>
  app.fetch(
    new Request("http://app.test/_svc/event", {
      method: "POST",
      headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, "Content-Type": "application/json" },
      body: JSON.stringify({ seq, msg: "Inc", args: [], sessionId: tab.handle, page: "p" }),
    }),
  );

/** Two replicas, a tab at the first, a stream of it at the second (listening over the bus), and frame 1 made at the first. */
async function twoReplicas(bus: SharedBusOption) {
  const first = counterApp({ db: open(), secret, bus });
  const second = counterApp({ db: open(), secret, bus });
  await Promise.all([first.ready(), second.ready()]);
  const tab = await openTab(first);
  const id = /svc_sid=([^;]+)/.exec(tab.cookies)![1]!;
  const key = await sessionKey(id);
  const stream = frameReader(
    await second.fetch(new Request("http://app.test/_svc/subscribe?page=q", { headers: { Cookie: tab.cookies } })),
  );
  assert.equal(stream.response.status, 200);
  const one = await event(first, tab, 1);
  assert.equal(one.status, 200);
  await one.body?.cancel();
  assert.equal((await stream.next(10_000))?.seq, 1, "the first replica's frame reached the stream at the second");
  return { first, second, tab, id, key, stream, close: () => (first.close(), second.close()) };
}

for (const bus of busTargets()) {
  describe(`on the ${bus.name} bus`, { skip: bus.skip }, () => {
    test(
      "a frame notice of the epoch a replica claimed the session at, heard late, leaves its copy; a later epoch's drops it",
      { skip },
      async () => {
        const { first, second, tab, id, key, stream, close } = await twoReplicas(bus.option);
        try {
          const two = await event(second, tab, 2); // the second replica claims the session
          assert.equal(two.status, 200);
          await two.body?.cancel();
          assert.equal(second.sessions.holds(id), true);
          const epoch = await epochNow();
          const from = sharedOf(first).shared.owner;
          const frame = (seq: number, at: number): BusMessage => ({
            t: "frame",
            app: "svc_sid",
            key,
            from,
            epoch: at,
            frame: { seq, patches: [] },
          });
          await notifyHeard(second, frame(1, epoch - 1));
          await notifyHeard(second, frame(2, epoch));
          assert.equal(second.sessions.holds(id), true, "frame notices of its own epoch or before leave the copy");
          assert.equal((await stream.next(10_000))?.seq, 2, "the stream has the claimer's frame");
          await notifyHeard(second, frame(3, epoch + 1));
          assert.equal(second.sessions.holds(id), false, "a frame saved at a later epoch drops it");
          assert.equal((await stream.next(10_000))?.seq, 3, "and its frame goes to the stream");
          await stream.close();
        } finally {
          close();
        }
      },
    );

    test(
      "a frame notice from the previous owner, heard while the claiming save is on its way, costs neither the reply nor the stream's frame",
      { skip },
      async () => {
        const { first, second, tab, id, key, stream, close } = await twoReplicas(bus.option);
        try {
          const { shared } = sharedOf(second);
          const save = shared.store.save.bind(shared.store);
          let late = 0;
          shared.store.save = async (...args) => {
            const claimedAt = args[2];
            if (late++ === 0) {
              // The notice of frame 1 (saved at the epoch the second replica read) arrives now.
              const from = sharedOf(first).shared.owner;
              await notifyHeard(second, { t: "frame", app: "svc_sid", key, from, epoch: claimedAt, frame: { seq: 1, patches: [] } });
            }
            return save(...args);
          };
          const two = await event(second, tab, 2);
          assert.equal(two.status, 200, "the event is answered with its frame, not 204 as already applied");
          assert.equal(((await two.json()) as { seq: number }).seq, 2);
          assert.equal(late, 1, "one save: the claim was not retried");
          assert.equal(second.sessions.holds(id), true);
          assert.equal((await stream.next(10_000))?.seq, 2, "the stream gets frame 2, and frame 1 only once");
          await stream.close();
        } finally {
          close();
        }
      },
    );

    test(
      "a takeover made just after a replica's save committed, heard before the save returns: the event is answered and its frame reaches that replica's stream",
      { skip },
      async () => {
        const { second, tab, id, key, stream, close } = await twoReplicas(bus.option);
        try {
          const { shared } = sharedOf(second);
          const save = shared.store.save.bind(shared.store);
          let saves = 0;
          shared.store.save = async (...args) => {
            const saved = await save(...args);
            if (saves++ === 0) {
              assert.equal(saved, true);
              // Another replica takes the session over, one epoch past this claim, and says so.
              await notifyHeard(second, { t: "taken", app: "svc_sid", key, from: "another-replica", epoch: args[2] + 2 });
              assert.equal(second.sessions.holds(id), false, "the copy was dropped while the save returned");
            }
            return saved;
          };
          const two = await event(second, tab, 2);
          assert.equal(two.status, 200, "the saved event is answered with its frame, not 204");
          assert.equal(((await two.json()) as { seq: number }).seq, 2);
          assert.equal(saves, 1, "not processed a second time");
          assert.equal((await stream.next(10_000))?.seq, 2, "the replica's stream got the saved frame");
          await stream.close();
        } finally {
          close();
        }
      },
    );

    test(
      "a render and a stream at the previous owner, before it hears of the takeover, get the new owner's state and frames",
      { skip },
      async () => {
        const first = counterApp({ db: open(), secret, bus: bus.option });
        const second = counterApp({ db: open(), secret, bus: bus.option });
        try {
          await Promise.all([first.ready(), second.ready()]);
          const tab = await openTab(first);
          const id = /svc_sid=([^;]+)/.exec(tab.cookies)![1]!;
          // The second replica's claims name no previous owner, so the first is never told: its copy
          // stays until it looks at the store (its lease renewal would, seconds later).
          const { shared } = sharedOf(second);
          const save = shared.store.save.bind(shared.store);
          shared.store.save = (session, owner, epoch, notice, claim) =>
            save(session, owner, epoch, notice, claim === undefined ? undefined : { previousOwner: undefined });
          const one = await event(second, tab, 1);
          assert.equal(one.status, 200);
          await one.body?.cancel();
          assert.equal(first.sessions.holds(id), true, "the first replica has heard nothing");

          const render = await first.fetch(
            new Request("http://app.test/_svc/render", { headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf } }),
          );
          assert.equal(render.status, 200);
          assert.match(await render.text(), /count 1</, "the render is the new owner's state, not the stale copy's");

          // The render took the session back; another event at the second replica makes the copy stale again.
          const two = await event(second, tab, 2);
          assert.equal(two.status, 200);
          await two.body?.cancel();
          const stream = frameReader(
            await first.fetch(new Request("http://app.test/_svc/subscribe?page=q", { headers: { Cookie: tab.cookies } })),
          );
          assert.equal(stream.response.status, 200);
          const three = await event(second, tab, 3);
          assert.equal(three.status, 200);
          assert.equal(((await three.json()) as { seq: number }).seq, 3);
          assert.equal((await stream.next(10_000))?.seq, 3, "the stream at the first replica gets the second's frame");
          await stream.close();
        } finally {
          first.close();
          second.close();
        }
      },
    );

    test(
      "a replica taking over a session its stream listens to passes on the previous owner's last frames first, heard late or not",
      { skip },
      async () => {
        const { first, second, tab, stream, close } = await twoReplicas(bus.option);
        try {
          // The second replica's bus hears notices but holds them back, as on a busy machine.
          const shared = sharedOf(second).bus;
          // On a broker, the bus that hears frames is the paired bus's broker half (src/live/store/shared-bus.ts).
          const hearing = (shared instanceof PairedBus ? shared["broker"] : shared) as unknown as { receive(payload: string): void };
          const receive = hearing["receive"].bind(hearing);
          let held: string[] | undefined = [];
          let marked = () => {};
          const markSent = new Promise<void>((resolve) => (marked = resolve));
          const release = () => {
            const payloads = held ?? [];
            held = undefined;
            for (const payload of payloads) receive(payload);
          };
          hearing["receive"] = (payload: string) => {
            if (held === undefined) return receive(payload);
            held.push(payload);
            if (payload.startsWith("mark:")) marked();
          };
          const two = await event(first, tab, 2); // frame 2's notice is held at the second replica
          assert.equal(two.status, 200);
          await two.body?.cancel();
          const three = event(second, tab, 3); // takes the session over from the state frame 2 left
          // Released once the takeover waits for what its bus has yet to hear (or once it answered).
          await Promise.race([markSent, three]);
          release();
          const reply = await three;
          assert.equal(reply.status, 200);
          assert.equal(((await reply.json()) as { seq: number }).seq, 3);
          assert.equal((await stream.next(10_000))?.seq, 2, "the previous owner's frame first");
          assert.equal((await stream.next(10_000))?.seq, 3, "then the new owner's");
          await stream.close();
        } finally {
          close();
        }
      },
    );
  });
}
