/**
 * npm run lint:docs: every export of the package's entry points carries a doc comment, so the
 * generated API reference (npm run docs:api) has no blank entries (CONTRIBUTING.md#documenting-exports).
 * It reads the entry points from package.json's exports, asks TypeScript what each one exports
 * (re-exports followed to their declarations) and fails, listing file and line, on any export
 * whose declarations have no JSDoc. It counts, besides each export:
 *
 * - every member of a namespace (`Live.app`, `Ui.h`, `Server.slidingSession`): of an
 *   `export namespace` of aliases, the declaration each alias names; of an exported object of
 *   functions (`export const Result = { ok, err }`), each property's declaration or its own comment;
 * - every public member of an exported class (methods, properties, accessors; not the
 *   constructor, and not the members it overrides from a documented base such as `toString`).
 */
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import process from "node:process";
import ts from "typescript";

// `--root <dir>` checks another package (the tests check made-up ones); by default, this one.
const rootArg = process.argv.indexOf("--root");
const root = rootArg === -1 ? resolve(import.meta.dirname, "..") : resolve(process.argv[rootArg + 1]!);
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

/** Where a declaration is, as file:line. */
function whereOf(declaration: ts.Node): string {
  const source = declaration.getSourceFile();
  return `${relative(root, source.fileName)}:${source.getLineAndCharacterOfPosition(declaration.getStart()).line + 1}`;
}

/** The namespace members and public class members of an export that have no doc comment. */
function undocumentedMembers(name: string, symbol: ts.Symbol, checker: ts.TypeChecker): string[] {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const missing: string[] = [];
  for (const declaration of target.getDeclarations() ?? []) {
    if (ts.isModuleDeclaration(declaration)) {
      // export namespace X { export import a = m.b; ... }
      for (const member of checker.getExportsOfModule(target)) {
        if (!documented(member, checker)) missing.push(`${whereOf(member.getDeclarations()![0]!)}: ${name}.${member.getName()}`);
      }
    } else if (ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined) {
      // export const X = { a, b: c } (as const)
      let init: ts.Expression = declaration.initializer;
      while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
      if (!ts.isObjectLiteralExpression(init)) continue;
      for (const property of init.properties) {
        if (ts.isSpreadAssignment(property) || property.name === undefined) continue;
        if (ts.getJSDocCommentsAndTags(property).length > 0 || hasLeadingDoc(property as unknown as ts.Declaration)) continue;
        const value = ts.isShorthandPropertyAssignment(property)
          ? checker.getShorthandAssignmentValueSymbol(property)
          : ts.isPropertyAssignment(property)
          ? checker.getSymbolAtLocation(property.initializer)
          : undefined;
        if (value !== undefined && documented(value, checker)) continue;
        // A value that is data (a number, an object of settings) needs no comment of its own; a function does.
        const type = checker.getTypeAtLocation(property);
        if (value === undefined && type.getCallSignatures().length === 0) continue;
        missing.push(`${whereOf(property)}: ${name}.${property.name.getText()}`);
      }
    } else if (ts.isClassDeclaration(declaration)) {
      for (const member of declaration.members) {
        if (ts.isConstructorDeclaration(member) || ts.isClassStaticBlockDeclaration(member) || ts.isIndexSignatureDeclaration(member)) {
          continue;
        }
        const modifiers = ts.canHaveModifiers(member) ? ts.getModifiers(member) ?? [] : [];
        if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
        if (member.name === undefined || ts.isPrivateIdentifier(member.name)) continue;
        if (ts.getJSDocCommentsAndTags(member).length > 0) continue;
        // Overloads and accessor pairs: one documented declaration documents the member.
        const memberSymbol = checker.getSymbolAtLocation(member.name);
        if (memberSymbol !== undefined && documented(memberSymbol, checker)) continue;
        // Members every object has (toString, toJSON, Symbol.toPrimitive...) say what the language says they do.
        if (/^(toString|toJSON|valueOf|\[Symbol\.\w+\])$/.test(member.name.getText())) continue;
        if (modifiers.some((m) => m.kind === ts.SyntaxKind.OverrideKeyword)) continue;
        missing.push(`${whereOf(member)}: ${name}.${member.name.getText()}`);
      }
    }
  }
  return missing;
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
    for (const member of undocumentedMembers(symbol.getName(), symbol, checker)) missing.add(member);
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
  console.error(
    `${missing.size} public export(s), namespace member(s) or class member(s) without a doc comment ` +
      `(CONTRIBUTING.md#documenting-exports):\n  ${[...missing].sort().join("\n  ")}`,
  );
  process.exit(1);
}
console.log(`every export of ${entries.length} entry points is documented, with its namespace members and public class members`);
