// The shape of the functions in the live server, the server helpers and the browser client: none
// takes more than four positional parameters (more go in a named options object), none is longer
// than 60 lines (a longer one is split into named steps), and no call passes a bare `true` or
// `false` (a flag reads as a named option). Every function-like node of every file is read with the
// TypeScript compiler: declarations, methods, constructors, accessors, arrows and function
// expressions, nested ones included; a function's lines run from its first token to its last.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import ts from "typescript";

const FOLDERS = ["src/live/server/", "src/server/", "client/"];
const MAX_PARAMS = 4;
const MAX_LINES = 60;
/** Calls whose boolean argument is a value, not a flag. */
const VALUE_CALLS = new Set(["Promise.resolve"]);

type Finding = { readonly where: string; readonly what: string };

function sourcesOf(folder: string): { path: string; text: string }[] {
  const root = new URL(`../${folder}`, import.meta.url);
  return (readdirSync(root, { recursive: true }) as string[])
    .map((path) => path.replaceAll("\\", "/"))
    .filter((path) => /\.tsx?$/.test(path) && !path.endsWith(".d.ts"))
    .map((path) => ({ path: folder + path, text: readFileSync(new URL(path, root), "utf8") }));
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  return "a function";
}

/** What breaks the rules in one file. */
function findingsIn(path: string, text: string): Finding[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lineOf = (pos: number) => file.getLineAndCharacterOfPosition(pos).line + 1;
  const found: Finding[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const where = `${path}:${lineOf(node.getStart(file))} ${nameOf(node)}`;
      const positional = node.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === "this")).length;
      if (positional > MAX_PARAMS) found.push({ where, what: `${positional} positional parameters` });
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart(file)) + 1;
      if (lines > MAX_LINES) found.push({ where, what: `${lines} lines` });
    }
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && !VALUE_CALLS.has(node.expression.getText(file))) {
      for (const arg of node.arguments ?? []) {
        if (arg.kind === ts.SyntaxKind.TrueKeyword || arg.kind === ts.SyntaxKind.FalseKeyword) {
          found.push({ where: `${path}:${lineOf(arg.getStart(file))} ${node.expression.getText(file)}`, what: "a bare boolean argument" });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

test("the rules find what they are about (a function too long, too many parameters, a bare boolean)", () => {
  const long = `function f(a, b, c, d, e) {\n${"  a;\n".repeat(60)}}\nf(1, 2, 3, 4, true);\n`;
  const found = findingsIn("sample.ts", long).map((f) => f.what);
  assert.deepEqual(found.sort(), ["5 positional parameters", "62 lines", "a bare boolean argument"]);
  const fine = `const g = (a: number, b: number, c: number, d: number, options: { flag: boolean }) => a;\n`;
  assert.deepEqual(findingsIn("sample.ts", fine).map((f) => f.what), ["5 positional parameters"]);
  assert.deepEqual(findingsIn("sample.ts", "class C { m(this: C, a: 1, b: 2, c: 3, d: 4) { return Promise.resolve(false); } }"), []);
});

for (const folder of FOLDERS) {
  test(`every function in ${folder} takes at most ${MAX_PARAMS} positional parameters, has at most ${MAX_LINES} lines, and no call passes a bare boolean`, () => {
    const sources = sourcesOf(folder);
    assert.ok(sources.length > 5, `the sources of ${folder} are read`);
    const found = sources.flatMap(({ path, text }) => findingsIn(path, text));
    assert.deepEqual(found.map((f) => `${f.where}: ${f.what}`), []);
  });
}

/**
 * The view layer and the live core beside the server (src/live outside server/ and store/): the
 * parameter and boolean rules (not the line rule: their longest functions are hot loops kept whole).
 */
test(`every function in src/ui and in src/live beside its server takes at most ${MAX_PARAMS} positional parameters, and no call passes a bare boolean`, () => {
  const sources = [...sourcesOf("src/ui/"), ...sourcesOf("src/live/")]
    .filter(({ path }) => !path.startsWith("src/live/server/") && !path.startsWith("src/live/store/"));
  assert.ok(sources.length > 20, "the sources of src/ui and src/live are read");
  const found = sources.flatMap(({ path, text }) => findingsIn(path, text)).filter((f) => !f.what.endsWith(" lines"));
  assert.deepEqual(found.map((f) => `${f.where}: ${f.what}`), []);
});
