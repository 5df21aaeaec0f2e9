// The demo as three replicas on Postgres behind the round-robin proxy
// (docs/deployment.md#several-replicas), in a real browser (Chromium through playwright-core): a user signs up and types into
// the search box while one replica drains (SIGTERM) and a new one starts in its place; every
// character is in the field, and, after a reload served by whichever replica, in the model.
//
// Skipped, with the reason printed, under Bun and Deno (the replicas are Node child processes and
// the browser runs through playwright-core), without SVC_TEST_POSTGRES_URL, and when
// /usr/bin/chromium is missing.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { e2eSkipReason, eventually, sharedBrowser, sleep, value } from "./support.ts";
import { Cluster, DEMO_MAIN } from "../support/replicas-harness.ts";
import { POSTGRES_SKIP } from "../support/db-targets.ts";

const skip = e2eSkipReason() ?? POSTGRES_SKIP;
if (skip !== undefined) console.log(`tests/e2e/replicas skipped: ${skip}`);

let cluster: Cluster | undefined;
const browser = sharedBrowser("svc-e2e-replicas-", skip);

if (skip === undefined) {
  before(async () => {
    cluster = await Cluster.start(3, "round-robin", { SVC_DEMO_BCRYPT_COST: "4" }, DEMO_MAIN);
  });
  after(async () => {
    await cluster?.stop();
  });
}

test(
  "typing into the demo through the round-robin proxy while a replica restarts loses no character",
  { skip, timeout: 90_000 },
  async () => {
    const page = await (await browser()).newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    // What the page saw, printed if a step times out: its console and every answer it got.
    const seen: string[] = [];
    page.on("console", (message) => seen.push(`console ${message.type()}: ${message.text()}`));
    page.on("request", (r) => seen.push(`${Date.now() % 100_000} -> ${r.method()} ${r.url().replace(cluster!.proxyUrl, "")}`));
    page.on("response", (r) => seen.push(`${r.status()} ${r.request().method()} ${r.url().replace(cluster!.proxyUrl, "")}`));
    page.on("requestfailed", (r) => seen.push(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`));
    cluster!.proxy.onServed = (index, method, path, status) =>
      seen.push(`${Date.now() % 100_000} replica ${index}: ${status} ${method} ${path}`);
    const step = async (name: string, run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (error) {
        console.log(`# replicas e2e: step "${name}" failed; the page saw:\n#   ${seen.join("\n#   ")}`);
        console.log(`# replica output:\n${cluster!.replicas.map((r) => r.output.join("")).join("\n---\n")}`);
        throw error;
      }
    };
    await step("load", () => page.goto(`${cluster!.proxyUrl}/`));
    await step("switch to sign-up", async () => {
      await page.click("#switch");
      await page.waitForSelector("#signup-form", { timeout: 20_000 });
    });
    await page.fill("#email", "typist@demo.test");
    await page.fill("#password", "violet-orbit-canyon");
    await Promise.all([page.waitForNavigation(), page.click("#submit")]);
    await step("signed in", () => eventually(async () => assert.equal(await page.textContent("#who"), "typist@demo.test")));

    const first = "typescript and javascript ";
    const second = "keep every keystroke across replicas";
    await page.click("#query");
    await page.keyboard.type(first, { delay: 30 });
    // A replica drains and a new one takes its slot while the user goes on typing.
    const restarted = (async () => {
      cluster!.kill(1, "SIGTERM");
      assert.equal(await cluster!.exited(1), 0, "the replica drained and exited cleanly");
      await cluster!.restart(1);
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
  },
);
