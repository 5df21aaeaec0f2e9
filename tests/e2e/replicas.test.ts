// The demo as three replicas on Postgres behind the round-robin proxy
// (docs/deployment.md#several-replicas), in a real browser (Chromium through playwright-core): a user signs up and types into
// the search box while one replica drains (SIGTERM) and a new one starts in its place; every
// character is in the field, and, after a reload served by whichever replica, in the model.
// On each bus (docs/deployment.md#the-bus): Postgres NOTIFY, and Redis and NATS when
// SVC_TEST_REDIS_URL and SVC_TEST_NATS_URL are set (the demo's BUS_URL); a cluster per bus.
//
// Skipped, with the reason printed, under Bun and Deno (the replicas are Node child processes and
// the browser runs through playwright-core), without SVC_TEST_POSTGRES_URL, and when
// /usr/bin/chromium is missing.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { e2eSkipReason, eventually, sharedBrowser, sleep, value } from "./support.ts";
import { Cluster, DEMO_MAIN } from "../support/replicas-harness.ts";
import { POSTGRES_SKIP } from "../support/db-targets.ts";
import { busTargets, NATS_URL, REDIS_URL } from "../support/bus-targets.ts";

const skip = e2eSkipReason() ?? POSTGRES_SKIP;
if (skip !== undefined) console.log(`tests/e2e/replicas skipped: ${skip}`);

/** The demo's BUS_URL for a bus target (unset: Postgres NOTIFY). */
const busUrl = (name: string): Record<string, string> =>
  name === "Redis" ? { BUS_URL: REDIS_URL ?? "" } : name === "NATS" ? { BUS_URL: NATS_URL ?? "" } : {};

const browser = sharedBrowser("svc-e2e-replicas-", skip);

for (const bus of busTargets()) {
  const skipBus = skip ?? bus.skip;
  describe(`on the ${bus.name} bus`, () => {
    test(
      "typing into the demo through the round-robin proxy while a replica restarts loses no character",
      { skip: skipBus, timeout: 120_000 },
      async () => {
        const cluster = await Cluster.start(3, "round-robin", { SVC_DEMO_BCRYPT_COST: "4", ...busUrl(bus.name) }, DEMO_MAIN);
        try {
          await typeThrough(cluster, bus.name);
        } finally {
          await cluster.stop();
        }
      },
    );
  });
}

async function typeThrough(cluster: Cluster, busName: string): Promise<void> {
  // One browser for every bus, and cookies know no port: the last cluster's session and sign-in
  // cookies would reach this one's replicas (another schema, where that user does not exist).
  const context = await browser();
  await context.clearCookies();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  // What the page saw, printed if a step times out: its console and every answer it got.
  const seen: string[] = [];
  page.on("console", (message) => seen.push(`console ${message.type()}: ${message.text()}`));
  page.on("request", (r) => seen.push(`${Date.now() % 100_000} -> ${r.method()} ${r.url().replace(cluster.proxyUrl, "")}`));
  page.on("response", (r) => seen.push(`${r.status()} ${r.request().method()} ${r.url().replace(cluster.proxyUrl, "")}`));
  page.on("requestfailed", (r) => seen.push(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`));
  cluster.proxy.onServed = (index, method, path, status) =>
    seen.push(`${Date.now() % 100_000} replica ${index}: ${status} ${method} ${path}`);
  const step = async (name: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      console.log(`# replicas e2e: step "${name}" failed; the page saw:\n#   ${seen.join("\n#   ")}`);
      console.log(`# replica output:\n${cluster.replicas.map((r) => r.output.join("")).join("\n---\n")}`);
      throw error;
    }
  };
  await step("load", () => page.goto(`${cluster.proxyUrl}/`));
  await step("switch to sign-up", async () => {
    await page.click("#switch");
    await page.waitForSelector("#signup-form", { timeout: 20_000 });
  });
  // Each bus's cluster has a schema of its own, so the same user signs up on each.
  const email = "typist@demo.test";
  await page.fill("#email", email);
  await page.fill("#password", "violet-orbit-canyon");
  await Promise.all([page.waitForNavigation(), page.click("#submit")]);
  await step("signed in", () => eventually(async () => assert.equal(await page.textContent("#who"), email)));

  const first = "typescript and javascript ";
  const second = "keep every keystroke across replicas";
  await page.click("#query");
  await page.keyboard.type(first, { delay: 30 });
  // A replica drains and a new one takes its slot while the user goes on typing.
  const restarted = (async () => {
    cluster.kill(1, "SIGTERM");
    assert.equal(await cluster.exited(1), 0, "the replica drained and exited cleanly");
    await cluster.restart(1);
  })();
  await page.keyboard.type(second, { delay: 30 });
  await restarted;
  await sleep(200);
  await page.keyboard.type("!", { delay: 30 });
  await eventually(async () => assert.equal(await value(page, "#query"), first + second + "!"));
  // Every keystroke reached the model: a fresh page, served by any replica, shows it all.
  await eventually(async () => {
    await page.reload();
    assert.equal(await value(page, "#query"), first + second + "!");
  }, 10_000);
  assert.deepEqual(errors, []);
  console.log(`# replicas e2e on ${busName}: ${(first + second + "!").length} characters kept through a drain and a restart`);
  await page.close();
}
