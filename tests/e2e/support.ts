// Shared helpers of the real-browser tests.
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
