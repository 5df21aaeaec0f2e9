/**
 * npm run lint:docs: the API reference (npm run docs:api) answers for everything the package
 * exports (CONTRIBUTING.md#documenting-exports). It reads the entry points from package.json's
 * exports, asks TypeScript what each one exports (re-exports followed to their declarations) and
 * fails, naming file, line and symbol, on:
 *
 * - an export without a doc comment;
 * - a function without a description and an `@example`: every exported function, every function
 *   member of a namespace (`Live.app`, `Ui.h`, `Server.graceful`: of an `export namespace` of
 *   aliases, the declaration each alias names; of an exported object of functions such as
 *   `export const H = { one, two }`, each property's function or the property's own comment), and
 *   every public method of an exported class (not the constructor, and not the members it
 *   overrides from a documented base such as `toString`);
 * - a property without a line: the public properties and accessors of an exported class, and the
 *   members of an exported interface or object type (`LiveAppOptions.title`, `Drainable.drain`);
 * - a comment that cites a path the reference's reader cannot open (scripts/docs-check/comments.ts
 *   says which), in any of those comments and in an entry point's module comment.
 *
 * A declaration reached by two names (`slidingSession` and `Server.slidingSession`) is reported once.
 *
 * It also fails when the Markdown reference that ships (docs/reference/, scripts/docs-check/reference.ts)
 * is not what the sources give now; `--write-reference` (npm run docs:reference) writes it instead.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import process from "node:process";
import ts from "typescript";
import { parseDoc, unseenPaths } from "./docs-check/comments.ts";
import { type ReferenceEntry, renderReference } from "./docs-check/reference.ts";

// `--root <dir>` checks another package (the tests check made-up ones); by default, this one.
const rootArg = process.argv.indexOf("--root");
const root = rootArg === -1 ? resolve(import.meta.dirname, "..") : resolve(process.argv[rootArg + 1]!);
const manifest = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as { name: string; exports: Record<string, unknown> };
/** Where the Markdown reference is written, in this package only (not in a `--root` one); `--reference <dir>` elsewhere. */
const referenceArg = process.argv.indexOf("--reference");
const referenceDir = referenceArg !== -1
  ? resolve(process.argv[referenceArg + 1]!)
  : rootArg === -1
  ? resolve(root, "docs", "reference")
  : undefined;

/** Entry points bundled from client/ (scripts/build.ts) rather than compiled from src/. */
const BUNDLED_MODULES: Record<string, string> = { "./dist/split/mod.js": "client/split/start.ts" };

/**
 * The TypeScript source of each package entry point (dist/x/mod.js is built from src/x/mod.ts);
 * the browser scripts (client.js, split.js) are files, not modules with exports to document.
 */
function entryPoints(): ReferenceEntry[] {
  const entries: ReferenceEntry[] = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const js = typeof target === "string" ? target : (target as { import?: string }).import;
    if (js === undefined || !js.startsWith("./dist/") || !js.endsWith(".js") || js === "./dist/client.js" || js === "./dist/split.js") {
      continue;
    }
    entries.push({
      source: resolve(root, BUNDLED_MODULES[js] ?? js.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")),
      specifier: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
    });
  }
  return entries;
}

/** A guide the package ships: a Markdown file directly under docs/ (package.json's `docs/*.md`). */
function shipped(path: string): boolean {
  const file = path.replace(/#.*$/, "");
  return /^docs\/[^/]+\.md$/.test(file) && existsSync(resolve(root, file));
}

/** What a declaration is asked for: a function or method a description and an example, a property a line. */
type Role = "function" | "property" | "other";

/** The `/** ... *\/` comments in front of a declaration (of a variable, in front of its statement). */
function docComments(declaration: ts.Node): string[] {
  const host = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  const text = host.getSourceFile().getFullText();
  return (ts.getLeadingCommentRanges(text, host.getFullStart()) ?? [])
    .map((range) => text.slice(range.pos, range.end))
    .filter((comment) => comment.startsWith("/**"));
}

/** Where a declaration is, as file:line. */
function whereOf(declaration: ts.Node): string {
  const source = declaration.getSourceFile();
  return `${relative(root, source.fileName)}:${source.getLineAndCharacterOfPosition(declaration.getStart()).line + 1}`;
}

const entries = entryPoints();
const config = ts.getParsedCommandLineOfConfigFile(resolve(root, "tsconfig.json"), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: () => {},
});
const program = ts.createProgram(entries.map((entry) => entry.source), { ...config?.options, noEmit: true });
const checker = program.getTypeChecker();
const problems = new Set<string>();
const seen = new Set<ts.Node>();

function aliased(symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/**
 * Checks one named thing: all its declarations together (one documented overload documents them
 * all), then its members.
 */
function visit(name: string, declarations: readonly ts.Node[], role: Role): void {
  const fresh = declarations.filter((declaration) => !seen.has(declaration));
  if (fresh.length === 0) return;
  for (const declaration of fresh) seen.add(declaration);
  const where = whereOf(fresh[0]!);
  const docs = fresh.flatMap(docComments).map(parseDoc);
  if (docs.length === 0) {
    problems.add(`${where}: ${name}: no doc comment`);
  } else if (role === "function") {
    if (!docs.some((doc) => doc.description !== "")) problems.add(`${where}: ${name}: no description`);
    if (!docs.some((doc) => doc.tags.includes("example"))) problems.add(`${where}: ${name}: no @example`);
  } else if (!docs.some((doc) => doc.description !== "")) {
    problems.add(`${where}: ${name}: no description`);
  }
  for (const doc of docs) {
    for (const path of unseenPaths(doc.prose, shipped)) problems.add(`${where}: ${name}: cites ${path}, which a reader cannot open`);
  }
  for (const declaration of fresh) visitMembers(name, declaration);
}

function isFunctionValue(declaration: ts.Node): boolean {
  if (ts.isFunctionDeclaration(declaration)) return true;
  if (!ts.isVariableDeclaration(declaration)) return false;
  const type = checker.getTypeAtLocation(declaration);
  return type.getCallSignatures().length > 0 && type.getConstructSignatures().length === 0;
}

function roleOf(declaration: ts.Node): Role {
  return isFunctionValue(declaration) ? "function" : "other";
}

/**
 * The members of an object type written out: an interface's, or a type alias's literal (through
 * `&`). A union's variants are read as one type on its page, not member by member.
 */
function typeMembers(node: ts.TypeNode): readonly ts.TypeElement[] {
  if (ts.isTypeLiteralNode(node)) return node.members;
  if (ts.isIntersectionTypeNode(node)) return node.types.flatMap(typeMembers);
  if (ts.isParenthesizedTypeNode(node)) return typeMembers(node.type);
  return [];
}

function memberName(member: ts.TypeElement | ts.ClassElement): string | undefined {
  if (member.name === undefined || ts.isPrivateIdentifier(member.name)) return undefined;
  return member.name.getText();
}

function visitMembers(name: string, declaration: ts.Node): void {
  if (ts.isModuleDeclaration(declaration)) {
    // export namespace X { export import a = m.b; ... } (or a declared namespace of types)
    const symbol = checker.getSymbolAtLocation(declaration.name);
    if (symbol === undefined) return;
    for (const member of checker.getExportsOfModule(symbol)) {
      const target = aliased(member);
      const decls = target.getDeclarations() ?? [];
      visit(`${name}.${member.getName()}`, decls, decls.some(isFunctionValue) ? "function" : "other");
    }
  } else if (ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined) {
    // export const X = { a, b: c } (as const)
    let init: ts.Expression = declaration.initializer;
    while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
    if (!ts.isObjectLiteralExpression(init)) return;
    for (const property of init.properties) {
      if (ts.isSpreadAssignment(property) || property.name === undefined) continue;
      const memberPath = `${name}.${property.name.getText()}`;
      const isFunction = checker.getTypeAtLocation(property).getCallSignatures().length > 0;
      if (docComments(property).length > 0) {
        visit(memberPath, [property], isFunction ? "function" : "other");
        continue;
      }
      const value = ts.isShorthandPropertyAssignment(property)
        ? checker.getShorthandAssignmentValueSymbol(property)
        : ts.isPropertyAssignment(property)
        ? checker.getSymbolAtLocation(property.initializer)
        : undefined;
      const decls = value === undefined ? [] : aliased(value).getDeclarations() ?? [];
      // A value that is data (a number, an object of settings) needs no comment of its own; a function does.
      if (decls.length > 0) visit(memberPath, decls, decls.some(isFunctionValue) ? "function" : "other");
      else if (isFunction) visit(memberPath, [property], "function");
    }
  } else if (ts.isClassDeclaration(declaration)) {
    for (const member of declaration.members) {
      if (ts.isConstructorDeclaration(member) || ts.isClassStaticBlockDeclaration(member) || ts.isIndexSignatureDeclaration(member)) {
        continue;
      }
      const modifiers = ts.canHaveModifiers(member) ? ts.getModifiers(member) ?? [] : [];
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
      const key = memberName(member);
      if (key === undefined) continue;
      // Members every object has (toString, toJSON, Symbol.toPrimitive...) say what the language says they do.
      if (/^(toString|toJSON|valueOf|\[Symbol\.\w+\])$/.test(key)) continue;
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.OverrideKeyword)) continue;
      // Overloads and accessor pairs: one documented declaration documents the member.
      const symbol = checker.getSymbolAtLocation(member.name!);
      const decls = symbol?.getDeclarations() ?? [member];
      visit(`${name}.${key}`, decls, ts.isMethodDeclaration(member) ? "function" : "property");
    }
  } else if (ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration)) {
    const members = ts.isInterfaceDeclaration(declaration) ? declaration.members : typeMembers(declaration.type);
    for (const member of members) {
      if (ts.isIndexSignatureDeclaration(member) || ts.isCallSignatureDeclaration(member) || ts.isConstructSignatureDeclaration(member)) {
        continue;
      }
      const key = memberName(member);
      if (key !== undefined) visit(`${name}.${key}`, [member], "property");
    }
  }
}

for (const { source: entry } of entries) {
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (source === undefined || moduleSymbol === undefined) {
    problems.add(`${relative(root, entry)}: not found`);
    continue;
  }
  // The module comment: the comment at the top of the entry point, the reference's page for it.
  const text = source.getFullText();
  const first = ts.getLeadingCommentRanges(text, 0)?.find((range) => text.slice(range.pos, range.pos + 3) === "/**");
  if (first !== undefined) {
    for (const path of unseenPaths(parseDoc(text.slice(first.pos, first.end)).prose, shipped)) {
      problems.add(`${relative(root, entry)}:1: module comment: cites ${path}, which a reader cannot open`);
    }
  }
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const declarations = aliased(symbol).getDeclarations() ?? [];
    if (declarations.length === 0) {
      problems.add(`${relative(root, entry)}: ${symbol.getName()}: no declaration`);
      continue;
    }
    visit(symbol.getName(), declarations, declarations.some((d) => roleOf(d) === "function") ? "function" : "other");
  }
}
if (problems.size > 0) {
  console.error(
    `${problems.size} problem(s) in the doc comments of the package's exports (CONTRIBUTING.md#documenting-exports):\n  ${
      [...problems].sort().join("\n  ")
    }`,
  );
  process.exit(1);
}
if (referenceDir !== undefined) {
  // jsx-dev-runtime is jsx-runtime again, for the compiler: one page holds both.
  const pages = renderReference(program, entries.filter((entry) => !entry.specifier.endsWith("/jsx-dev-runtime")));
  if (process.argv.includes("--write-reference")) {
    rmSync(referenceDir, { recursive: true, force: true });
    mkdirSync(referenceDir, { recursive: true });
    for (const [name, text] of pages) writeFileSync(resolve(referenceDir, name), text);
    console.log(`${relative(root, referenceDir)}: ${pages.size} pages`);
  } else {
    const written = existsSync(referenceDir) ? readdirSync(referenceDir) : [];
    const stale = [...pages].filter(([name, text]) =>
      !existsSync(resolve(referenceDir, name)) || readFileSync(resolve(referenceDir, name), "utf8") !== text
    )
      .map(([name]) => name);
    const extra = written.filter((name) => !pages.has(name));
    if (stale.length > 0 || extra.length > 0) {
      console.error(
        `${relative(root, referenceDir)} is not what the sources give (${[...stale, ...extra].join(", ")}): run npm run docs:reference`,
      );
      process.exit(1);
    }
  }
}
console.log(
  `every export of ${entries.length} entry points is documented: functions and methods with an example, properties with a line, no path a reader cannot open`,
);
