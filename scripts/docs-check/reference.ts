/**
 * The API reference as Markdown (docs/reference/), one page per entry point of the package, read
 * from the same TypeScript program npm run lint:docs checks (scripts/check-docs.ts): every export
 * with its signature (comments and bodies left out), its doc comment, and its members (a
 * namespace's functions, a class's public members, an object type's properties) the same way.
 * `npm run docs:reference` writes the pages; lint:docs fails when the written pages differ from
 * what the sources give, so the reference that ships is the current one.
 */
import ts from "typescript";

/** One entry point: its source file and the specifier a user imports it by ("svc-live/auth"). */
export type ReferenceEntry = { readonly source: string; readonly specifier: string };

/** The page of an entry point: `svc-live/auth` is docs/reference/svc-live-auth.md. */
export function pageName(specifier: string): string {
  return `${specifier.replaceAll("/", "-")}.md`;
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** A comment's text without its `/** *\/` frame and leading stars; its tags kept as written. */
function commentText(comment: string): string {
  return comment
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, ""))
    .join("\n")
    .trim();
}

/** The doc comments in front of a declaration (of a variable, in front of its statement). */
function docsOf(declaration: ts.Node): string[] {
  const host = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  const text = host.getSourceFile().getFullText();
  return (ts.getLeadingCommentRanges(text, host.getFullStart()) ?? [])
    .map((range) => text.slice(range.pos, range.end))
    .filter((comment) => comment.startsWith("/**"))
    .map(commentText);
}

/**
 * A comment as Markdown: the description, then `@param`, `@returns` and `@throws` as a list, and
 * each `@example` as it is (its own code fence).
 */
function commentMarkdown(comment: string): string {
  const [description, ...tagged] = comment.split(/\n(?=@\w)/);
  const out: string[] = [];
  const first = description!.startsWith("@") ? undefined : description!.trim();
  if (first) out.push(first);
  const list: string[] = [];
  for (const tag of first === undefined ? [description!, ...tagged] : tagged) {
    const match = /^@(\w+)\s*([\s\S]*)$/.exec(tag.trim());
    if (match === null) continue;
    const [, name, body] = match as unknown as [string, string, string];
    if (name === "example") out.push(`Example:\n\n${body.trim()}`);
    else if (name === "param") list.push(`- parameter ${body.replace(/^(\w+)/, "`$1`:").replace(/\s+/g, " ").trim()}`);
    else if (name === "returns") list.push(`- returns ${body.replace(/\s+/g, " ").trim()}`);
    else if (name === "throws") list.push(`- throws ${body.replace(/\s+/g, " ").trim()}`);
    else if (name === "deprecated") list.push(`- deprecated${body.trim() === "" ? "" : `: ${body.replace(/\s+/g, " ").trim()}`}`);
  }
  if (list.length > 0) out.splice(first ? 1 : 0, 0, list.join("\n"));
  return out.join("\n\n");
}

/** A declaration's signature: its own text without comments, bodies or initial values. */
function signature(node: ts.Node, name: string, checker: ts.TypeChecker): string {
  const f = ts.factory;
  const source = node.getSourceFile();
  const print = (n: ts.Node) => printer.printNode(ts.EmitHint.Unspecified, n, source);
  const noExport = (mods: readonly ts.ModifierLike[] | undefined) =>
    mods?.filter((m) => m.kind !== ts.SyntaxKind.ExportKeyword && m.kind !== ts.SyntaxKind.DefaultKeyword);
  if (ts.isFunctionDeclaration(node)) {
    return print(
      f.updateFunctionDeclaration(
        node,
        noExport(node.modifiers),
        node.asteriskToken,
        node.name,
        node.typeParameters,
        node.parameters,
        node.type,
        undefined,
      ),
    );
  }
  if (ts.isMethodDeclaration(node)) {
    return print(f.updateMethodDeclaration(
      node,
      node.modifiers,
      node.asteriskToken,
      node.name,
      node.questionToken,
      node.typeParameters,
      node.parameters,
      node.type,
      undefined,
    ));
  }
  if (ts.isGetAccessorDeclaration(node)) {
    return print(f.updateGetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, node.type, undefined));
  }
  if (ts.isSetAccessorDeclaration(node)) {
    return print(f.updateSetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, undefined));
  }
  if (ts.isPropertyDeclaration(node)) {
    return print(f.updatePropertyDeclaration(node, node.modifiers, node.name, node.questionToken, node.type, undefined));
  }
  if (ts.isClassDeclaration(node)) {
    return print(f.updateClassDeclaration(node, noExport(node.modifiers), node.name, node.typeParameters, node.heritageClauses, []))
      .replace(/\s*\{\s*\}$/, "");
  }
  if (ts.isInterfaceDeclaration(node)) {
    return print(
      f.updateInterfaceDeclaration(node, noExport(node.modifiers), node.name, node.typeParameters, node.heritageClauses, node.members),
    );
  }
  if (ts.isTypeAliasDeclaration(node)) {
    return print(f.updateTypeAliasDeclaration(node, noExport(node.modifiers), node.name, node.typeParameters, node.type));
  }
  if (ts.isVariableDeclaration(node)) {
    const kind = (node.parent.flags & ts.NodeFlags.Const) !== 0 ? "const" : "let";
    if (node.type !== undefined) return `${kind} ${name}: ${print(node.type)}`;
    return `${kind} ${name}: ${checker.typeToString(checker.getTypeAtLocation(node), node)}`;
  }
  if (ts.isModuleDeclaration(node)) return `namespace ${name}`;
  if (ts.isEnumDeclaration(node)) return print(node);
  if (ts.isPropertySignature(node) || ts.isMethodSignature(node)) return print(node);
  return name;
}

/**
 * Renders the pages of the entry points: file name to Markdown. An export that a page of its own
 * area documents (the root's `Live`, documented on svc-live/live's page) is a link there.
 */
export function renderReference(program: ts.Program, entries: readonly ReferenceEntry[]): Map<string, string> {
  const checker = program.getTypeChecker();
  const documented = new Map<ts.Node, string>();
  // The areas first, so that the root, which re-exports them, can link to them.
  const ordered = [...entries].sort((a, b) => Number(!a.specifier.includes("/")) - Number(!b.specifier.includes("/")));
  const aliased = (symbol: ts.Symbol) => symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const pages = new Map<string, string>();
  const index: string[] = [
    "# API reference",
    "",
    "Generated from the doc comments of the sources by `npm run docs:reference`; one page per entry point.",
    "The guides (../README.md) explain how the parts fit together.",
    "",
  ];
  for (const entry of ordered) {
    const page = pageName(entry.specifier);
    const source = program.getSourceFile(entry.source);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (source === undefined || moduleSymbol === undefined) throw new Error(`${entry.source}: not found`);
    const out: string[] = [`# ${entry.specifier}`, ""];
    const text = source.getFullText();
    const first = ts.getLeadingCommentRanges(text, 0)?.find((range) => text.slice(range.pos, range.pos + 3) === "/**");
    if (first !== undefined) out.push(commentMarkdown(commentText(text.slice(first.pos, first.end))), "");
    out.push("```ts", `import { ... } from "${entry.specifier}";`, "```", "");
    const symbols = [...checker.getExportsOfModule(moduleSymbol)].sort((a, b) => a.getName().localeCompare(b.getName()));
    const own = symbols.filter((symbol) => !(aliased(symbol).getDeclarations() ?? []).some((d) => documented.has(d)));
    if (own.length > 0) out.push(own.map((symbol) => `[${symbol.getName()}](#${anchor(symbol.getName())})`).join(" · "), "");
    const elsewhere: string[] = [];
    for (const symbol of symbols) {
      const declarations = aliased(symbol).getDeclarations() ?? [];
      const link = declarations.map((d) => documented.get(d)).find((l) => l !== undefined);
      if (link !== undefined) {
        elsewhere.push(`- [${symbol.getName()}](${link})`);
        continue;
      }
      for (const declaration of declarations) documented.set(declaration, `${page}#${anchor(symbol.getName())}`);
      out.push(...section(symbol.getName(), declarations, 2));
    }
    if (elsewhere.length > 0) out.push("## Documented with their area", "", elsewhere.join("\n"), "");
    pages.set(page, `${out.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`);
    index.push(`- [${entry.specifier}](${page}): ${symbols.length} exports`);
  }
  pages.set("README.md", `${index.join("\n")}\n`);
  return pages;

  function section(name: string, declarations: readonly ts.Node[], depth: number): string[] {
    const out: string[] = [`${"#".repeat(depth)} ${name}`, ""];
    const signatures = [...new Set(declarations.map((d) => signature(d, name, checker)))];
    out.push("```ts", ...signatures, "```", "");
    for (const comment of [...new Set(declarations.flatMap(docsOf))]) out.push(commentMarkdown(comment), "");
    for (const declaration of declarations) out.push(...members(name, declaration, Math.min(depth + 1, 4)));
    return out;
  }

  function members(name: string, declaration: ts.Node, depth: number): string[] {
    const out: string[] = [];
    if (ts.isModuleDeclaration(declaration)) {
      const symbol = checker.getSymbolAtLocation(declaration.name);
      for (const member of symbol === undefined ? [] : checker.getExportsOfModule(symbol)) {
        out.push(...section(`${name}.${member.getName()}`, aliased(member).getDeclarations() ?? [], depth));
      }
    } else if (ts.isClassDeclaration(declaration)) {
      for (const member of declaration.members) {
        if (ts.isClassStaticBlockDeclaration(member) || ts.isIndexSignatureDeclaration(member) || ts.isSemicolonClassElement(member)) {
          continue;
        }
        const modifiers = ts.canHaveModifiers(member) ? ts.getModifiers(member) ?? [] : [];
        if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
        if (member.name !== undefined && ts.isPrivateIdentifier(member.name)) continue;
        if (ts.isConstructorDeclaration(member) && member.body === undefined) continue;
        const key = ts.isConstructorDeclaration(member) ? "constructor" : member.name?.getText() ?? "";
        out.push(...section(`${name}.${key}`, [member], depth));
      }
    } else if (ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration)) {
      // The signature above shows the members' types; each member's line follows it.
      const list = (ts.isInterfaceDeclaration(declaration) ? declaration.members : literalMembers(declaration.type))
        .flatMap((member) => {
          const line = docsOf(member).map((c) => c.split(/\n@/)[0]!.replace(/\s+/g, " ").trim()).join(" ");
          const key = member.name?.getText();
          return key === undefined || line === "" ? [] : [`- \`${key}\`: ${line}`];
        });
      if (list.length > 0) out.push(list.join("\n"), "");
    }
    return out;
  }
}

/** The members of an object type written out (through `&`). */
function literalMembers(node: ts.TypeNode): readonly ts.TypeElement[] {
  if (ts.isTypeLiteralNode(node)) return node.members;
  if (ts.isIntersectionTypeNode(node)) return node.types.flatMap(literalMembers);
  if (ts.isParenthesizedTypeNode(node)) return literalMembers(node.type);
  return [];
}

/** GitHub's anchor for a heading. */
function anchor(heading: string): string {
  return heading.toLowerCase().replace(/[^a-z0-9 _-]/g, "").replace(/ /g, "-");
}
