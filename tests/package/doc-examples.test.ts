// Every @example in the sources' doc comments compiles (deno check --doc-only), importing from the
// package as a user does ("svc-live", "svc-live/server"): an example that drifts from the API it
// shows fails here (CONTRIBUTING.md#documenting-exports). deno check runs in a folder of its own,
// linked to src/ and node_modules/, for the reason scripts/api-docs.ts gives.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "svc-doc-examples-"));
after(() => rmSync(work, { recursive: true, force: true }));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

test("every @example in the doc comments type-checks, importing svc-live as a user does", () => {
  const withExamples = sources(join(REPO, "src")).filter((file) => readFileSync(file, "utf8").includes("@example"));
  assert.ok(withExamples.length >= 10, `${withExamples.length} files with examples`);
  symlinkSync(join(REPO, "src"), join(work, "src"), "dir");
  symlinkSync(join(REPO, "node_modules"), join(work, "node_modules"), "dir");
  const deno = JSON.parse(readFileSync(join(REPO, "deno.json"), "utf8")) as { imports: Record<string, string>; compilerOptions: unknown };
  const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { name: string; exports: Record<string, unknown> };
  const imports = { ...deno.imports };
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const js = typeof target === "string" ? target : (target as { import?: string }).import;
    const source = js?.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts");
    if (source === undefined || !source.startsWith("./src/")) continue;
    try {
      statSync(join(REPO, source));
    } catch {
      continue; // a browser bundle (./client.js, ./split), built from client/
    }
    imports[subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`] = source;
  }
  writeFileSync(join(work, "deno.json"), JSON.stringify({ imports, compilerOptions: deno.compilerOptions, nodeModulesDir: "manual" }));
  const files = withExamples.map((file) => relative(REPO, file));
  const result = spawnSync("npx", ["--yes", "deno@2.9.6", "check", "--quiet", "--doc-only", ...files], {
    cwd: work,
    encoding: "utf8",
    timeout: 300_000,
    env: { ...process.env, NO_COLOR: "1" },
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});
