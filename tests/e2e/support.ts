// Shared helpers of the real-browser tests.
import { after } from "node:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` passes (or fails with its last assertion after `ms`). */
export async function eventually(check: () => void | Promise<void>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await sleep(50);
    }
  }
}

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
