// Token sessions on several replicas (docs/protocol.md#token-sessions, docs/deployment.md#several-replicas):
// two apps in this process, on one Postgres schema, stand for two replicas. A token names a
// session either of them serves: events at one and the other, a stream at the one that does not
// hold the session, a sign-in's rotation, and the end, after which neither revives it.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Secret } from "../../src/auth/mod.ts";
import { counterApp } from "../support/counter-app.ts";
import { openTokenTab } from "../support/token-tab.ts";
import { POSTGRES_SKIP } from "../support/db-targets.ts";
import { replicaSchema } from "../support/replica-schema.ts";
import { busTargets } from "../support/bus-targets.ts";

const skip = POSTGRES_SKIP;
if (skip !== undefined) console.log(`# tests/replicas/token-sessions skipped: ${skip}`);

const { open, closers } = replicaSchema("token", "search_path");

const countOf = async (resp: Response) => {
  const text = resp.headers.get("Content-Type")?.includes("json") ? JSON.stringify(await resp.json()) : await resp.text();
  return /count (\d+)/.exec(text)?.[1];
};

for (const bus of busTargets()) {
  describe(`on the ${bus.name} bus`, { skip: bus.skip }, () => {
    test("either replica serves a token session: events at both, a stream at the other, a rotation, and the end", { skip }, async () => {
      const secret = Secret.fromString("token-replicas-test-secret-token-replicas-0123456789");
      const a = counterApp({ db: open(), gate: open(), secret, session: "token", bus: bus.option });
      const b = counterApp({ db: open(), gate: open(), secret, session: "token", bus: bus.option });
      closers.push(() => a.close(), () => b.close());
      await Promise.all([a.ready(), b.ready()]);

      const tab = await openTokenTab(a);
      assert.equal(tab.page.status, 200);
      assert.deepEqual(tab.page.headers.getSetCookie(), []);
      // A holds the session: a stream at B listens there, and A's frames reach it over the bus.
      const stream = await tab.subscribe({ via: b, query: "?since=0" });
      assert.equal(stream.response.status, 200);
      for (let i = 1; i <= 3; i++) assert.equal((await tab.post({ seq: i, msg: "Inc", page: "p" }, { via: a })).status, 200);
      const seen: number[] = [];
      for (let frame = await stream.next(10_000); frame !== undefined; frame = frame.seq < 3 ? await stream.next(10_000) : undefined) {
        seen.push(frame.seq);
      }
      assert.deepEqual(seen, [1, 2, 3], "the stream at B got A's frames, in order");

      // Events at one replica and the other: each takes the session over from the store, answers
      // with its frame (a late notice costs neither, docs/deployment.md#late-notices), and the stream
      // at B gets every frame in order, B's own and A's over the bus.
      for (let i = 4; i <= 9; i++) {
        const reply = await tab.post({ seq: i, msg: "Inc", page: "p" }, { via: i % 2 === 0 ? b : a });
        assert.equal(reply.status, 200, `event ${i} at ${i % 2 === 0 ? "B" : "A"}`);
      }
      for (let frame = await stream.next(10_000); frame !== undefined; frame = frame.seq < 9 ? await stream.next(10_000) : undefined) {
        seen.push(frame.seq);
      }
      assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8, 9], "the stream at B got every frame, in order");
      await stream.close();
      // A took the session over last.
      const rendered = await tab.render(a);
      assert.equal(rendered.status, 200);
      assert.equal(await countOf(rendered), "9");

      // Sign-in at B rotates the session's id: the reply hands the new token, which A serves too.
      const old = tab.token;
      const signIn = await tab.post({ seq: 10, msg: "SignIn", args: [`token-${Date.now()}`], page: "p" }, { via: b });
      assert.equal(signIn.status, 200);
      assert.notEqual(tab.token, old);
      const atA = await tab.post({ seq: 11, msg: "Inc", page: "p" }, { via: a });
      assert.equal(atA.status, 200, await atA.clone().text());
      const rotating = await a.fetch(new Request("http://app.test/_svc/render", { headers: { "X-Svc-Session": old } }));
      assert.equal(rotating.status, 409, "the old token is rotating at the other replica too");

      // The end at A kills the id in the store: B does not revive it.
      assert.equal((await tab.end(a)).status, 204);
      for (const replica of [a, b]) {
        const after = await tab.post({ seq: 12, msg: "Inc", page: "p" }, { via: replica });
        assert.equal(after.status, 404);
        assert.equal(after.headers.get("X-Svc-Status"), "session-lost");
      }
    });
  });
}
