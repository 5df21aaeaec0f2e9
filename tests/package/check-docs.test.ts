// npm run lint:docs (scripts/check-docs.ts) on made-up packages: it fails, naming file, line and
// member, on an undocumented export, an undocumented member of a namespace (of aliases, or an
// object of functions) and an undocumented public class member; a package documented throughout
// passes (CONTRIBUTING.md#documenting-exports).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "svc-check-docs-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let count = 0;

/** A package whose one entry point is src/mod.ts with `source`, beside src/impl.ts with `impl`. */
function check(source: string, impl: string) {
  const dir = join(scratch, `pkg-${++count}`);
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "p", exports: { ".": { import: "./dist/mod.js" } } }));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, module: "ESNext", moduleResolution: "Bundler", allowImportingTsExtensions: true, noEmit: true },
      include: ["src"],
    }),
  );
  writeFileSync(join(dir, "src", "mod.ts"), source);
  writeFileSync(join(dir, "src", "impl.ts"), impl);
  // The Node program on PATH runs the script, with this checkout's TypeScript and tsx.
  return spawnSync("node", ["--import", "tsx", join(REPO, "scripts", "check-docs.ts"), "--root", dir], { cwd: REPO, encoding: "utf8" });
}

const IMPL = `/** Documented. */\nexport function one(): number {\n  return 1;\n}\nexport function two(): number {\n  return 2;\n}\n`;

test("a package documented throughout passes", () => {
  const result = check(
    `import * as impl from "./impl.ts";\n/** The namespace. */\n// deno-lint-ignore no-namespace\nexport namespace N {\n  export import one = impl.one;\n}\n/** A class. */\nexport class C {\n  /** A method. */\n  run(): void {}\n  private hidden(): void {}\n}\n`,
    IMPL,
  );
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test("an undocumented member of a namespace of aliases fails, named", () => {
  const result = check(
    `import * as impl from "./impl.ts";\n/** The namespace. */\n// deno-lint-ignore no-namespace\nexport namespace N {\n  export import one = impl.one;\n  export import two = impl.two;\n}\n`,
    IMPL,
  );
  assert.equal(result.status, 1);
  assert.match(result.stderr, /src\/mod\.ts:6: N\.two/);
  assert.doesNotMatch(result.stderr, /N\.one/);
});

test("an undocumented function in an object of functions fails; a member with its own comment passes", () => {
  const result = check(
    `import { one, two } from "./impl.ts";\n/** The helpers. */\nexport const H = {\n  one,\n  two,\n  /** Three. */\n  three: two,\n} as const;\n`,
    IMPL,
  );
  assert.equal(result.status, 1);
  assert.match(result.stderr, /src\/mod\.ts:5: H\.two/);
  assert.doesNotMatch(result.stderr, /H\.(one|three)/);
});

test("an undocumented export and an undocumented public class member fail", () => {
  const result = check(`export function bare(): void {}\n/** A class. */\nexport class C {\n  run(): void {}\n}\n`, IMPL);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /src\/mod\.ts:1: bare/);
  assert.match(result.stderr, /src\/mod\.ts:4: C\.run/);
});
