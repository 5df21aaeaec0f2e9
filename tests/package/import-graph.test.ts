// What the published package loads (package.json's exports, followed through their relative
// imports): no module awaits at top level, so bundlers and CommonJS require() can load it; and
// every package it imports at run time is a dependency or a peer, never only a devDependency.
// The TypeScript compiler's parser reads the sources; scripts/package-check proves the same on the
// packed tarball.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import ts from "typescript";

const root = new URL("../../", import.meta.url);
const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  exports: Record<string, string | { import: string }>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

/** Subpaths whose dist/ file is a browser client bundled from client/ (scripts/build.ts). */
const BUNDLED_CLIENTS: Record<string, string> = { "./split": "client/split/start.ts" };

/** The source file each subpath's build comes from: ./dist/x/mod.js <- src/x/mod.ts. */
const entries = Object.entries(pkg.exports).flatMap(([subpath, target]) =>
  typeof target === "string" ? [] : [BUNDLED_CLIENTS[subpath] ?? target.import.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")]
);

type Module = { path: string; source: ts.SourceFile };
type Import = { specifier: string; dynamic: boolean };

function importsOf(source: ts.SourceFile): Import[] {
  const found: Import[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly && ts.isStringLiteral(statement.moduleSpecifier)) {
      found.push({ specifier: statement.moduleSpecifier.text, dynamic: false });
    }
    if (
      ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      found.push({ specifier: statement.moduleSpecifier.text, dynamic: false });
    }
  }
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every module the entries load through static relative imports. */
function graph(): Module[] {
  const seen = new Map<string, Module>();
  const queue = [...entries];
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    const text = readFileSync(new URL(path, root), "utf8");
    const source = ts.createSourceFile(
      path,
      text,
      ts.ScriptTarget.Latest,
      true,
      path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    seen.set(path, { path, source });
    for (const { specifier, dynamic } of importsOf(source)) {
      if (dynamic || !specifier.startsWith(".")) continue;
      queue.push(new URL(specifier, new URL(path, "file:///")).pathname.slice(1));
    }
  }
  return [...seen.values()];
}

/** `await` (or `for await`) outside any function: a top-level await. */
function topLevelAwaits(source: ts.SourceFile): number[] {
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return;
    const awaits = ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier !== undefined);
    if (awaits) lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return lines;
}

const packageName = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

test("the package's exports load a graph of modules with no top-level await", () => {
  const modules = graph();
  assert.ok(modules.length > 50, `${modules.length} modules found from ${entries.length} entries`);
  const offenders = modules.flatMap(({ path, source }) => topLevelAwaits(source).map((line) => `${path}:${line}`));
  assert.deepEqual(offenders, [], "compute on first use instead (see src/runtime/cpu.ts)");
});

test("every package the exported modules import at run time is a dependency or a peer dependency", () => {
  const allowed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
  const offenders = graph().flatMap(({ path, source }) =>
    importsOf(source)
      .filter(({ specifier }) => !specifier.startsWith(".") && !specifier.startsWith("node:") && !specifier.startsWith("svc-live"))
      .filter(({ specifier }) => !allowed.has(packageName(specifier)))
      .map(({ specifier }) => `${path} imports ${specifier}`)
  );
  assert.deepEqual(offenders, []);
});

test("the check sees a top-level await and a devDependency import when there is one", () => {
  const source = ts.createSourceFile(
    "x.ts",
    'const a = await f();\nasync function g() { await f(); }\nfor await (const x of y) {}\nimport "tsx";',
    ts.ScriptTarget.Latest,
    true,
  );
  assert.deepEqual(topLevelAwaits(source), [1, 3]);
  assert.deepEqual(importsOf(source), [{ specifier: "tsx", dynamic: false }]);
});
