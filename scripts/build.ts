/**
 * `npm run build` (run by `prepack`): compiles every file under src/ into dist/ as ES modules with
 * .d.ts files and source maps (tsconfig.build.json), then
 *   - rewrites the relative `.ts` specifiers tsc keeps in .d.ts files to `.js`, so a consumer's
 *     type checker (moduleResolution node16 or bundler) finds the declarations beside the code;
 *   - copies the files the code reads at run time (the templates of `svc-live init`);
 *   - writes the browser client as dist/client.js (the `svc-live/client.js` export), the split
 *     client's script as dist/split.js (`svc-live/split.js`, started when a page loads it), and the
 *     split client's module, which starts nothing on import, as dist/split/mod.js with its types
 *     (the `svc-live/split` export, bundled from client/split/start.ts);
 *   - checks that every target of package.json's `exports`, `main`, `types` and `bin` exists.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { bundle } from "../client/build.ts";
import { CLIENT_BUNDLE } from "../src/generated/client-bundle.ts";
import { SPLIT_BUNDLE } from "../src/generated/split-bundle.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const src = join(root, "src");
const dist = join(root, "dist");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.build.json")], {
  stdio: "inherit",
});

// `from "./x.ts"`, `import("./x.ts")` and `declare module "./x.ts"` in declarations.
const relativeTs = /((?:from|import\(|module)\s*["'])(\.{1,2}\/[^"']*?)\.(ts|tsx|mts)(["'])/g;
const extensionFor: Record<string, string> = { ts: "js", tsx: "js", mts: "mjs" };
for (const file of files(dist).filter((path) => /\.d\.(ts|mts)$/.test(path))) {
  const text = readFileSync(file, "utf8");
  const rewritten = text.replace(
    relativeTs,
    (_all, head: string, path: string, ext: string, quote: string) => `${head}${path}.${extensionFor[ext]}${quote}`,
  );
  if (rewritten !== text) writeFileSync(file, rewritten);
}

// Files under src/ that are neither TypeScript nor declarations are assets the code reads.
for (const file of files(src).filter((path) => !/\.(ts|tsx|mts)$/.test(path))) {
  const target = join(dist, relative(src, file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
}

writeFileSync(join(dist, "client.js"), `${CLIENT_BUNDLE}\n`);
// The split client's script (`svc-live/split.js`, the file the app serves), and its module (the
// `svc-live/split` export), whose declarations come from its source as written.
writeFileSync(join(dist, "split.js"), `${SPLIT_BUNDLE}\n`);
const SPLIT_MODULE = "client/split/start.ts";
mkdirSync(join(dist, "split"), { recursive: true });
writeFileSync(join(dist, "split", "mod.js"), `${await bundle(SPLIT_MODULE, { minify: true })}\n`);
const declared = ts.transpileDeclaration(readFileSync(join(root, SPLIT_MODULE), "utf8"), { fileName: SPLIT_MODULE });
if (declared.diagnostics?.length) throw new Error(`${SPLIT_MODULE}: its exports need explicit types for their declarations`);
writeFileSync(join(dist, "split", "mod.d.ts"), declared.outputText);

type Exports = string | { [condition: string]: Exports } | null;
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: Record<string, Exports>;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
};
const targets = (
  value: Exports,
): string[] => (value === null ? [] : typeof value === "string" ? [value] : Object.values(value).flatMap(targets));
const missing = [...Object.values(pkg.exports).flatMap(targets), pkg.main, pkg.types, ...Object.values(pkg.bin ?? {})]
  .filter((path): path is string => path !== undefined)
  .filter((path) => !existsSync(join(root, path)));
if (missing.length > 0) throw new Error(`package.json names files the build did not produce: ${missing.join(", ")}`);
console.log(`built ${files(dist).length} files into dist/`);
