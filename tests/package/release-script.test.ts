// The release script itself (scripts/release.ts), run on a temporary git repository holding copies
// of this repository's package.json, package-lock.json, jsr.json and CHANGELOG.md: the three
// versions, the CHANGELOG's new section, the commit and the annotated tag. It publishes nothing.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const script = join(repo, "scripts", "release.ts");
const dir = mkdtempSync(join(tmpdir(), "svc-live-release-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
const ENTRY = "### Fixed\n\n- The release test's entry.\n";
const json = (name: string) => JSON.parse(readFileSync(join(dir, name), "utf8"));

/** The script under the runtime running this test: Node through tsx, Bun and Deno directly. */
function release(...args: string[]): string {
  const runtime = "Bun" in globalThis ? "bun" : "Deno" in globalThis ? "deno" : "node";
  const command = runtime === "bun" ? [script] : runtime === "deno" ? ["run", "-A", script] : ["--import", "tsx", script];
  return execFileSync(process.execPath, [...command, "--dir", dir, ...args], { cwd: repo, encoding: "utf8" });
}

test("release patch bumps package.json, package-lock.json and jsr.json, writes the CHANGELOG section, commits and tags", () => {
  for (const name of ["package.json", "package-lock.json", "jsr.json", "CHANGELOG.md"]) copyFileSync(join(repo, name), join(dir, name));
  // An entry to release, whatever the repository's Unreleased section holds today.
  const changelog = readFileSync(join(dir, "CHANGELOG.md"), "utf8");
  assert.match(changelog, /^## \[Unreleased\]\n/m);
  writeFileSync(join(dir, "CHANGELOG.md"), changelog.replace(/^## \[Unreleased\]\n/m, `## [Unreleased]\n\n${ENTRY}`));
  git("init", "-q");
  git("config", "user.name", "Release Test");
  git("config", "user.email", "release-test@example.com");
  git("config", "commit.gpgsign", "false");
  git("config", "tag.gpgsign", "false");
  git("add", ".");
  git("commit", "-q", "-m", "before the release");

  const current = json("package.json").version as string;
  const [major, minor, patch] = current.split(".").map(Number) as [number, number, number];
  const next = `${major}.${minor}.${patch + 1}`;
  const days = [new Date().toISOString().slice(0, 10)];
  const output = release("patch");
  days.push(new Date().toISOString().slice(0, 10));
  assert.match(output, new RegExp(`released ${current} -> ${next}`));

  assert.equal(json("package.json").version, next);
  assert.equal(json("package-lock.json").version, next);
  assert.equal(json("package-lock.json").packages[""].version, next);
  assert.equal(json("jsr.json").version, next);
  const released = readFileSync(join(dir, "CHANGELOG.md"), "utf8");
  const match = /^## \[Unreleased\]\n\n## \[(.*)\] - (\d{4}-\d{2}-\d{2})\n\n/m.exec(released);
  assert.ok(match !== null, "a dated section right below an empty Unreleased");
  assert.equal(match[1], next);
  assert.ok(days.includes(match[2]!), `dated today, not ${match[2]}`);
  assert.ok(released.slice(match.index + match[0].length).startsWith(ENTRY), "the Unreleased entries moved under it");

  assert.equal(git("status", "--porcelain"), "", "everything committed");
  assert.equal(git("log", "-1", "--format=%s"), `Release ${next}`);
  const changed = git("diff", "--name-only", "HEAD~1").split("\n").sort();
  assert.deepEqual(changed, ["CHANGELOG.md", "jsr.json", "package-lock.json", "package.json"]);
  assert.equal(git("tag", "--list"), `v${next}`);
  assert.equal(git("cat-file", "-t", `v${next}`), "tag", "an annotated tag");
  assert.equal(git("rev-parse", `v${next}^{commit}`), git("rev-parse", "HEAD"));
});

test("release refuses a working tree with uncommitted changes and changes nothing", () => {
  const before = git("rev-parse", "HEAD");
  writeFileSync(join(dir, "jsr.json"), `${readFileSync(join(dir, "jsr.json"), "utf8")}\n`);
  assert.throws(() => release("patch"), /uncommitted changes/);
  assert.equal(git("rev-parse", "HEAD"), before);
  git("checkout", "--", "jsr.json");
});
