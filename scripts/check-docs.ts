/**
 * npm run lint:docs: every export of the package's entry points carries a doc comment, so the
 * generated API reference (npm run docs:api) has no blank entries. It reads the entry points from
 * package.json's exports, asks TypeScript what each one exports (re-exports followed to their
 * declarations) and fails, listing file and line, on any export whose declarations have no JSDoc.
 */
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import process from "node:process";
import ts from "typescript";

const root = resolve(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as { exports: Record<string, unknown> };

/** The TypeScript source of each package entry point (dist/x/mod.js is built from src/x/mod.ts). */
function entryPoints(): string[] {
  const entries: string[] = [];
  for (const target of Object.values(manifest.exports)) {
    const js = typeof target === "string" ? target : (target as { import?: string }).import;
    if (js === undefined || !js.startsWith("./dist/") || !js.endsWith(".js") || js === "./dist/client.js" || js === "./dist/split.js") {
      continue;
    }
    entries.push(resolve(root, js.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")));
  }
  return entries;
}

function documented(symbol: ts.Symbol, checker: ts.TypeChecker): boolean {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declarations = target.getDeclarations() ?? [];
  // A doc comment on any declaration (one overload, the class, the const) documents the export.
  return declarations.some((declaration) => ts.getJSDocCommentsAndTags(declaration).length > 0 || hasLeadingDoc(declaration));
}

/** `export const x = ...` keeps its comment on the statement, not on the variable's declaration. */
function hasLeadingDoc(declaration: ts.Declaration): boolean {
  const statement = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  const text = statement.getSourceFile().getFullText();
  return (ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? []).some((range) => text.slice(range.pos, range.pos + 3) === "/**");
}

const entries = entryPoints();
const config = ts.getParsedCommandLineOfConfigFile(resolve(root, "tsconfig.json"), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: () => {},
});
const program = ts.createProgram(entries, { ...config?.options, noEmit: true });
const checker = program.getTypeChecker();
const missing = new Set<string>();
for (const entry of entries) {
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) {
    missing.add(`${relative(root, entry)}: not found`);
    continue;
  }
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    if (documented(symbol, checker)) continue;
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declaration = target.getDeclarations()?.[0];
    const where = declaration
      ? `${relative(root, declaration.getSourceFile().fileName)}:${
        declaration.getSourceFile().getLineAndCharacterOfPosition(declaration.getStart()).line + 1
      }`
      : relative(root, entry);
    missing.add(`${where}: ${symbol.getName()}`);
  }
}
if (missing.size > 0) {
  console.error(`${missing.size} public export(s) without a doc comment:\n  ${[...missing].sort().join("\n  ")}`);
  process.exit(1);
}
console.log(`every export of ${entries.length} entry points is documented`);
