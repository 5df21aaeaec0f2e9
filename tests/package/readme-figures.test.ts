// The README's figures are written by the package check (scripts/package-check/figures.mjs): figures
// within tolerance leave the README as it is; a figure beyond it rewrites the blocks from the
// measured figures and fails; the import time counts as stale only beyond a factor of 3. The
// repository's README has both blocks.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "svc-readme-figures-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const MEASURED = {
  installKb: 20_600,
  dictionariesKb: 9_300,
  docsKb: 170,
  importMs: 300,
  maxInstallKb: 21_500,
  clientKb: 31,
  clientGzipKb: 10.6,
  clientBrotliKb: 9.4,
};

/** A README with the two blocks written from `written`; figures.mjs run on it with `MEASURED`. */
function run(written: Record<string, number>) {
  const readme = join(scratch, `README-${Math.random().toString(36).slice(2)}.md`);
  const measured = `${readme}.json`;
  const client = ["clientBrotliKb", "clientGzipKb", "clientKb"];
  const install = ["installKb", "dictionariesKb", "docsKb", "importMs", "maxInstallKb"];
  const pick = (keys: string[]) => JSON.stringify(Object.fromEntries(keys.map((k) => [k, written[k]])));
  const text = `# app\n\nA client of <!-- figures:client ${pick(client)} -->old<!-- /figures:client -->.\n\n` +
    `<!-- figures:install ${pick(install)} -->\nold\n<!-- /figures:install -->\n\nThe end.\n`;
  writeFileSync(readme, text);
  writeFileSync(measured, JSON.stringify(MEASURED));
  const result = spawnSync("node", [join(REPO, "scripts", "package-check", "figures.mjs"), readme, measured], { encoding: "utf8" });
  return { result, before: text, after: readFileSync(readme, "utf8") };
}

test("figures within tolerance leave the README as it is", () => {
  // 0.5% off the install, 1 KB off the docs, 0.1 KB off a client, and an import time 1.8x the measured one.
  const { result, before, after } = run({ ...MEASURED, installKb: 20_700, docsKb: 171, clientGzipKb: 10.5, importMs: 540 });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(after, before);
});

test("a figure beyond its tolerance rewrites the blocks from the measured figures and fails", () => {
  const { result, after } = run({ ...MEASURED, docsKb: 120 });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /docsKb: README 120, measured 170/);
  assert.match(
    after,
    /A client of <!-- figures:client \{"clientBrotliKb":9.4,"clientGzipKb":10.6,"clientKb":31\} -->9.4 KB with brotli, 10.6 KB with gzip \(31 KB before compression<!-- \/figures:client -->\./,
  );
  assert.match(
    after,
    /takes 20.6 MB\n\(20,600 KB, of which the password-strength dictionaries are 9,300 KB and the guides and API\nreference in docs\/ 170 KB\)/,
  );
  assert.match(after, /took 300 ms/);
  assert.match(after, /fails if the install grows past 21,500 KB\.\n<!-- \/figures:install -->\n\nThe end\.\n$/);
});

test("an import time more than three times the measured one is stale; so is a changed bound", () => {
  assert.match(run({ ...MEASURED, importMs: 1000 }).result.stderr, /importMs: README 1000, measured 300/);
  assert.match(run({ ...MEASURED, maxInstallKb: 20_500 }).result.stderr, /maxInstallKb: README 20500, measured 21500/);
});

test("the repository's README has both blocks of figures", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  for (const name of ["client", "install"]) {
    assert.match(readme, new RegExp(`<!-- figures:${name} \\{[^\\n]*\\} -->[\\s\\S]*?<!-- /figures:${name} -->`));
  }
});
