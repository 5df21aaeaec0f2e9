// The demo app (examples/demo) in a real browser (Chromium through playwright-core) on 127.0.0.1,
// with every live event reply held back 0-300 ms: sign-up with the live strength label, sign-out,
// login, the normalising profile editor under latency, the keyed list, the search box and the
// clock; then, from an admin in a second browser context, revoke (the user's open page reloads
// signed out at once), disable (the same, and login refused) and enable (login works again).
//
// Skipped, with the reason printed, under Bun and Deno and when /usr/bin/chromium is missing.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CHROMIUM, e2eSkipReason, eventually, value } from "./support.ts";
import { type Served, serveDemo } from "./demo-server.ts";

const skip = e2eSkipReason();
if (skip !== undefined) console.log(`tests/e2e/demo skipped: ${skip}`);

const OUTPUT = new URL("../../test-output/", import.meta.url).pathname;
const ADMIN = { email: "admin@demo.test", password: "blue kettle sings" };
const USER = { email: "user@demo.test", password: "violet-orbit-canyon" };

let served: Served | undefined;
let browser: Browser | undefined;
const started = Date.now();
const errors: string[] = [];

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser!.newContext();
  const page = await context.newPage();
  page.on("pageerror", (error) => errors.push(String(error)));
  if (process.env["SVC_E2E_DEBUG"]) page.on("console", (m) => console.log(`console: ${m.text()}`));
  await page.goto(`${served!.url}/`);
  await page.waitForSelector("#login-form");
  return { context, page };
}

if (skip === undefined) {
  before(async () => {
    served = await serveDemo();
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
  });
  after(async () => {
    await browser?.close();
    await served?.close();
    console.log(`e2e demo total: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
}

const texts = (page: Page, selector: string) => page.$$eval(selector, (els) => els.map((el) => el.textContent ?? ""));

/** Fills the login form and submits it: a plain form POST, then a 303 to the page. */
async function logIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.fill("#email", who.email);
  await page.fill("#password", who.password);
  await Promise.all([page.waitForNavigation(), page.click("#submit")]);
}

/** The admin page's button of `kind` (revoke, disable, enable) on the row of `email`. */
async function adminClick(admin: Page, email: string, kind: string, cell: string, expect: RegExp): Promise<void> {
  await admin.click(`#users tr[data-email="${email}"] button.${kind}`);
  await eventually(async () => assert.match((await admin.textContent(`#users tr[data-email="${email}"] .${cell}`)) ?? "", expect));
}

test(
  "the demo in Chromium: sign-up with a live strength label, login, profile, list, search, clock, then revoke and disable (pushed to the open page), enable and sign-out from the admin page",
  { skip, timeout: 60_000 },
  async () => {
    // The first account becomes the admin (examples/demo/auth-routes.ts).
    const { page: admin } = await newPage();
    await admin.click("#switch");
    await admin.waitForSelector("#signup-form");
    await admin.fill("#email", ADMIN.email);
    await admin.click("#password");
    await admin.keyboard.type(ADMIN.password);
    await Promise.all([admin.waitForNavigation(), admin.click("#submit")]);
    await admin.waitForSelector("#nav-admin");

    // Sign-up: the strength label follows the typing (Auth.passwordStrength on the server).
    const { context: userContext, page } = await newPage();
    await page.click("#switch");
    await page.waitForSelector("#signup-form");
    await page.fill("#email", USER.email);
    await page.click("#password");
    await page.keyboard.type(USER.password.slice(0, 4), { delay: 40 });
    await eventually(async () => assert.equal(await page.textContent("#strength"), "weak"));
    await page.keyboard.type(USER.password.slice(4), { delay: 20 });
    await eventually(async () => assert.equal(await page.textContent("#strength"), "strong"));
    assert.equal(await value(page, "#password"), USER.password, "no keystroke lost in the password field");
    await Promise.all([page.waitForNavigation(), page.click("#submit")]);
    await eventually(async () => assert.equal(await page.textContent("#who"), USER.email));
    assert.equal(await page.$("#nav-admin"), null, "the second account is not an admin");
    const cookies = await userContext.cookies();
    const sliding = cookies.find((c) => c.name === "svc_demo_session");
    assert.ok(sliding?.httpOnly, "the sliding token is an HttpOnly cookie");

    // Sign out (Live.endSession): the page reloads signed out and the token cookie is gone; log in.
    await Promise.all([page.waitForNavigation(), page.click("#sign-out")]);
    await page.waitForSelector("#login-form");
    assert.equal((await userContext.cookies()).some((c) => c.name === "svc_demo_session"), false);
    await logIn(page, USER);
    await eventually(async () => assert.equal(await page.textContent("#who"), USER.email));

    // The clock ticks (Live.every 1000).
    const clock = await page.textContent("#clock");
    await eventually(async () => assert.notEqual(await page.textContent("#clock"), clock), 3_000);

    // Profile under latency: every keystroke survives; the normalised value shows once acked.
    await page.evaluate(() => {
      const w = window as unknown as { caretJumps: number };
      w.caretJumps = 0;
      document.addEventListener("keydown", (event) => {
        const t = event.target as HTMLInputElement;
        if (t.tagName === "INPUT" && t.selectionStart !== t.value.length) w.caretJumps++;
      }, true);
    });
    await page.click("#name");
    await page.keyboard.type("ada  lov", { delay: 45 });
    await page.keyboard.type("elace byron");
    await eventually(async () => assert.equal(await value(page, "#name"), "Ada Lovelace Byron"));
    await page.click("#handle");
    await page.keyboard.type("Ada.Lovelace_1815", { delay: 25 });
    await eventually(async () => assert.equal(await value(page, "#handle"), "adalovelace_1815"));
    assert.equal(
      await page.evaluate(() => (window as unknown as { caretJumps: number }).caretJumps),
      0,
      "the caret never moved away from the end",
    );
    await page.keyboard.press("Tab"); // commit: a change event saves the profile
    const userId = String((await served!.store.users()).find((u) => u.email === USER.email)!.id);
    await eventually(async () => {
      assert.deepEqual((await served!.store.account(userId))?.profile, { name: "Ada Lovelace Byron", handle: "adalovelace_1815" });
      assert.equal(await page.textContent("#save-status"), "Saved.");
    });

    // The keyed list: add, move up and down (the same DOM nodes move), remove.
    await page.click("#draft");
    await page.keyboard.type("Test it");
    await page.keyboard.press("Enter");
    await eventually(async () => {
      assert.deepEqual(await texts(page, "#item-list li span"), ["Write the view", "Handle the messages", "Ship it", "Test it"]);
      assert.equal(await value(page, "#draft"), "", "the server cleared the field once the keystrokes were acked");
    });
    await page.$$eval("#item-list li", (lis) => lis.forEach((li, i) => ((li as unknown as { mark: number }).mark = i)));
    await page.click("#item-list li:nth-of-type(4) button.up");
    await eventually(async () =>
      assert.deepEqual(await texts(page, "#item-list li span"), ["Write the view", "Handle the messages", "Test it", "Ship it"])
    );
    await page.click("#item-list li:nth-of-type(1) button.down");
    await eventually(async () =>
      assert.deepEqual(await texts(page, "#item-list li span"), ["Handle the messages", "Write the view", "Test it", "Ship it"])
    );
    assert.deepEqual(
      await page.$$eval("#item-list li", (lis) => lis.map((li) => (li as unknown as { mark?: number }).mark)),
      [1, 0, 3, 2],
      "keyed rows moved, not re-created",
    );
    await page.click("#item-list li:nth-of-type(4) button.remove");
    await eventually(async () =>
      assert.deepEqual(await texts(page, "#item-list li span"), ["Handle the messages", "Write the view", "Test it"])
    );

    // The search box filters as you type.
    await page.click("#query");
    await page.keyboard.type("script", { delay: 30 });
    await eventually(async () => {
      assert.deepEqual(await texts(page, "#results li"), ["JavaScript", "TypeScript"]);
      assert.equal(await page.textContent("#hits"), "2 of 40");
    });
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "demo-app.png"), fullPage: true });

    // Revoke, from the admin's own browser context: the user's open page is signed out at once (the
    // eviction is pushed over its stream), without waiting for the user to do anything.
    await admin.click("#nav-admin");
    await admin.waitForSelector(`#users tr[data-email="${USER.email}"]`);
    await Promise.all([page.waitForNavigation(), adminClick(admin, USER.email, "revoke", "revoked", /UTC$/)]);
    await page.waitForSelector("#login-form");
    assert.equal((await userContext.cookies()).some((c) => c.name === "svc_demo_session"), false, "the token cookie was cleared");

    // Revoke is not a ban: logging in again works.
    await logIn(page, USER);
    await eventually(async () => assert.equal(await page.textContent("#who"), USER.email));

    // Disable: the open page is signed out at once, and login is refused.
    await Promise.all([page.waitForNavigation(), adminClick(admin, USER.email, "disable", "state", /^disabled$/)]);
    await page.waitForSelector("#login-form");
    await logIn(page, USER);
    await eventually(async () => assert.equal(await page.textContent("#auth-error"), "This account is disabled."));

    // Enable restores login; then sign out.
    await adminClick(admin, USER.email, "enable", "state", /^active$/);
    await logIn(page, USER);
    await eventually(async () => assert.equal(await page.textContent("#who"), USER.email));
    await Promise.all([page.waitForNavigation(), page.click("#sign-out")]);
    await page.waitForSelector("#login-form");

    assert.deepEqual(errors, [], "no page errors");
  },
);
