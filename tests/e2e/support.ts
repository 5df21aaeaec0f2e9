// Shared helpers of the real-browser tests.
import { after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { eventually as poll, sleep } from "../support/live-harness.ts";

export { sleep };

/** Polls until `check` passes (or fails with its last assertion after `ms`): a browser's pace, every 50 ms. */
export const eventually = (check: () => void | Promise<void>, ms = 10_000): Promise<void> => poll(check, ms, 50);

/** The live `.value` of a control. */
export const value = (page: Page, selector: string) => page.$eval(selector, (el) => (el as HTMLInputElement).value);

export const CHROMIUM = "/usr/bin/chromium";

/** Why the real-browser tests cannot run here, or undefined when they can. */
export function e2eSkipReason(): string | undefined {
  const runtime = "Bun" in globalThis ? "Bun" : "Deno" in globalThis ? "Deno" : "Node";
  if (runtime !== "Node") return `real-browser tests run under Node (this is ${runtime})`;
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing (apt-get install -y chromium)`;
}

/**
 * One Chromium profile shared by a test file's tests, launched on first use (so a skipped file
 * launches nothing) and closed, its profile folder removed, when the file's tests are done.
 */
export function sharedBrowser(prefix: string, skip: string | undefined, onClosed?: () => void): () => Promise<BrowserContext> {
  let context: Promise<BrowserContext> | undefined;
  let profile: string | undefined;
  if (skip === undefined) {
    after(async () => {
      if (context !== undefined) await (await context).close();
      if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
      onClosed?.();
    });
  }
  return () =>
    context ??= import("playwright-core").then(({ chromium }) => {
      profile = mkdtempSync(join(tmpdir(), prefix));
      return chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
      });
    });
}

/**
 * An IME composition in the page's focused control, driven through CDP as an input method drives
 * Chromium (docs/live-apps.md, what the user types is never lost). `compose` sends the
 * composition's successive texts (compositionstart, then a compositionupdate each), `pause` ms
 * apart; `confirm` sends the Enter that confirms it (keyCode 229, as a key the IME takes), the
 * committed text (compositionend) and the Enter's keyup.
 */
async function imeComposition(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  return {
    async compose(texts: readonly string[], pause: number): Promise<void> {
      for (const [i, text] of texts.entries()) {
        if (i > 0 && pause > 0) await sleep(pause);
        await cdp.send("Input.imeSetComposition", { text, selectionStart: text.length, selectionEnd: text.length });
      }
    },
    async confirm(text: string): Promise<void> {
      await cdp.send("Input.dispatchKeyEvent", {
        type: "keyDown",
        key: "Enter",
        code: "Enter",
        windowsVirtualKeyCode: 229,
        nativeVirtualKeyCode: 229,
      });
      await cdp.send("Input.insertText", { text });
      await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13 });
    },
  };
}

/** What the IME check reads of an app under test: the messages it received, and its model's chat field and sent list. */
export type ChatApp = {
  readonly received: readonly (readonly [string, readonly unknown[]])[];
  model(): { readonly chat: string; readonly sent: readonly string[] } | undefined;
};

/**
 * Composes 日本 in the focused #chat through the IME, confirms it with Enter and then sends it
 * with a second Enter, checking each step: nothing goes out while composing, the committed text
 * is dispatched once, the confirming Enter sends nothing, and the second Enter sends the text and
 * clears the field. `counted`: the messages the checks look at (an app whose ticks dispatch
 * others meanwhile names the chat's); `pause`: ms between the composition's updates.
 */
export async function composeAndConfirm(
  page: Page,
  app: ChatApp,
  { counted = () => true, pause = 0 }: { readonly counted?: (msg: string) => boolean; readonly pause?: number } = {},
): Promise<void> {
  const ime = await imeComposition(page);
  const seen = () => app.received.filter(([msg]) => counted(msg));
  await ime.compose(["に", "にほ", "日本"], pause);
  await sleep(400); // longer than the debounce: nothing may go out while composing
  assert.deepEqual(seen(), [], "nothing goes out while composing");
  await ime.confirm("日本");
  await eventually(() => assert.equal(app.model()?.chat, "日本"));
  await sleep(600);
  assert.deepEqual(seen(), [["SetChat", ["日本"]]], "one dispatch, and no Send");
  assert.equal(await value(page, "#chat"), "日本");
  await page.keyboard.press("Enter");
  await eventually(async () => {
    assert.deepEqual(app.model()?.sent, ["日本"]);
    assert.equal(await value(page, "#chat"), "");
  });
}
