// No click or keystroke is lost when a replica dies or is redeployed (docs/protocol.md#resend,
// docs/deployment.md#draining), in a real browser (Chromium through playwright-core): the counter
// app on three replicas on Postgres, behind a plain round-robin balancer written for this test
// (tests/support/checked-proxy.ts: health checks every 250 ms, 502 for a request its replica did
// not answer, no retries of its own). A user clicks and types without a pause while (a) one
// replica is SIGKILLed, (b) all three are replaced one by one by SIGTERM as in a rolling deploy,
// and (c) the balancer has no replica for 2.5 s. Every click and every character is applied exactly
// once, the final model is what the user did, and the page showed its reconnecting state and
// cleared it. The random seed is printed (FAILOVER_SEED=<seed> replays the same user and kills).
// On each bus (docs/deployment.md#the-bus): Postgres NOTIFY, and Redis and NATS when
// SVC_TEST_REDIS_URL and SVC_TEST_NATS_URL are set; a cluster per bus, the same seed on each.
//
// Skipped, with the reason printed, under Bun and Deno, without SVC_TEST_POSTGRES_URL, and when
// /usr/bin/chromium is missing.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import type { Page } from "playwright-core";
import { e2eSkipReason, eventually, sharedBrowser, sleep, value } from "./support.ts";
import { Cluster, COUNTER_MAIN } from "../support/replicas-harness.ts";
import { CheckedProxy } from "../support/checked-proxy.ts";
import { POSTGRES_SKIP } from "../support/db-targets.ts";
import { busEnv, busTargets } from "../support/bus-targets.ts";
import { seeded } from "../support/seeded.ts";

const skip = e2eSkipReason() ?? POSTGRES_SKIP;
if (skip !== undefined) console.log(`tests/e2e/failover skipped: ${skip}`);

const seed = Number(process.env["FAILOVER_SEED"] ?? Date.now() % 2 ** 31);
console.log(`failover: random seed ${seed} (FAILOVER_SEED=${seed} to replay)`);

const browser = sharedBrowser("svc-e2e-failover-", skip);

/** Records, in the page, every change of the reconnecting state: the class on <html> and the live region's text. */
async function watchReconnecting(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { reconnecting: string[] }).reconnecting = seen;
    const root = document.documentElement;
    let on = root.classList.contains("svc-reconnecting");
    new MutationObserver(() => {
      const now = root.classList.contains("svc-reconnecting");
      if (now === on) return;
      on = now;
      const region = document.getElementById("svc-reconnecting-status");
      seen.push(`${now ? "on" : "off"}:${region?.getAttribute("aria-live")}:${region?.textContent ?? ""}`);
    }).observe(root, { attributes: true, attributeFilter: ["class"] });
  });
}

for (const bus of busTargets()) {
  const skipBus = skip ?? bus.skip;
  describe(`on the ${bus.name} bus`, () => {
    let cluster: Cluster | undefined;
    let proxy: CheckedProxy | undefined;
    if (skipBus === undefined) {
      before(async () => {
        cluster = await Cluster.start(3, "round-robin", busEnv(bus.option), COUNTER_MAIN);
        proxy = new CheckedProxy(cluster.replicas.map((replica) => replica.url));
      });
      after(async () => {
        await proxy?.close();
        await cluster?.stop();
      });
    }
    test(
      "clicks and keystrokes through a round-robin balancer survive a SIGKILL, a rolling replacement of all three replicas and an outage, each applied once",
      { skip: skipBus, timeout: 180_000 },
      () => failover(cluster!, proxy!, bus.name),
    );
  });
}

async function failover(cluster: Cluster, proxy: CheckedProxy, busName: string): Promise<void> {
  const random = seeded(seed);
  const base = await proxy.listen();
  // One browser for every bus, and cookies know no port: the last cluster's session and sign-in
  // cookies would reach this one's replicas (another schema, where that user does not exist).
  const context = await browser();
  await context.clearCookies();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(`${base}/`);
  await watchReconnecting(page);
  const input = page.locator("input[name=text]");
  const plus = page.locator("button", { hasText: "+" });

  let clicks = 0;
  let typed = "";
  let typing = true;
  const user = (async () => {
    while (typing) {
      if (random() < 0.35) {
        await plus.click();
        clicks++;
      } else {
        await input.focus();
        await page.keyboard.press("End");
        const ch = "abcdefghijklmnopqrstuvwxyz "[Math.floor(random() * 27)]!;
        await page.keyboard.type(ch);
        typed += ch;
      }
      await sleep(10 + random() * 40);
    }
  })();

  const replace = async (index: number, signal: "SIGKILL" | "SIGTERM") => {
    cluster.kill(index, signal);
    const code = await cluster.exited(index);
    if (signal === "SIGTERM") assert.equal(code, 0, `replica ${index} drained and exited 0`);
    const fresh = await cluster.restart(index);
    proxy.replace(index, fresh.url);
    await eventually(() => assert.ok(proxy.healthy[index], `replica ${index} is ready again`));
  };

  await sleep(1500);
  // (a) A replica dies.
  const victim = Math.floor(random() * 3);
  console.log(`# failover (${busName}): SIGKILL of replica ${victim}`);
  await replace(victim, "SIGKILL");
  await sleep(1000);
  // (b) A rolling deploy: each replica in turn drains and a new one takes its slot.
  for (const index of [0, 1, 2]) {
    await replace(index, "SIGTERM");
    await sleep(500 + random() * 500);
  }
  // (c) No replica for a while: the page shows it is reconnecting, and carries on after.
  proxy.outage(2500);
  await sleep(3500);
  typing = false;
  await user;

  // Everything the user did reaches the model once: the page shows it, and so does a fresh
  // page load, served by whichever replica.
  await eventually(async () => {
    assert.equal(await page.textContent("#count"), `count ${clicks}`);
    assert.equal(await value(page, "input[name=text]"), typed);
  }, 20_000);
  // The field shows what was typed whether or not it reached the server. A page that goes away
  // sends what is unanswered once, in its unload beacon, which nothing sends again
  // (docs/protocol.md#resend): before the reload, the last typed value leaves (blur ends its
  // debounce) and every send is answered.
  await input.blur();
  await page.waitForFunction(() => !document.documentElement.hasAttribute("data-svc-busy"), undefined, { timeout: 20_000 });
  const seen = await page.evaluate(() => (window as unknown as { reconnecting: string[] }).reconnecting);
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains("svc-reconnecting")), false, "cleared");
  await page.reload();
  await eventually(async () => {
    assert.equal(await page.textContent("#count"), `count ${clicks}`);
    assert.equal(await value(page, "input[name=text]"), typed);
  });
  console.log(
    `# failover (${busName}): ${clicks} clicks and ${typed.length} characters; balancer answers ${
      JSON.stringify(Object.fromEntries(proxy.statuses))
    }; reconnecting state: ${seen.join(", ")}`,
  );
  assert.ok(seen.includes("on:polite:Reconnecting..."), `the reconnecting state was shown: ${seen.join(", ")}`);
  assert.equal(seen[seen.length - 1], "off:polite:", "and cleared");
  assert.ok((proxy.statuses.get(502) ?? 0) > 0, "the balancer answered 502 to some requests, which the page sent again");
  assert.deepEqual(errors, []);
  await page.close();
}
