// node check-tarball.mjs <tarball> <expected-files.txt>: the tarball's files against the expected
// patterns, and every src/**/*.ts against its dist/**/*.js and .d.ts.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const [tarball, expectedFile] = process.argv.slice(2);
const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter((line) => line !== "" && !line.endsWith("/"));
const patterns = readFileSync(expectedFile, "utf8").split("\n").map((line) => line.trim()).filter((line) =>
  line !== "" && !line.startsWith("#")
);

const toRegExp = (pattern) =>
  new RegExp(
    `^${
      pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*\*\//g, "\uE000").replace(/\*/g, "[^/]*").replace(/\uE000/g, "(?:[^/]+/)*")
    }$`,
  );
// A leading "?" marks a pattern that may match nothing (a kind of file the sources may not have yet).
const rules = patterns.map((line) => {
  const optional = line.startsWith("?");
  const pattern = optional ? line.slice(1) : line;
  return { pattern, optional, regexp: toRegExp(pattern), used: 0 };
});

const problems = [];
for (const file of files) {
  const matching = rules.filter((rule) => rule.regexp.test(file));
  if (matching.length === 0) problems.push(`unexpected file in the tarball: ${file}`);
  for (const rule of matching) rule.used++;
}
for (const rule of rules) if (rule.used === 0 && !rule.optional) problems.push(`nothing in the tarball matches ${rule.pattern}`);

const present = new Set(files);
for (const file of files.filter((path) => /^package\/src\/.*\.tsx?$/.test(path))) {
  const built = file.replace(/^package\/src\//, "package/dist/").replace(/\.tsx?$/, "");
  for (const wanted of [`${built}.js`, `${built}.d.ts`]) if (!present.has(wanted)) problems.push(`${file} has no ${wanted}`);
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`ok   tarball: ${files.length} files, all expected (${rules.length} patterns)`);
