// A takeover while a replica answers events (docs/deployment.md#late-notices): events go to one
// replica while a stream resuming from frame 0 connects at another, which takes the session over.
// The replica that saved an event just before the takeover still answers it with its frame; that
// reply must never sign the tab out (clear its cookies), and every acknowledged event is in the
// final count. Two apps in this process, on one Postgres schema, stand for two replicas; the
// interleaving is drawn from a printed seed.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import process from "node:process";
import { Secret } from "../../src/auth/mod.ts";
import { counterApp } from "../support/counter-app.ts";
import { cookieHeader, openTab, sleep } from "../support/live-harness.ts";
import { POSTGRES_SKIP } from "../support/db-targets.ts";
import { replicaSchema } from "../support/replica-schema.ts";
import { busTargets } from "../support/bus-targets.ts";
import { seeded } from "../support/seeded.ts";

const skip = POSTGRES_SKIP;
if (skip !== undefined) console.log(`# tests/replicas/takeover-reply skipped: ${skip}`);

const { open } = replicaSchema("takeover_reply", "search_path");
const ITERATIONS = Number(process.env.SVC_TAKEOVER_ITERATIONS ?? 60);

for (const bus of busTargets()) {
  describe(`on the ${bus.name} bus`, { skip: bus.skip }, () => {
    test(
      "no event reply clears a cookie while another replica takes the session over, and the count is every acknowledged event",
      { skip },
      async () => {
        const seed = Number(process.env.SVC_TEST_SEED ?? Date.now() % 1_000_000);
        console.log(`# takeover-reply seed ${seed}`);
        const random = seeded(seed);
        const secret = Secret.fromString("takeover-reply-test-secret-takeover-reply-test-secret-01");
        // A save's result reaches its replica a little late at times, as on a busy connection: the
        // window in which the other replica's takeover lands between the commit and the reply.
        const slowSaves = () => {
          const db = open();
          const query = db.query.bind(db);
          db.query = async (statement) => {
            const result = await query(statement);
            if (/UPDATE svc_live_sessions SET handle/.test(statement.sql) && random() < 0.5) await sleep(random() * 15);
            return result;
          };
          return db;
        };
        const replicas = [
          counterApp({ db: slowSaves(), secret, bus: bus.option }),
          counterApp({ db: slowSaves(), secret, bus: bus.option }),
        ];
        try {
          await Promise.all(replicas.map((replica) => replica.ready()));
          const tab = await openTab(replicas[0]!);
          let seq = 0;
          let acknowledged = 0;
          const cleared: string[] = [];
          for (let i = 0; i < ITERATIONS; i++) {
            // Events at one replica, a resuming stream at the other; which is which alternates.
            const events = replicas[i % 2]!;
            const streams = replicas[(i + 1) % 2]!;
            const sending = (async () => {
              for (let n = 0; n < 1 + Math.floor(random() * 3); n++) {
                const mySeq = ++seq;
                for (let attempt = 0;; attempt++) {
                  const resp = await events.fetch(
                    new Request("http://app.test/_svc/event", {
                      method: "POST",
                      headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, "Content-Type": "application/json" },
                      body: JSON.stringify({ seq: mySeq, msg: "Inc", args: [], sessionId: tab.handle, page: "p" }),
                    }),
                  );
                  for (const line of resp.headers.getSetCookie()) {
                    if (/Max-Age=0/i.test(line)) cleared.push(`iteration ${i}, seq ${mySeq}, status ${resp.status}: ${line}`);
                  }
                  tab.cookies = cookieHeader(resp, tab.cookies);
                  await resp.body?.cancel();
                  if (resp.status === 200) acknowledged++;
                  // 503: the session was moving; the client sends the same event again (a duplicate is answered 204).
                  if (resp.status !== 503 || attempt >= 8) {
                    assert.ok(
                      resp.status === 200 || resp.status === 204,
                      `iteration ${i}, seq ${mySeq}: status ${resp.status} (seed ${seed})`,
                    );
                    break;
                  }
                  await sleep(20);
                }
              }
            })();
            const streaming = (async () => {
              await sleep(random() * 8);
              const resp = await streams.fetch(
                new Request("http://app.test/_svc/subscribe?page=q&since=0", { headers: { Cookie: tab.cookies, "Last-Event-ID": "0" } }),
              );
              for (const line of resp.headers.getSetCookie()) {
                if (/Max-Age=0/i.test(line)) cleared.push(`iteration ${i}, stream, status ${resp.status}: ${line}`);
              }
              await sleep(random() * 10);
              await resp.body?.cancel();
            })();
            await Promise.all([sending, streaming]);
            assert.deepEqual(cleared, [], `a reply cleared a cookie at iteration ${i} (seed ${seed})`);
          }
          // The count the session shows, at either replica, is every acknowledged event.
          const render = await replicas[0]!.fetch(
            new Request("http://app.test/_svc/render", { headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf } }),
          );
          assert.equal(render.status, 200, `render (seed ${seed})`);
          assert.match(
            await render.text(),
            new RegExp(`count ${acknowledged}<`),
            `count after ${acknowledged} acknowledged events (seed ${seed})`,
          );
        } finally {
          for (const replica of replicas) replica.close();
        }
      },
    );
  });
}
