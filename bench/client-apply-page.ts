/**
 * The page side of bench/client.bench.ts, bundled by it for Chromium: both clients' appliers
 * (client/apply.ts, client/split/apply.ts), as the clients run them, over one page and a list of
 * frames. `svcBench.run(kind, html, frames)` puts the page's root into the document, fills in its
 * ids, makes the client's applier (the split one reads the page into its tree then), and returns
 * how long, in ms, that start took (the mean of 20) and applying every frame took, and the page
 * it ends with.
 */
import type { Patch } from "../src/protocol/mod.ts";
import { Applier, type PageApplier } from "../client/apply.ts";
import { fillPage } from "../client/dom.ts";
import { InputTable } from "../client/inputs.ts";
import { SplitApplier } from "../client/split/apply.ts";

type Frame = { readonly seq: number; readonly patches: readonly Patch[] };

/** How many starts one call times: the browser's clock counts in steps of 0.1 ms. */
const STARTS = 20;

function start(kind: "live" | "split", html: string): { applier: PageApplier; ms: number } {
  document.body.innerHTML = html;
  const t0 = performance.now();
  fillPage(document);
  const inputs = new InputTable(document);
  const applier: PageApplier = kind === "split" ? new SplitApplier(document, inputs) : new Applier(document, inputs);
  return { applier, ms: performance.now() - t0 };
}

function run(kind: "live" | "split", html: string, frames: readonly Frame[]): { setupMs: number; applyMs: number; page: string } {
  let setupMs = 0;
  for (let i = 1; i < STARTS; i++) setupMs += start(kind, html).ms;
  const { applier, ms } = start(kind, html);
  setupMs = (setupMs + ms) / STARTS;
  const t1 = performance.now();
  for (const frame of frames) applier.patches(frame.patches, frame.seq);
  const applyMs = performance.now() - t1;
  return { setupMs, applyMs, page: document.body.innerHTML };
}

(globalThis as unknown as { svcBench: { run: typeof run } }).svcBench = { run };
