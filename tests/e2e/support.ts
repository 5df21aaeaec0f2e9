// Shared helpers of the real-browser tests.
import { existsSync } from "node:fs";
import type { Page } from "playwright-core";

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
