/**
 * `npm run release -- <patch|minor|major|x.y.z>`: bumps the version in package.json,
 * package-lock.json and jsr.json, moves CHANGELOG.md's Unreleased entries under the new version
 * with today's date, commits and tags v<version>. It publishes nothing (CONTRIBUTING.md#packing-and-releasing).
 * `--dir <path>` releases the git checkout at path instead of this one (the tests use it).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { nextVersion, releaseChangelog } from "./release-steps.ts";

const args = process.argv.slice(2);
const dirAt = args.indexOf("--dir");
const dir = dirAt === -1 ? undefined : args.splice(dirAt, 2)[1];
const [bump, ...extra] = args;
if (bump === undefined || extra.length > 0 || (dirAt !== -1 && dir === undefined)) {
  console.error("usage: npm run release -- [--dir <path>] <patch|minor|major|x.y.z>");
  process.exit(2);
}
const root = dir === undefined ? fileURLToPath(new URL("..", import.meta.url)) : resolve(dir);
const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" });
const path = (name: string) => join(root, name);

if (git("status", "--porcelain").trim() !== "") {
  console.error("release: the working tree has uncommitted changes; commit or stash them first");
  process.exit(1);
}

const pkg = JSON.parse(readFileSync(path("package.json"), "utf8")) as { version: string };
const version = nextVersion(pkg.version, bump);
const date = new Date().toISOString().slice(0, 10);
const changelog = releaseChangelog(readFileSync(path("CHANGELOG.md"), "utf8"), version, date);

const setVersion = (file: string, update: (json: Record<string, unknown>) => void) => {
  const json = JSON.parse(readFileSync(path(file), "utf8")) as Record<string, unknown>;
  update(json);
  writeFileSync(path(file), `${JSON.stringify(json, null, 2)}\n`);
};
setVersion("package.json", (json) => (json["version"] = version));
setVersion("package-lock.json", (json) => {
  json["version"] = version;
  const packages = json["packages"] as Record<string, { version?: string }> | undefined;
  if (packages?.[""] !== undefined) packages[""].version = version;
});
setVersion("jsr.json", (json) => (json["version"] = version));
writeFileSync(path("CHANGELOG.md"), changelog);

git("add", "package.json", "package-lock.json", "jsr.json", "CHANGELOG.md");
git("commit", "-m", `Release ${version}`);
git("tag", "-a", `v${version}`, "-m", `svc-live ${version}`);
console.log(`released ${pkg.version} -> ${version}: committed and tagged v${version}; push the tag, let CI pass, then publish by hand`);
