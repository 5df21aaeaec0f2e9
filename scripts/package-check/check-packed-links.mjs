// node check-packed-links.mjs <tarball>: the Markdown the tarball ships (its README, docs/ and the
// rest) links only to files the tarball holds, so no link is dead from node_modules or a registry
// page. Links with a scheme (https:, mailto:) and in-page anchors are not files; a link that
// leaves the package is reported as well. The check itself is deadLinks, which the tests drive.
import { execFileSync } from "node:child_process";
import { posix } from "node:path";

/**
 * The relative links of the Markdown files in `files` (paths inside the package, with "/") that
 * name no file of `files`. `readText(path)` gives a file's text.
 */
export function deadLinks(files, readText) {
  const present = new Set(files);
  const dead = [];
  for (const file of files.filter((path) => path.endsWith(".md"))) {
    for (const [, target] of readText(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) continue;
      const path = posix.normalize(posix.join(posix.dirname(file), target.split("#")[0])).replace(/\/$/, "");
      // A link to a folder (docs/) is live when the package holds a file in it.
      if (!present.has(path) && !files.some((other) => other.startsWith(`${path}/`))) dead.push(`${file}: ${target} (not in the package)`);
    }
  }
  return dead;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const tarball = process.argv[2];
  const entries = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter((l) => l !== "" && !l.endsWith("/"));
  const files = entries.map((entry) => entry.replace(/^package\//, ""));
  const read = (file) => execFileSync("tar", ["-xzOf", tarball, `package/${file}`], { encoding: "utf8" });
  const dead = deadLinks(files, read);
  if (dead.length > 0) {
    console.error(`${dead.length} link(s) in the packed Markdown to files the package lacks:\n  ${dead.join("\n  ")}`);
    process.exit(1);
  }
  console.log(
    `ok   the packed README and docs link only to files in the package (${files.filter((f) => f.endsWith(".md")).length} Markdown files)`,
  );
}
