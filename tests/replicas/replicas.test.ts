/**
 * Several replicas on one Postgres (docs/deployment.md#several-replicas): three replicas of the
 * counter app as child processes, behind the in-test proxy, driven by real HTTP and SSE clients.
 * Takeover on every miss, saves fenced on the epoch and before each frame, the bus for frames of
 * streams held elsewhere, pushed eviction, drain, and crashes (SIGKILL, SIGSTOP/SIGCONT).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { counterApp } from "./counter-app.ts";
import { Cluster } from "./harness.ts";
import { eventually, sleep, Tab } from "./tab.ts";
import { openTab } from "../live-server/harness.ts";
import { POSTGRES_SKIP } from "../db/targets.ts";

const runtime = "Bun" in globalThis ? "Bun" : "Deno" in globalThis ? "Deno" : "Node";
const skip =
  runtime !== "Node"
    ? `the multi-replica tests start each replica as a Node child process (node --import tsx); this is ${runtime}, so they run under Node only`
    : POSTGRES_SKIP;
if (skip !== undefined) console.log(`# ${skip}`);

/** The text-input id of the counter app's field, as the client reports it in inputState. */
const TEXT_INPUT = "r.#input:text";

describe("three replicas on Postgres", { skip }, () => {
  let cluster: Cluster;
  before(async () => {
    cluster = await Cluster.start(3);
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
    await Promise.all(
      tabs.map(async (tab, t) => {
        for (let i = 0; i < 50; i++) {
          const [msg, args] = script(t, i);
          const reply = await tab.send(msg, args, { [TEXT_INPUT]: { value: `typed ${i}`, seq: tab.seq + 1 } });
          if (reply.status !== 200) failed.push(`tab ${t} event ${i}: ${reply.status} ${reply.body}`);
        }
      }),
    );
    assert.deepEqual(failed, []);
    for (const tab of tabs) {
      assert.equal(tab.replySeqs.length, 50);
      for (let i = 1; i < tab.replySeqs.length; i++) assert.ok(tab.replySeqs[i]! > tab.replySeqs[i - 1]!, `seqs rise: ${tab.replySeqs.join(",")}`);
    }
    // Every frame reaches the tab's stream, wherever it is connected.
    await eventually(() => {
      for (const tab of tabs) assert.deepEqual(tab.stream!.seqs, tab.replySeqs, "the stream saw every frame, in order");
    });
    assert.ok(cluster.proxy.served.every((n) => n > 300), `every replica served: ${cluster.proxy.served.join(", ")}`);

    // One replica, in this process, given the same events: the same final renders.
    const one = counterApp();
    try {
      for (const [t, tab] of tabs.entries()) {
        const solo = await openTab(one);
        for (let i = 0; i < 50; i++) {
          const [msg, args] = script(t, i);
          assert.equal((await solo.post({ seq: i + 1, msg, args, page: "p", inputState: { [TEXT_INPUT]: { value: `typed ${i}`, seq: i + 1 } } })).status, 200);
        }
        const expected = await (await one.fetch(new Request("http://app.test/_svc/render", { headers: { Cookie: solo.cookies, "X-Svc-Csrf": solo.csrf } }))).text();
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
});
