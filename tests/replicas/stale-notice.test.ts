// A "taken" notice heard late (docs/deployment.md#several-replicas): a replica that read or claimed
// a session at epoch E keeps its copy when it hears that another replica took the session at E or
// before (its copy already holds what that replica left), and drops it at a later epoch. Two apps
// in this process on one Postgres schema stand for two replicas; the notices are sent by hand.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Secret } from "../../src/auth/mod.ts";
import { sessionKey } from "../../src/live/store/session-key.ts";
import { counterApp } from "../support/counter-app.ts";
import { openTab } from "../support/live-harness.ts";
import { POSTGRES_SKIP } from "../support/db-targets.ts";
import { replicaSchema } from "../support/replica-schema.ts";
import { busTargets } from "../support/bus-targets.ts";

const skip = POSTGRES_SKIP;
if (skip !== undefined) console.log(`# tests/replicas/stale-notice skipped: ${skip}`);

const { schema, open, admin: adminOf } = replicaSchema("notice", "schema option");

for (const bus of busTargets()) {
  describe(`on the ${bus.name} bus`, { skip: bus.skip }, () => {
    test(
      "a replica keeps a session it took over when a takeover notice of the same epoch arrives late, and drops it for a later one",
      { skip },
      async () => {
        const secret = Secret.fromString("stale-notice-test-secret-stale-notice-test-secret-0123");
        const first = counterApp({ db: open(), secret, bus: bus.option });
        const second = counterApp({ db: open(), secret, bus: bus.option });
        try {
          await Promise.all([first.ready(), second.ready()]);
          const tab = await openTab(first);
          const id = /svc_sid=([^;]+)/.exec(tab.cookies)![1]!;
          // The second replica takes the session over with an event (it claims it at epoch 2).
          const inc = await second.fetch(
            new Request("http://app.test/_svc/event", {
              method: "POST",
              headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, "Content-Type": "application/json" },
              body: JSON.stringify({ seq: 1, msg: "Inc", args: [], sessionId: tab.handle, page: "p" }),
            }),
          );
          assert.equal(inc.status, 200);
          await inc.body?.cancel();
          assert.equal(second.sessions.holds(id), true);
          const [row] = await adminOf().unsafe(`SELECT epoch FROM ${schema}.svc_live_sessions`);
          const epoch = Number(row!.epoch);
          const key = await sessionKey(id);
          // Every notice sent before it has reached the replica's listeners (a marker on the bus):
          // waited for, not timed, so a busy machine cannot make a check pass before the notice is heard.
          const heard = second.sessions.shared?.["bus"];
          assert.ok(heard !== undefined);
          // Sent on the bus the replicas share (on Postgres, a NOTIFY on the schema's channel).
          const notify = (at: number) => heard.publish({ t: "taken", app: "svc_sid", key, from: "another-replica", epoch: at });
          const settle = () => heard.heardUpTo(30_000);

          await notify(epoch - 1);
          await notify(epoch);
          await settle();
          assert.equal(second.sessions.holds(id), true, "notices of its own epoch or before leave the copy");
          await notify(epoch + 1);
          await settle();
          assert.equal(second.sessions.holds(id), false, "a later takeover drops it");
        } finally {
          first.close();
          second.close();
        }
      },
    );
  });
}
