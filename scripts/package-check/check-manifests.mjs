// node check-manifests.mjs <repo>: jsr.json publishes what package.json does. Same version; the
// same subpaths, each jsr.json source being the file its npm build comes from; an import map that
// names exactly the runtime dependencies and peers, in the same ranges.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const repo = process.argv[2];
const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
const jsr = JSON.parse(readFileSync(join(repo, "jsr.json"), "utf8"));
const problems = [];

if (jsr.version !== pkg.version) problems.push(`jsr.json version ${jsr.version}, package.json ${pkg.version}`);

/** Subpaths whose dist/ file is a browser client bundled from client/ (scripts/build.ts). */
const BUNDLED_CLIENTS = { "./split": "./client/split/start.ts" };

const npmSubpaths = Object.entries(pkg.exports).filter(([path]) => !/\.(js|json)$/.test(path));
for (const [path, target] of npmSubpaths) {
  if (
    typeof target !== "object" || !/^\.\/dist\/.*\.js$/.test(target.import ?? "") ||
    target.types !== target.import.replace(/\.js$/, ".d.ts")
  ) {
    problems.push(
      `package.json exports ${path} as ${JSON.stringify(target)}: give it types, import and default conditions into dist/ (like ".")`,
    );
    continue;
  }
  // A browser client is bundled into dist/ from client/, not compiled from src/.
  const source = BUNDLED_CLIENTS[path] ?? target.import.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts");
  if (jsr.exports[path] !== source) {
    problems.push(`jsr.json exports ${path} as ${jsr.exports[path]}, package.json builds it from ${source}`);
  }
}
for (const path of Object.keys(jsr.exports)) if (!(path in pkg.exports)) problems.push(`jsr.json exports ${path}, package.json does not`);

const wanted = { ...pkg.dependencies, ...pkg.peerDependencies };
for (const [name, range] of Object.entries(wanted)) {
  if (jsr.imports[name] !== `npm:${name}@${range}`) {
    problems.push(`jsr.json imports ${name} as ${jsr.imports[name]}, package.json wants ${range}`);
  }
  if (jsr.imports[`${name}/`] !== `npm:/${name}@${range}/`) problems.push(`jsr.json imports ${name}/ as ${jsr.imports[`${name}/`]}`);
}
for (const name of Object.keys(jsr.imports)) {
  if (!(name.replace(/\/$/, "") in wanted)) problems.push(`jsr.json imports ${name}, which package.json does not depend on`);
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(
  `ok   jsr.json and package.json: version ${pkg.version}, ${npmSubpaths.length} subpaths, ${Object.keys(wanted).length} dependencies`,
);
