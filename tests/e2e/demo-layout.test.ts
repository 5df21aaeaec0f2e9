// The demo (examples/demo) in Chromium at phone and desktop widths: every page fits 375 px and
// 1280 px without horizontal overflow (screenshots in test-output/), cards are as tall as their
// content, a failed sign-in keeps the email out of the URL, sign-out logs no error, and the to-do
// list belongs to the user: it follows them to another browser.
//
// Skipped, with the reason printed, under Bun and Deno and when /usr/bin/chromium is missing.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type Served, serveDemo } from "./demo-server.ts";
import { CHROMIUM, e2eSkipReason, eventually } from "./support.ts";

const skip = e2eSkipReason();
if (skip !== undefined) console.log(`tests/e2e/demo-layout skipped: ${skip}`);

const OUTPUT = new URL("../../test-output/", import.meta.url).pathname;
const ADMIN = { email: "a-rather-long-admin-address@example-company.test", password: "blue kettle sings loudly" };
const USER = { email: "second.user@demo.test", password: "violet-orbit-canyon" };
const WIDTHS = [375, 1280] as const;

let served: Served | undefined;
let browser: Browser | undefined;

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
  });
}

/** A fresh browser (context) with console errors and failed requests collected. */
async function open(width = 1280): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser!.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  await page.goto(`${served!.url}/`);
  await page.waitForSelector("#login-form");
  return { context, page, problems };
}

async function signUp(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.click("#switch");
  await page.waitForSelector("#signup-form");
  await page.fill("#email", who.email);
  await page.fill("#password", who.password);
  await Promise.all([page.waitForNavigation(), page.click("#submit")]);
  await eventually(async () => assert.equal(await page.textContent("#who"), who.email));
}

async function logIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.fill("#email", who.email);
  await page.fill("#password", who.password);
  await Promise.all([page.waitForNavigation(), page.click("#submit")]);
}

/** Elements that stick out of the viewport on the left or the right, described for the failure message. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width) {
      out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    }
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      if (el.tagName === "STYLE" || el.tagName === "SCRIPT") continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.right > width + 0.5 || box.left < -0.5) {
        out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className} [${Math.round(box.left)}, ${Math.round(box.right)}]`);
      }
    }
    return out;
  });
}

/** Cards with more than 48 px of empty space below their content (stretched to a taller neighbour). */
function stretchedCards(page: Page): Promise<string[]> {
  return page.$$eval(".card", (cards) =>
    cards.flatMap((card) => {
      const last = card.lastElementChild;
      if (last === null) return [];
      const gap = card.getBoundingClientRect().bottom - last.getBoundingClientRect().bottom;
      return gap > 48 ? [`#${card.id}: ${Math.round(gap)} px empty`] : [];
    }));
}

async function checkFits(page: Page, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: join(OUTPUT, `demo-${name}-${width}.png`), fullPage: true });
  assert.deepEqual(await overflowing(page), [], `${name} at ${width} px: nothing overflows horizontally`);
  assert.deepEqual(await stretchedCards(page), [], `${name} at ${width} px: cards are as tall as their content`);
}

test(
  "every demo page fits 375 px and 1280 px wide: no element overflows horizontally and no card is stretched",
  { skip, timeout: 60_000 },
  async () => {
    const { page, problems } = await open();
    for (const width of WIDTHS) await checkFits(page, "signed-out", width);
    await signUp(page, ADMIN);
    // A second user, so the admin table has a row with every action button.
    const other = await open();
    await signUp(other.page, USER);
    for (const width of WIDTHS) await checkFits(page, "home", width);
    await page.click("#nav-admin");
    await page.waitForSelector(`#users tr[data-email="${USER.email}"] button.disable`);
    for (const width of WIDTHS) await checkFits(page, "admin", width);
    // At phone width the header's controls and the admin's buttons are on screen and clickable.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.click("#sign-out", { trial: true });
    await page.click(`#users tr[data-email="${USER.email}"] button.disable`, { trial: true });
    assert.deepEqual([...problems, ...other.problems], []);
  },
);

test("a failed sign-in keeps the email out of the URL and still fills it in", { skip, timeout: 30_000 }, async () => {
  const { context, page, problems } = await open();
  await logIn(page, { email: "nobody@demo.test", password: "wrong password here" });
  await eventually(async () => assert.equal(await page.textContent("#auth-error"), "Wrong email or password."));
  assert.doesNotMatch(page.url(), /nobody|%40|@/, "the URL carries no email");
  assert.equal(await page.inputValue("#email"), "nobody@demo.test", "the form keeps what was typed");
  // The notice was read once: its cookie is gone (the live session keeps the form as it was).
  assert.equal((await context.cookies()).some((c) => c.name === "svc_demo_flash"), false, "the one-time cookie was cleared");
  assert.deepEqual(problems, []);
});

test("the to-do list belongs to the user: added on one browser, it is there on another, and sign-out logs no error", {
  skip,
  timeout: 60_000,
}, async () => {
  const who = { email: "todo.owner@demo.test", password: "amber-lantern-meadow" };
  const first = await open();
  await signUp(first.page, who);
  await first.page.click("#draft");
  await first.page.keyboard.type("Water the plants");
  await first.page.keyboard.press("Enter");
  await eventually(async () =>
    assert.ok((await first.page.$$eval("#item-list li span", (s) => s.map((e) => e.textContent))).includes("Water the plants"))
  );
  await first.page.click("#item-list li:nth-of-type(1) button.remove");
  const expected = ["Handle the messages", "Ship it", "Water the plants"];
  await eventually(async () =>
    assert.deepEqual(await first.page.$$eval("#item-list li span", (s) => s.map((e) => e.textContent)), expected)
  );

  const second = await open();
  await logIn(second.page, who);
  await eventually(async () =>
    assert.deepEqual(await second.page.$$eval("#item-list li span", (s) => s.map((e) => e.textContent)), expected)
  );

  await Promise.all([first.page.waitForNavigation(), first.page.click("#sign-out")]);
  await first.page.waitForSelector("#login-form");
  // Give a late stream reconnect or request the time to show up in the console.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.deepEqual([...first.problems, ...second.problems], [], "no console errors, no failed requests logged");
});
