/**
 * The split client's module (`svc-live/split`, client/split/start.ts) starts nothing when imported:
 * bundled as scripts/build.ts bundles it, it loads in Node, where no page and no `document` exist,
 * and exports only startSplitClient. The script the app serves (`?_svc=split.js`) is the one that
 * starts the client on load, so it cannot load here.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { pathToFileURL } from "node:url";
import { bundle } from "../../client/build.ts";
import { SPLIT_BUNDLE } from "../../src/generated/split-bundle.ts";

const work = mkdtempSync(join(tmpdir(), "svc-split-module-"));
after(() => rmSync(work, { recursive: true, force: true }));

test("importing the split client's module touches no browser global and starts nothing", async () => {
  assert.equal(typeof (globalThis as { document?: unknown }).document, "undefined");
  const file = join(work, "mod.mjs");
  writeFileSync(file, await bundle("client/split/start.ts", { minify: true }));
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  assert.deepEqual(Object.keys(mod), ["startSplitClient"]);
  assert.equal(typeof mod["startSplitClient"], "function");
  // Started without a page, it fails at the call, not at the import.
  assert.throws(() => (mod["startSplitClient"] as () => unknown)(), /document is not defined/);
});

test("the served script starts the client on load: it needs a page", async () => {
  const file = join(work, "split.mjs");
  writeFileSync(file, SPLIT_BUNDLE);
  await assert.rejects(import(pathToFileURL(file).href), /document is not defined/);
});
