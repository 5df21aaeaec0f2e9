/**
 * npm run lint:links: nothing in the repository points at a file that is not in it. Every relative
 * Markdown link, and every `docs/x.md#anchor` (or README, CONTRIBUTING, SECURITY, CHANGELOG) cited
 * in a source comment, must name a tracked file, and its anchor a heading of that file.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import process from "node:process";

const tracked = execFileSync("git", ["ls-files"], { encoding: "utf8" }).split("\n").filter((file) => file !== "" && existsSync(file));
const headings = new Map<string, Set<string>>();

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(file: string): Set<string> {
  let anchors = headings.get(file);
  if (anchors === undefined) {
    anchors = new Set();
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const heading = /^#+\s+(.*)$/.exec(line)?.[1];
      if (heading !== undefined) anchors.add(heading.trim().toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-"));
    }
    headings.set(file, anchors);
  }
  return anchors;
}

const broken: string[] = [];
function check(from: string, target: string, path: string, anchor: string): void {
  if (!existsSync(path)) return void broken.push(`${from}: ${target} (no such file)`);
  if (anchor !== "" && path.endsWith(".md") && !anchorsOf(path).has(anchor)) broken.push(`${from}: ${target} (no such heading)`);
}

for (const file of tracked) {
  if (!/\.(md|ts|tsx|js|mjs)$/.test(file) || file.startsWith("src/generated/")) continue;
  const text = readFileSync(file, "utf8");
  if (file.endsWith(".md")) {
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path = "", anchor = ""] = target!.split("#");
      check(file, target!, path === "" ? file : normalize(join(dirname(file), path)), anchor);
    }
  }
  for (
    const [cited, path, anchor = ""] of text.matchAll(/\b((?:docs\/[\w-]+|CONTRIBUTING|README|SECURITY|CHANGELOG)\.md)(?:#([\w-]+))?/g)
  ) {
    if (anchor === "anchor") continue; // the placeholder of the docs' own "cite this as" sentences
    check(file, cited, path!, anchor);
  }
}
if (broken.length > 0) {
  console.error(`${broken.length} link(s) to nothing:\n  ${broken.join("\n  ")}`);
  process.exit(1);
}
console.log(`every link of ${tracked.length} tracked files resolves`);
