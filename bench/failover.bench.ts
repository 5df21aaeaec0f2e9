/**
 * Failover (docs/protocol.md#resend, docs/deployment.md#several-replicas): three replicas of the
 * counter app on Postgres behind a plain round-robin balancer with health checks
 * (tests/support/checked-proxy.ts), TABS tabs each clicking without a pause (one event in flight,
 * as the browser client sends), and in each round one replica SIGKILLed. Measured, over every
 * session the kill affected (one whose request failed after it): the time from the SIGKILL to that
 * session's first applied event, median and p99; and the events lost, counted from each session's
 * final model against the clicks its tab made. Ours: the client's resend (the same `(page, seq)`
 * after a network error, 502, 503 or 504, with the client's own capped backoff and jitter, until
 * answered). The peer: the previous client's rule, which dropped a click whose request failed by
 * network error or 502/504 and retried a 503 at most 8 times. Rounds alternate between the two.
 *
 * Needs SVC_TEST_POSTGRES_URL, and Node (the replicas are Node child processes).
 */
import process from "node:process";
import { backoffMs, resendable, resendDelayMs } from "../client/resend.ts";
import { Cluster } from "../tests/support/replicas-harness.ts";
import { CheckedProxy } from "../tests/support/checked-proxy.ts";
import { cookieHeader } from "../tests/support/live-harness.ts";
import { type BenchRow, median, percentile, report } from "./report.ts";

const AREA = "failover";
const TABS = Number(process.env.FAILOVER_BENCH_TABS ?? 20);
const ROUNDS = Number(process.env.FAILOVER_BENCH_ROUNDS ?? 6);
const DELAYS = { retryMs: 100, retryCapMs: 5_000, timeoutMs: 10_000 };

const runtime = "Bun" in globalThis ? "Bun" : "Deno" in globalThis ? "Deno" : "Node";
const skip = runtime !== "Node"
  ? `the replicas are Node child processes; this is ${runtime}`
  : process.env.SVC_TEST_POSTGRES_URL
  ? undefined
  : "SVC_TEST_POSTGRES_URL is not set";
if (skip !== undefined) {
  console.log(`BENCH_SKIP ${JSON.stringify({ area: AREA, name: "failover", reason: skip })}`);
  process.exit(0);
}

type Policy = "resend" | "drop";
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A tab of the counter app: its cookies, token and page id, its clicks, and what happened to them after the kill. */
class ClickingTab {
  cookies = "";
  csrf = "";
  handle = "";
  seq = 0;
  /** Clicks whose request was sent (each seq once, whatever its fate). */
  clicks = 0;
  firstFailureAfter: number | undefined;
  firstAppliedAfter: number | undefined;
  readonly page = `bench-${Math.random().toString(36).slice(2)}`;

  constructor(readonly base: string, readonly policy: Policy) {}

  async open(): Promise<this> {
    const resp = await fetch(`${this.base}/`);
    const html = await resp.text();
    const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1] ?? "";
    this.cookies = cookieHeader(resp, "");
    this.csrf = meta("svc-csrf");
    this.handle = meta("svc-session");
    return this;
  }

  /** One click, sent as the policy sends it; `killedAt` is the round's SIGKILL time (or Infinity before it). */
  async click(killedAt: () => number): Promise<void> {
    const seq = ++this.seq;
    this.clicks++;
    const body = JSON.stringify({ seq, msg: "Inc", args: [], sessionId: this.handle, page: this.page, lastAppliedSeq: 0 });
    for (let attempt = 0;; attempt++) {
      let resp: Response | undefined;
      try {
        resp = await fetch(`${this.base}/_svc/event`, {
          method: "POST",
          headers: { Cookie: this.cookies, "X-Svc-Csrf": this.csrf, "Content-Type": "application/json" },
          body,
          signal: AbortSignal.timeout(DELAYS.timeoutMs),
        });
        await resp.body?.cancel();
      } catch {
        resp = undefined;
      }
      const now = performance.now();
      const failed = resp === undefined || resendable(resp.status);
      if (failed) {
        if (now >= killedAt()) this.firstFailureAfter ??= now;
        if (this.policy === "drop" && (resp === undefined || resp.status !== 503 || attempt >= 8)) return; // dropped
        await sleep(this.policy === "resend" ? resendDelayMs(resp, attempt, DELAYS) : backoffMs(attempt, DELAYS));
        continue;
      }
      if (resp!.status === 200 || resp!.status === 204) {
        if (now >= killedAt() && this.firstFailureAfter !== undefined) this.firstAppliedAfter ??= now;
        this.cookies = cookieHeader(resp!, this.cookies);
        return;
      }
      throw new Error(`click ${seq}: ${resp!.status}`);
    }
  }

  /** The count the session's model holds (a render through the balancer, from any replica). */
  async count(): Promise<number> {
    for (;;) {
      const resp = await fetch(`${this.base}/_svc/render`, { headers: { Cookie: this.cookies, "X-Svc-Csrf": this.csrf } }).catch(() =>
        undefined
      );
      const html = resp?.ok ? await resp.text() : "";
      const found = /count (\d+)/.exec(html);
      if (found) return Number(found[1]);
      await resp?.body?.cancel().catch(() => undefined);
      await sleep(100);
    }
  }
}

type RoundResult = { recoveries: number[]; lost: number; clicks: number; affected: number };

async function round(cluster: Cluster, proxy: CheckedProxy, base: string, policy: Policy, victim: number): Promise<RoundResult> {
  const tabs = await Promise.all(Array.from({ length: TABS }, () => new ClickingTab(base, policy).open()));
  let killedAt = Infinity;
  let clicking = true;
  const clickers = tabs.map(async (tab) => {
    while (clicking) await tab.click(() => killedAt);
  });
  await sleep(1000);
  killedAt = performance.now();
  cluster.kill(victim, "SIGKILL");
  await cluster.exited(victim);
  // Every affected tab gets an event applied again (or the round gives up on it after 15 s).
  const until = killedAt + 15_000;
  while (performance.now() < until && tabs.some((t) => t.firstFailureAfter !== undefined && t.firstAppliedAfter === undefined)) {
    await sleep(20);
  }
  await sleep(300);
  clicking = false;
  await Promise.all(clickers);
  let lost = 0;
  for (const tab of tabs) lost += tab.clicks - (await tab.count());
  const affected = tabs.filter((t) => t.firstFailureAfter !== undefined);
  const recoveries = affected.map((t) => (t.firstAppliedAfter ?? until) - killedAt);
  const fresh = await cluster.restart(victim);
  proxy.replace(victim, fresh.url);
  while (!proxy.healthy[victim]) await sleep(50);
  return { recoveries, lost, clicks: tabs.reduce((n, t) => n + t.clicks, 0), affected: affected.length };
}

const cluster = await Cluster.start(3);
const proxy = new CheckedProxy(cluster.replicas.map((r) => r.url));
const base = await proxy.listen();
const results: Record<Policy, RoundResult[]> = { resend: [], drop: [] };
try {
  for (let i = 0; i < ROUNDS; i++) {
    for (const policy of (i % 2 === 0 ? ["resend", "drop"] : ["drop", "resend"]) as Policy[]) {
      const victim = Math.floor(Math.random() * 3);
      const result = await round(cluster, proxy, base, policy, victim);
      results[policy].push(result);
      console.log(
        `# round ${i + 1} ${policy}: SIGKILL of replica ${victim}; ${result.affected} of ${TABS} sessions affected, ` +
          `${result.clicks} clicks, ${result.lost} lost, recovery ${result.recoveries.map((ms) => Math.round(ms)).join(",")} ms`,
      );
    }
  }
} finally {
  await proxy.close();
  await cluster.stop();
}

const all = (policy: Policy) => results[policy].flatMap((r) => r.recoveries).sort((a, b) => a - b);
const lost = (policy: Policy) => results[policy].reduce((n, r) => n + r.lost, 0);
const clicks = (policy: Policy) => results[policy].reduce((n, r) => n + r.clicks, 0);
const ours = all("resend");
const peer = all("drop");
const peerName = "previous client: failed clicks dropped";
const rows: BenchRow[] = [
  {
    // As a share, so that the ratio stays finite: ours must be 100 % (no event lost).
    name: `clicks applied once, of the clicks made, over ${ROUNDS} SIGKILLs, ${TABS} tabs clicking (lost: ours ${lost("resend")} of ${
      clicks("resend")
    }, peer ${lost("drop")} of ${clicks("drop")})`,
    ours: (100 * (clicks("resend") - lost("resend"))) / clicks("resend"),
    peer: (100 * (clicks("drop") - lost("drop"))) / clicks("drop"),
    peerName,
    unit: "%",
    higherIsBetter: true,
    target: "ours = 100 % (0 lost)",
    met: lost("resend") === 0,
  },
  {
    name: `SIGKILL to the first applied event of an affected session, median (${ours.length} and ${peer.length} sessions)`,
    ours: median(ours),
    peer: median(peer),
    peerName,
    unit: "ms",
    higherIsBetter: false,
    target: "reported",
    met: true,
  },
  {
    name: "SIGKILL to the first applied event of an affected session, p99",
    ours: percentile(ours, 99),
    peer: percentile(peer, 99),
    peerName,
    unit: "ms",
    higherIsBetter: false,
    target: "reported",
    met: true,
  },
];
report(AREA, rows);
process.exit(0);
