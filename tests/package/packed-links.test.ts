// The package check's link test (scripts/package-check/check-packed-links.mjs): the Markdown the
// tarball ships links only to files in it. Run here on the files package.json ships, read from the
// checkout, and on made-up packages whose links go nowhere.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
// @ts-types="../../scripts/package-check/check-packed-links.d.mts"
import { deadLinks } from "../../scripts/package-check/check-packed-links.mjs";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const read = (file: string) => readFileSync(`${REPO}${file}`, "utf8");

test("every relative link of the Markdown package.json ships names a file it ships", () => {
  const { files } = JSON.parse(read("package.json")) as { files: string[] };
  // An entry "folder/*.md" ships that folder's Markdown (docs/*.md, docs/reference/*.md).
  const shipped = files.flatMap((entry) => {
    const folder = /^(.+)\/\*\.md$/.exec(entry)?.[1];
    if (folder === undefined) return [entry];
    return readdirSync(`${REPO}${folder}`).filter((f) => f.endsWith(".md")).map((f) => `${folder}/${f}`);
  });
  assert.ok(shipped.includes("README.md") && shipped.includes("docs/live-apps.md"), shipped.join(", "));
  assert.ok(shipped.some((f) => f.startsWith("docs/reference/")), "the API reference ships");
  // Only the Markdown and what it may link to (the rest of the package is code).
  assert.deepEqual(deadLinks(shipped.filter((f) => /\.md$|^LICENSE$/.test(f)), read), []);
});

test("a link to a file the package lacks is reported, with the file it is in; schemes, anchors and folders with files are not", () => {
  const files = ["README.md", "manual/guide.md", "manual/other.md", "LICENSE"];
  const texts: Record<string, string> = {
    "README.md":
      "[guide](manual/guide.md#setup) [bench](bench/RESULTS.md) [web](https://example.com/x.md) [top](#install) [manual](manual/)",
    "manual/guide.md": "[back](../README.md) [sibling](other.md) [gone](../CONTRIBUTING.md) [license](../LICENSE)",
    "manual/other.md": "[outside](../../elsewhere.md)",
  };
  assert.deepEqual(deadLinks(files, (file: string) => texts[file] ?? ""), [
    "README.md: bench/RESULTS.md (not in the package)",
    "manual/guide.md: ../CONTRIBUTING.md (not in the package)",
    "manual/other.md: ../../elsewhere.md (not in the package)",
  ]);
});
