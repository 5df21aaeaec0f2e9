/**
 * What npm run lint:docs asks of one doc comment's text (scripts/check-docs.ts walks the exports and
 * hands each comment here; CONTRIBUTING.md#documenting-exports). Pure: text in, problems out.
 *
 * - A function or a class method needs a description (text before the first tag) and an `@example`.
 * - No comment may cite a path a reader of the API reference cannot open. The reference is read on
 *   its own, without this repository: of the files here, only the guides the package ships
 *   (`docs/*.md`) and the top-level Markdown files (README.md, CONTRIBUTING.md...) are there to
 *   read. A path under src/, client/, bench/, tests/, scripts/ or examples/, or a source file's
 *   bare name (`result.ts`), is a citation of a file the reader does not have. Code inside an
 *   `@example`'s fence is the user's own code (`./app.ts`) and is not read for citations.
 */

/** The folders of this repository whose files the reference's readers cannot see. */
const UNSEEN_DIRS = new Set(["src", "client", "bench", "tests", "scripts", "examples", "bin", "dist", "node_modules", ".github"]);

/** The parts of a `/** ... *\/` comment: its description and the names of its tags. */
export type DocParts = { readonly description: string; readonly tags: readonly string[]; readonly prose: string };

/** A comment's description (the text before its first tag), its tag names and its text outside code fences. */
export function parseDoc(comment: string): DocParts {
  const lines = comment
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\*? ?/, ""));
  const description: string[] = [];
  const tags: string[] = [];
  const prose: string[] = [];
  let inTags = false;
  let fenced = false;
  for (const line of lines) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const tag = /^\s*@(\w+)/.exec(line)?.[1];
    if (tag !== undefined) {
      inTags = true;
      tags.push(tag);
    }
    if (!inTags) description.push(line);
    prose.push(line);
  }
  return { description: description.join("\n").trim(), tags, prose: prose.join("\n") };
}

/**
 * The paths a text cites that a reader of the reference cannot open. `shipped(path)` says whether
 * a `docs/` path is a guide the package ships.
 */
export function unseenPaths(text: string, shipped: (path: string) => boolean): string[] {
  const found: string[] = [];
  // A path-like token not inside a URL or a specifier: `src/ui/node.ts`, a guide with its anchor, `result.ts`.
  const token = /(?<![\w/:.@$-])(?:\.\.?\/)?((?:[\w.-]+\/)+[\w.-]*[\w-]|[\w-]+\.(?:tsx?|mts|mjs|cjs|jsx))(?:#[\w-]+)?/g;
  for (const match of text.matchAll(token)) {
    const path = match[1]!;
    const first = path.split("/")[0]!;
    if (!path.includes("/")) {
      found.push(path);
    } else if (UNSEEN_DIRS.has(first)) {
      found.push(path);
    } else if (first === "docs" && !shipped(path)) {
      found.push(path);
    }
  }
  return [...new Set(found)];
}
