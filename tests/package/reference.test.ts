// The Markdown API reference that ships (docs/reference/, scripts/docs-check/reference.ts): written
// by npm run docs:reference, and npm run lint:docs fails, naming the page, when a page is not what
// the sources give or a page is there that they do not give. Written here into a folder of its
// own (`--reference`), so the repository's copy is left alone.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "svc-reference-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const lintDocs = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", join(REPO, "scripts/check-docs.ts"), "--reference", dir, ...args], {
    cwd: REPO,
    encoding: "utf8",
    timeout: 240_000,
  });

test("the reference is written, held current, and the repository's copy is the current one", { timeout: 600_000 }, () => {
  const written = lintDocs("--write-reference");
  assert.equal(written.status, 0, written.stderr);
  const page = (name: string) => readFileSync(join(dir, name), "utf8");
  assert.match(page("README.md"), /\[svc-live\/db\]\(svc-live-db\.md\)/);
  assert.match(page("svc-live-db.md"), /### Db\.ready\n\n```ts\nasync ready\(options\?: ReadyOptions\): Task<void>;\n```/);
  assert.match(page("svc-live-db.md"), /Example:\n\n```ts\nimport \{ Db \} from "svc-live";/);
  assert.match(page("svc-live.md"), /- \[Live\]\(svc-live-live\.md#live\)/, "the root links to the area that documents it");
  for (const name of ["README.md", "svc-live.md", "svc-live-live.md", "svc-live-split.md"]) {
    assert.equal(page(name), readFileSync(join(REPO, "docs/reference", name), "utf8"), `docs/reference/${name} is current`);
  }

  appendFileSync(join(dir, "svc-live-db.md"), "\nan edit by hand\n");
  const stale = lintDocs();
  assert.equal(stale.status, 1);
  assert.match(stale.stderr, /is not what the sources give \(svc-live-db\.md\): run npm run docs:reference/);

  assert.equal(lintDocs("--write-reference").status, 0);
  writeFileSync(join(dir, "svc-live-old.md"), "# a page no entry point gives\n");
  const extra = lintDocs();
  assert.equal(extra.status, 1);
  assert.match(extra.stderr, /\(svc-live-old\.md\)/);
});
