/**
 * npm run docs:api: the API reference in docs/api/, from the package's entry points (deno doc).
 *
 * - The reference documents what a user imports, so each usage line names the package's own
 *   specifier (`import { Live } from "svc-live"`, `"svc-live/auth"`), not a path in this checkout.
 * - deno doc runs in a folder of its own, linked to src/ and node_modules/, because in the checkout
 *   it would read tsconfig.json, whose `types: ["node"]` (for the tests) pulls in Node's whole type
 *   library, which it cannot resolve and warns about.
 * - A warning fails the run: the reference must build clean.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const output = join(root, "docs", "api");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; exports: Record<string, unknown> };

/** Each entry point's source (src/x/mod.ts) and the specifier a user imports it by (svc-live/x). */
const entries: Array<{ source: string; specifier: string }> = [];
for (const [subpath, target] of Object.entries(manifest.exports)) {
  const js = typeof target === "string" ? target : (target as { import?: string }).import;
  if (js === undefined || !js.startsWith("./dist/") || !js.endsWith(".js") || js === "./dist/client.js") continue;
  if (subpath === "./jsx-dev-runtime") continue; // the same as ./jsx-runtime, for the compiler
  // A browser bundle (./client.js, ./split) is built from client/, not from a module of src/.
  if (!existsSync(join(root, js.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")))) continue;
  entries.push({
    source: js.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"),
    specifier: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
  });
}

const work = mkdtempSync(join(tmpdir(), "svc-live-api-"));
try {
  symlinkSync(join(root, "src"), join(work, "src"), "dir");
  symlinkSync(join(root, "node_modules"), join(work, "node_modules"), "dir");
  const deno = JSON.parse(readFileSync(join(root, "deno.json"), "utf8")) as Record<string, unknown>;
  // The package's name and exports: deno doc then opens on the root module's documentation.
  const exports = Object.fromEntries(
    entries.map((e) => [e.specifier === manifest.name ? "." : `./${e.specifier.slice(manifest.name.length + 1)}`, `./${e.source}`]),
  );
  writeFileSync(
    join(work, "deno.json"),
    JSON.stringify({
      name: manifest.name,
      exports,
      imports: deno["imports"],
      compilerOptions: deno["compilerOptions"],
      nodeModulesDir: "manual",
    }),
  );
  rmSync(output, { recursive: true, force: true });
  let log: string;
  try {
    log = execFileSync(
      "npx",
      ["--yes", "deno@2.9.6", "doc", "--html", `--name=${manifest.name}`, `--output=${output}`, ...entries.map((e) => e.source)],
      { cwd: work, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
    );
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    console.error(`${failed.stdout ?? ""}${failed.stderr ?? ""}`);
    process.exit(1);
  }
  const warnings = log.split("\n").filter((line) => /warning/i.test(line));
  if (warnings.length > 0) {
    console.error(`deno doc warned ${warnings.length} time(s):\n${log}`);
    process.exit(1);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// deno doc names each module by its export ("." and "auth" for the package's "." and "./auth").
const byPath = new Map(
  entries.map((e) => [e.specifier === manifest.name ? "." : e.specifier.slice(manifest.name.length + 1), e.specifier]),
);
let rewritten = 0;
function rewrite(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) rewrite(path);
    else if (/\.(html|js|json)$/.test(name)) {
      const text = readFileSync(path, "utf8");
      const next = text.replace(
        /(from\s+)(&quot;|")([^"&]+)(&quot;|")/g,
        (all, from: string, open: string, spec: string, close: string) => {
          const specifier = byPath.get(spec);
          return specifier === undefined ? all : `${from}${open}${specifier}${close}`;
        },
      );
      if (next !== text) {
        writeFileSync(path, next);
        rewritten++;
      }
    }
  }
}
rewrite(output);
console.log(
  `docs/api: the reference of ${entries.length} entry points (${[...byPath.values()].join(", ")}); usage lines in ${rewritten} files`,
);
