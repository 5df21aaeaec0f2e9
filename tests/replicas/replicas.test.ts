/**
 * Several replicas on one Postgres (docs/deployment.md#several-replicas): three replicas of the
 * counter app as child processes, behind the in-test proxy, driven by real HTTP and SSE clients.
 * Takeover on every miss, saves fenced on the epoch and before each frame, the bus for frames of
 * streams held elsewhere, pushed eviction, drain, and crashes (SIGKILL, SIGSTOP/SIGCONT).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Auth } from "../../src/auth/mod.ts";
import { Db } from "../../src/db/mod.ts";
import { counterApp } from "../support/counter-app.ts";
import { Cluster } from "../support/replicas-harness.ts";
import { eventually, sleep, SseStream, Tab } from "./tab.ts";
import { cookieHeader, openTab } from "../support/live-harness.ts";
import { POSTGRES_SKIP } from "../support/db-targets.ts";
import { busEnv, busTargets } from "../support/bus-targets.ts";

const runtime = "Bun" in globalThis ? "Bun" : "Deno" in globalThis ? "Deno" : "Node";
const skip = runtime !== "Node"
  ? `the multi-replica tests start each replica as a Node child process (node --import tsx); this is ${runtime}, so they run under Node only`
  : POSTGRES_SKIP;
if (skip !== undefined) console.log(`# ${skip}`);

/** The text-input id of the counter app's field, as the client reports it in inputState. */
const TEXT_INPUT = "r.#input:text";

for (const bus of busTargets()) {
  describe(`three replicas on Postgres, the ${bus.name} bus`, { skip: skip ?? bus.skip }, () => {
    let cluster: Cluster;
    before(async () => {
      cluster = await Cluster.start(3, "round-robin", busEnv(bus.option));
    });
    after(async () => {
      await cluster?.stop();
    });

    test("round-robin: 1,000 events from 20 tabs give no failed event, rising seqs per tab, no lost SSE frame, and the models one replica gives", async () => {
      cluster.proxy.mode = "round-robin";
      const tabs = await Promise.all(Array.from({ length: 20 }, () => new Tab(cluster.proxyUrl).open()));
      for (const tab of tabs) await tab.subscribe();
      const script = (t: number, i: number): [string, unknown[]] => (i % 3 === 2 ? ["Inc", []] : ["Note", [`t${t}-e${i}`]]);
      const failed: string[] = [];
      // 204: the proxy passed the request on after its first replica's connection reset, and that
      // replica had applied it: the copy is a no-op (the model comparison below proves once).
      let appliedAlready = 0;
      const passedOnBefore = cluster.proxy.passedOn;
      await Promise.all(
        tabs.map(async (tab, t) => {
          for (let i = 0; i < 50; i++) {
            const [msg, args] = script(t, i);
            const reply = await tab.send(msg, args, { [TEXT_INPUT]: { value: `typed ${i}`, seq: tab.seq + 1 } });
            if (reply.status === 204) appliedAlready++;
            else if (reply.status !== 200) failed.push(`tab ${t} event ${i}: ${reply.status} ${reply.body}`);
          }
        }),
      );
      assert.deepEqual(failed, []);
      assert.ok(appliedAlready <= cluster.proxy.passedOn - passedOnBefore, "a 204 only for a request the proxy passed on");
      for (const tab of tabs) {
        for (let i = 1; i < tab.replySeqs.length; i++) {
          assert.ok(tab.replySeqs[i]! > tab.replySeqs[i - 1]!, `seqs rise: ${tab.replySeqs.join(",")}`);
        }
      }
      // Every frame reaches the tab's stream, wherever it is connected: one per event, in order.
      await eventually(() => {
        for (const tab of tabs) {
          assert.deepEqual(tab.stream!.seqs, Array.from({ length: 50 }, (_, i) => i + 1), "the stream saw every frame, in order");
          for (const seq of tab.replySeqs) assert.ok(tab.stream!.seqs.includes(seq));
        }
      });
      assert.ok(cluster.proxy.served.every((n) => n > 300), `every replica served: ${cluster.proxy.served.join(", ")}`);

      // One replica, in this process, given the same events: the same final renders.
      const one = counterApp();
      try {
        for (const [t, tab] of tabs.entries()) {
          const solo = await openTab(one);
          for (let i = 0; i < 50; i++) {
            const [msg, args] = script(t, i);
            assert.equal(
              (await solo.post({ seq: i + 1, msg, args, page: "p", inputState: { [TEXT_INPUT]: { value: `typed ${i}`, seq: i + 1 } } }))
                .status,
              200,
            );
          }
          const expected = await (await one.fetch(
            new Request("http://app.test/_svc/render", { headers: { Cookie: solo.cookies, "X-Svc-Csrf": solo.csrf } }),
          )).text();
          const shared = await tab.render();
          assert.equal(shared.status, 200);
          assert.equal(shared.html, expected);
          assert.equal(shared.seq, 50, "one seq per event, as on one replica");
        }
      } finally {
        one.close();
      }
      await Promise.all(tabs.map((tab) => tab.stream!.close()));
    });

    /** A tab signed in as `user` (a bind, which rotates the id: the reply carries the new cookie). */
    async function signedIn(user: string, via = cluster.proxyUrl): Promise<Tab> {
      const tab = await new Tab(via).open();
      const reply = await tab.send("SignIn", [user]);
      assert.equal(reply.status, 200, reply.body);
      return tab;
    }

    for (const action of ["revoke", "disable"] as const) {
      test(`a ${action} through replica A closes the user's streams on B and C within 1 s, and their next events get 404 session-lost`, async () => {
        const [a, b, c] = cluster.replicas;
        const user = `user-${action}-${Date.now()}`;
        const onB = await signedIn(user, b!.url);
        const onC = await signedIn(user, c!.url);
        const bystander = await signedIn(`other-${Date.now()}`, b!.url);
        // Streams on B and C, whichever replica holds each session.
        const streams = [
          await onB.subscribe(b!.url),
          await onB.subscribe(c!.url),
          await onC.subscribe(c!.url),
          await onC.subscribe(b!.url),
        ];
        const bystanderStream = await bystander.subscribe(c!.url);
        await sleep(10); // a revoke covers sessions bound strictly before it
        const started = Date.now();
        const resp = await fetch(`${a!.url}/test/${action}/${user}`, { method: "POST" });
        assert.equal(resp.status, 200, await resp.text());
        await eventually(() => {
          for (const stream of streams) assert.ok(stream.ended && stream.lost, "the stream got the session-lost signal and closed");
        }, 1000);
        const slowest = Math.max(...streams.map((stream) => stream.endedAt - started));
        assert.ok(slowest <= 1000, `closed within 1 s (took ${slowest} ms)`);
        for (const tab of [onB, onC]) {
          for (const via of [a!.url, b!.url, c!.url]) {
            const next = await tab.send("Inc", [], undefined, via);
            assert.equal(next.status, 404);
            assert.equal(next.lost, true);
          }
        }
        assert.equal(bystanderStream.ended, false, "another user's stream stays open");
        assert.equal((await bystander.send("Inc")).status, 200);
        await bystanderStream.close();
      });
    }

    test("a revoke sent while the replicas' bus connections are down still ends the user's sessions once they listen again", async () => {
      const [, b, c] = cluster.replicas;
      const user = `user-missed-${Date.now()}`;
      const tab = await signedIn(user, b!.url);
      const bystander = await signedIn(`other-missed-${Date.now()}`, b!.url);
      const streams = [await tab.subscribe(b!.url), await tab.subscribe(c!.url)];
      const bystanderStream = await bystander.subscribe(c!.url);
      await sleep(10); // a revoke covers sessions bound strictly before it
      // The revoke's own transaction ends every replica's listening connection just before it
      // commits (without waiting, so none has listened again by then), so its notice goes out while
      // no replica listens: the replicas must catch up.
      const admin = Db.open(cluster.databaseUrl);
      const transaction = admin.transaction.bind(admin);
      let terminated = 0;
      admin.transaction = async (statements) => {
        // Only the revoke's own transaction (the one that notifies), not the schema check before it.
        if (!statements.some((statement) => statement.sql.includes("pg_notify"))) return transaction(statements);
        const done = await transaction([
          ...statements,
          {
            sql: `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
                WHERE application_name = $1 AND pid <> pg_backend_pid() AND query ILIKE 'listen %'`,
            args: [cluster.schema],
          },
        ]);
        if (done.ok) terminated = Number(done.value.at(-1)?.[0]?.n);
        return done;
      };
      try {
        const revoked = await Auth.revokeUser(admin, user);
        assert.ok(revoked.ok);
        assert.ok(terminated >= 3, `every replica's listening connection was ended (${terminated})`);
        await eventually(() => {
          for (const stream of streams) assert.ok(stream.ended && stream.lost, "the stream got the session-lost signal and closed");
        }, 5000);
        for (const via of [b!.url, c!.url]) {
          const next = await tab.send("Inc", [], undefined, via);
          assert.equal(next.status, 404);
          assert.equal(next.lost, true);
        }
        assert.equal(bystanderStream.ended, false, "another user's stream stays open");
        assert.equal((await bystander.send("Inc", [], undefined, b!.url)).status, 200);
      } finally {
        await bystanderStream.close();
        await admin.close();
      }
    });

    test("a rotated-away id keeps its grace period on every replica: session-rotating, the ticket's exchange, the old token and handle", async () => {
      const [a, b, c] = cluster.replicas;
      const tab = await new Tab(b!.url).open();
      const old = { cookies: tab.cookies, csrf: tab.csrf, handle: tab.handle };
      const post = (via: string, cookies: string, csrf: string, body: Record<string, unknown>, path = "/_svc/event", headers = {}) =>
        fetch(new URL(path, via), {
          method: "POST",
          headers: { Cookie: cookies, "X-Svc-Csrf": csrf, "Content-Type": "application/json", ...headers },
          body: JSON.stringify(body),
        });
      // Signing in at B binds a user, which rotates the session's id; the reply carries the ticket.
      const signIn = await post(b!.url, old.cookies, old.csrf, {
        seq: 1,
        msg: "SignIn",
        args: [`rot-${Date.now()}`],
        sessionId: old.handle,
        page: "p",
      });
      assert.equal(signIn.status, 200, await signIn.text());
      const ticket = signIn.headers.get("X-Svc-Rotation");
      assert.ok(ticket, "the rotating tab gets a ticket");
      const current = {
        cookies: cookieHeader(signIn, old.cookies),
        csrf: signIn.headers.get("X-Svc-Csrf")!,
        handle: signIn.headers.get("X-Svc-Sid")!,
      };
      assert.notEqual(current.cookies, old.cookies);

      // The old cookie, at replicas that did not rotate it: session-rotating, not session-lost.
      for (const via of [a!.url, c!.url]) {
        const event = await post(via, old.cookies, old.csrf, { seq: 2, msg: "Inc", args: [], sessionId: old.handle, page: "p" });
        assert.equal(event.status, 409, `event at another replica: ${event.status} ${await event.text()}`);
        const render = await fetch(new URL("/_svc/render", via), { headers: { Cookie: old.cookies, "X-Svc-Csrf": old.csrf } });
        assert.equal(render.status, 409, "render at another replica");
        await render.body?.cancel();
      }
      // A wrong ticket exchanges nothing; the right one, at C, gives the new cookie, handle and token.
      const wrong = await post(c!.url, old.cookies, old.csrf, {}, "/_svc/rotate", { "X-Svc-Rotation": "not-the-ticket" });
      assert.equal(wrong.status, 404);
      const exchanged = await post(c!.url, old.cookies, old.csrf, {}, "/_svc/rotate", { "X-Svc-Rotation": ticket });
      assert.equal(exchanged.status, 204, await exchanged.text());
      assert.equal(cookieHeader(exchanged, old.cookies), current.cookies, "the exchange sets the new session cookie");
      assert.equal(exchanged.headers.get("X-Svc-Sid"), current.handle);
      // Another tab of the browser: the new cookie (shared jar), the old token and handle, at A.
      const otherTab = await post(a!.url, current.cookies, old.csrf, { seq: 3, msg: "Inc", args: [], sessionId: old.handle, page: "q" });
      assert.equal(otherTab.status, 200, `old token and handle at another replica: ${otherTab.status} ${await otherTab.clone().text()}`);
      assert.equal(otherTab.headers.get("X-Svc-Sid"), current.handle, "told the current handle");
      assert.equal(otherTab.headers.get("X-Svc-Csrf"), current.csrf, "told the current token");
      await otherTab.body?.cancel();
    });

    test("a page's stream naming the owner's last frame in ?since= at another replica listens over the bus, starts with no sync and leaves the session where it is", async () => {
      const [owner, other] = cluster.replicas;
      const tab = await new Tab(owner!.url).open();
      assert.equal((await tab.send("Inc")).status, 200); // frame 1, stamped before the page's stream opens
      const stream = await SseStream.open(new URL("/_svc/subscribe?page=p1&since=1", other!.url), tab.cookies);
      assert.equal(stream.status, 200);
      await sleep(200);
      assert.equal((await tab.send("Inc")).status, 200); // frame 2, at the owner still
      await eventually(() => assert.deepEqual(stream.events, ["patch"]));
      assert.deepEqual(stream.seqs, [2]);
      await stream.close();
    });

    test("a page's stream naming an earlier frame in ?since= at another replica resumes from it as from Last-Event-ID: a render, never a sync", async () => {
      const [owner, other] = cluster.replicas;
      const tab = await new Tab(owner!.url).open();
      assert.equal((await tab.send("Inc")).status, 200); // frame 1, stamped before the page's stream opens
      const stream = await SseStream.open(new URL("/_svc/subscribe?page=p1&since=0", other!.url), tab.cookies);
      assert.equal(stream.status, 200);
      // The frames after 0 are the session's, which that replica takes over to send them (a
      // render, since a session taken over keeps no frames); frame 2 follows from there.
      await eventually(() => assert.deepEqual(stream.events, ["render"]));
      assert.equal((await tab.send("Inc")).status, 200);
      await eventually(() => assert.deepEqual(stream.events, ["render", "patch"]));
      assert.deepEqual(stream.seqs, [2]);
      await stream.close();
    });

    test("SIGKILL of a session's owner: the next event, through another replica, continues from the last saved state with a higher seq", async () => {
      const owner = cluster.replicas[0]!;
      const tab = await new Tab(owner.url).open();
      for (let i = 0; i < 5; i++) assert.equal((await tab.send("Inc")).status, 200);
      const lastSeen = tab.lastSeenSeq;
      cluster.kill(0, "SIGKILL");
      await cluster.exited(0);
      tab.base = cluster.proxyUrl;
      const next = await tab.send("Inc");
      assert.equal(next.status, 200, next.body);
      assert.ok(next.seq! > lastSeen, `seq ${next.seq} above ${lastSeen}`);
      const render = await tab.render();
      assert.match(render.html, /count 6</, "the five saved increments and this one");
      await cluster.restart(0);
    });

    test("SIGTERM drain during steady typing loses no acknowledged input", async () => {
      cluster.proxy.mode = "round-robin";
      const tabs = await Promise.all(Array.from({ length: 4 }, () => new Tab(cluster.proxyUrl).open()));
      const acked: string[][] = tabs.map(() => []);
      let typing = true;
      const typists = tabs.map(async (tab, t) => {
        for (let i = 0; typing; i++) {
          const note = `t${t}-${i}`;
          const reply = await tab.sendRetrying("Note", [note]);
          // 204: this seq of the page was applied already, by a copy that got no reply (the proxy
          // passes a request on when the draining replica's connection resets): acknowledged too.
          if (reply.status === 200 || reply.status === 204) acked[t]!.push(note);
          else assert.fail(`tab ${t}: ${reply.status} ${reply.body}`);
        }
      });
      // Paced by what was acknowledged, not by the clock, so that a busy machine changes nothing:
      // every tab types before the drain, and every tab goes on typing after it.
      const typed = (atLeast: readonly number[]) =>
        eventually(() => {
          for (const [t, notes] of acked.entries()) assert.ok(notes.length >= atLeast[t]!, `tab ${t} typed ${notes.length} notes`);
        }, 60_000);
      await typed(tabs.map(() => 3));
      cluster.kill(1, "SIGTERM");
      assert.equal(await cluster.exited(1), 0, "the replica drained and exited cleanly");
      cluster.proxy.exclude(1);
      await typed(acked.map((notes) => notes.length + 3));
      typing = false;
      await Promise.all(typists);
      for (const [t, tab] of tabs.entries()) {
        const render = await tab.render();
        const logged = [...render.html.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);
        assert.deepEqual(logged, acked[t], `tab ${t}: every acknowledged note, once, in order`);
      }
      await cluster.restart(1);
    });

    test("SIGSTOP of the owner, a takeover elsewhere, then SIGCONT: the old owner sends nothing and saves nothing", async () => {
      const [owner, taker, watcher] = cluster.replicas;
      const tab = await new Tab(owner!.url).open();
      assert.equal((await tab.send("StartTicks")).status, 200);
      const atOwner = await tab.subscribe(owner!.url);
      const atWatcher = await tab.subscribe(watcher!.url);
      await sleep(500); // ticks run at the owner
      cluster.kill(0, "SIGSTOP");
      await sleep(300); // the owner's tick timers come due while it is stopped
      const moved = await tab.send("Inc", [], undefined, taker!.url);
      assert.equal(moved.status, 200, moved.body);
      await sleep(500); // ticks now run at the taker
      cluster.kill(0, "SIGCONT");
      await sleep(1000); // the old owner's overdue ticks fire, and are fenced off
      const before = await tab.render(taker!.url);
      // A tick is due every 200 ms; on a busy machine one may come later: waited for, not timed.
      let after = before;
      await eventually(async () => {
        after = await tab.render(taker!.url);
        assert.ok(after.seq > before.seq, "the taker's ticks carry on");
      }, 30_000);
      for (const stream of [atOwner, atWatcher]) assert.equal(stream.conflicts, 0, "no seq was sent twice with different frames");
      const seqs = atWatcher.seqs;
      for (let i = 1; i < seqs.length; i++) assert.ok(seqs[i]! > seqs[i - 1]!, `frames rise: ${seqs.join(",")}`);
      // The saved state is the taker's: its render and the stored seq agree, and the count holds.
      assert.match(after.html, /count 1</);
      await atOwner.close();
      await atWatcher.close();
    });
  });
}
