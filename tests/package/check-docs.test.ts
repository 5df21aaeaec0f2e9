// npm run lint:docs (scripts/check-docs.ts) on made-up packages: it fails, naming file, line and
// member, on an undocumented export, an undocumented member of a namespace (of aliases, or an
// object of functions) and an undocumented public class member; on a function or method without a
// description or an example; on a property without a line; on a comment citing a file a reader of
// the reference cannot open. A package documented throughout passes (CONTRIBUTING.md#documenting-exports).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "svc-check-docs-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let count = 0;

/** A package whose one entry point is src/mod.ts with `source`, beside src/impl.ts with `impl` (and `files`, by path). */
function check(source: string, impl: string, files: Record<string, string> = {}) {
  const dir = join(scratch, `pkg-${++count}`);
  mkdirSync(join(dir, "src"), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
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

/** The tail of a doc comment with an example, for a function or method that passes. */
const EXAMPLE = "\n *\n * @example\n * ```ts\n * one();\n * ```\n";
const IMPL =
  `/** Documented.${EXAMPLE} */\nexport function one(): number {\n  return 1;\n}\nexport function two(): number {\n  return 2;\n}\n`;

test("a package documented throughout passes", () => {
  const result = check(
    `import * as impl from "./impl.ts";\n/** The namespace. */\n// deno-lint-ignore no-namespace\nexport namespace N {\n  export import one = impl.one;\n}\n/** A class. */\nexport class C {\n  /** A method.${EXAMPLE} */\n  run(): void {}\n  private hidden(): void {}\n}\n`,
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
  // Named where its comment goes: the function the alias names.
  assert.match(result.stderr, /src\/impl\.ts:11: N\.two: no doc comment/);
  assert.doesNotMatch(result.stderr, /N\.one/);
});

test("an undocumented function in an object of functions fails; a member with its own comment passes", () => {
  const result = check(
    `import { one, two } from "./impl.ts";\n/** The helpers. */\nexport const H = {\n  one,\n  two,\n  /** Three.${EXAMPLE} */\n  three: two,\n} as const;\n`,
    IMPL,
  );
  assert.equal(result.status, 1);
  assert.match(result.stderr, /src\/impl\.ts:11: H\.two: no doc comment/);
  assert.doesNotMatch(result.stderr, /H\.(one|three)/);
});

test("an undocumented export and an undocumented public class member fail", () => {
  const result = check(`export function bare(): void {}\n/** A class. */\nexport class C {\n  run(): void {}\n}\n`, IMPL);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /src\/mod\.ts:1: bare/);
  assert.match(result.stderr, /src\/mod\.ts:4: C\.run/);
});

test("a function or namespace member without an example fails, named with its line; one with an example passes", () => {
  const impl =
    `/** One.${EXAMPLE} */\nexport function one(): number {\n  return 1;\n}\n/** Two, with no example. */\nexport function two(): number {\n  return 2;\n}\n`;
  const result = check(
    `import * as impl from "./impl.ts";\n/** The namespace. */\n// deno-lint-ignore no-namespace\nexport namespace N {\n  export import one = impl.one;\n  export import two = impl.two;\n}\n`,
    impl,
  );
  assert.equal(result.status, 1);
  assert.match(result.stderr, /src\/impl\.ts:12: N\.two: no @example/);
  assert.doesNotMatch(result.stderr, /N\.one/);
});

test("a function whose comment is only tags has no description", () => {
  const result = check(`/**\n * @example\n * \`\`\`ts\n * run();\n * \`\`\`\n */\nexport function run(): void {}\n`, IMPL);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /src\/mod\.ts:7: run: no description/);
});

test("a public class method needs an example; a property or accessor needs a line", () => {
  const result = check(
    `/** A store. */\nexport class Store {\n  /** Counts.${EXAMPLE}   */\n  count(): number {\n    return 0;\n  }\n  /** Saves, with no example. */\n  save(): void {}\n  readonly size: number = 0;\n}\n`,
    IMPL,
  );
  assert.equal(result.status, 1);
  assert.match(result.stderr, /src\/mod\.ts:\d+: Store\.save: no @example/);
  assert.match(result.stderr, /src\/mod\.ts:\d+: Store\.size: no doc comment/);
  assert.doesNotMatch(result.stderr, /Store\.count/);
});

test("every member of an exported interface or object type needs a line; a union's variants do not", () => {
  const result = check(
    `/** Options. */\nexport type Options = {\n  /** The title. */\n  readonly title?: string;\n  readonly heartbeatMs?: number;\n};\n/** A store. */\nexport interface Drainable {\n  drain(): Promise<void>;\n}\n/** A result. */\nexport type Outcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };\n`,
    IMPL,
  );
  assert.equal(result.status, 1);
  assert.match(result.stderr, /src\/mod\.ts:5: Options\.heartbeatMs: no doc comment/);
  assert.match(result.stderr, /src\/mod\.ts:9: Drainable\.drain: no doc comment/);
  assert.doesNotMatch(result.stderr, /Options\.title|Outcome\./);
});

test("a comment that cites a file a reader of the reference cannot open fails; a shipped guide and code in an example do not", () => {
  const result = check(
    `/**\n * Renders (src/ui/element-log.ts; docs/live-apps.md#views; measured in bench/live.bench.ts, and see result.ts).\n *\n * @example\n * \`\`\`ts\n * import { x } from "./app.ts";\n * \`\`\`\n */\nexport function render(): void {}\n`,
    IMPL,
    { "docs/live-apps.md": "# Live apps\n" },
  );
  assert.equal(result.status, 1);
  assert.match(result.stderr, /src\/mod\.ts:9: render: cites src\/ui\/element-log\.ts, which a reader cannot open/);
  assert.match(result.stderr, /render: cites bench\/live\.bench\.ts/);
  assert.match(result.stderr, /render: cites result\.ts/);
  assert.doesNotMatch(result.stderr, /docs\/live-apps\.md|app\.ts/);
});

test("a guide the package does not have is a citation a reader cannot open", () => {
  // The guide's path is built, so that the link check of this repository does not read it as a citation.
  const missing = ["docs", "missing.md"].join("/");
  const result = check(`/**\n * See ${missing}.${EXAMPLE} */\nexport function one(): number {\n  return 1;\n}\n`, IMPL);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /one: cites docs\/missing\.md/);
});
