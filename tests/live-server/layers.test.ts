// The live server's folders are layers (docs/architecture.md#the-layers): each imports only the
// folders below it, so a change to a lower layer never needs to know who sits above it. Every
// import of every file under src/live/server is read with the TypeScript compiler's
// preprocessor (type-only and dynamic imports count too), and each folder's allowed imports are
// listed once, here.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import ts from "typescript";

const root = new URL("../../src/live/server/", import.meta.url);

/** Each folder of src/live/server, top to bottom, and the folders it may import. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  app: ["http", "replicas", "access", "registry", "session", "streams"],
  http: ["replicas", "access", "registry", "session", "streams"],
  replicas: ["access", "registry", "session", "streams"],
  access: ["registry", "session", "streams"],
  registry: ["session", "streams"],
  session: ["streams"],
  streams: [],
};

type Edge = { readonly file: string; readonly line: number; readonly from: string; readonly to: string };

/** Every .ts file under src/live/server, as a path relative to it. */
function files(): string[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .map((path) => path.replaceAll("\\", "/"))
    .filter((path) => path.endsWith(".ts"));
}

/** The folder of src/live/server a relative path lies in ("" for the root, undefined outside). */
function folderOf(path: string): string | undefined {
  if (path.startsWith("../")) return undefined;
  const slash = path.indexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** Every import from one folder of src/live/server into another. */
function crossings(): Edge[] {
  const edges: Edge[] = [];
  for (const file of files()) {
    const text = readFileSync(new URL(file, root), "utf8");
    const from = folderOf(file)!;
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      if (!imported.fileName.startsWith(".")) continue;
      const target = new URL(imported.fileName, new URL(file, root)).href;
      if (!target.startsWith(root.href)) continue;
      const to = folderOf(target.slice(root.href.length));
      if (to === undefined || to === from) continue;
      const line = text.slice(0, imported.pos).split("\n").length;
      edges.push({ file, line, from, to });
    }
  }
  return edges;
}

test("every folder of the live server has its place in the layers", () => {
  const folders = new Set(files().map(folderOf).filter((folder) => folder !== ""));
  assert.deepEqual([...folders].sort(), Object.keys(ALLOWED).sort());
});

test("no folder of the live server imports a folder above it, nor one beside it", () => {
  const edges = crossings();
  // The reading sees imports: a live server without any would mean the check reads nothing.
  assert.ok(edges.length > 20, `only ${edges.length} imports between folders were found`);
  const upward = edges
    .filter((edge) => edge.from !== "" && edge.to !== "" && !ALLOWED[edge.from]!.includes(edge.to))
    .map((edge) => `${edge.file}:${edge.line} (${edge.from} -> ${edge.to})`);
  assert.deepEqual(upward, []);
});

test("nothing in the live server imports its root module", () => {
  const intoRoot = crossings().filter((edge) => edge.to === "").map((edge) => `${edge.file}:${edge.line}`);
  assert.deepEqual(intoRoot, []);
});

test("the session registry never branches on whether sessions are shared", () => {
  const path = "registry/registry.ts";
  const source = ts.createSourceFile(path, readFileSync(new URL(path, root), "utf8"), ts.ScriptTarget.Latest, true);
  const branches: string[] = [];
  const conditionOf = (node: ts.Node): ts.Node | undefined => {
    if (ts.isIfStatement(node) || ts.isConditionalExpression(node) || ts.isWhileStatement(node)) {
      return ts.isConditionalExpression(node) ? node.condition : node.expression;
    }
    if (
      ts.isBinaryExpression(node) &&
      [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(
        node.operatorToken.kind,
      )
    ) {
      return node.left;
    }
    if ((ts.isPropertyAccessExpression(node) || ts.isCallExpression(node)) && node.questionDotToken !== undefined) return node.expression;
    return undefined;
  };
  const visit = (node: ts.Node): void => {
    const condition = conditionOf(node);
    if (condition !== undefined && /shar|replica|postgres/i.test(condition.getText(source))) {
      branches.push(`${path}:${source.getLineAndCharacterOfPosition(condition.getStart(source)).line + 1}: ${condition.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  assert.deepEqual(branches, []);
});
