/**
 * The code frame development shows for an app error (docs/live-apps.md#mistakes-are-loud-in-development):
 * the top frame of the error's stack that is the app's own code (not this library's, not a
 * dependency's under node_modules, not the runtime's), and the lines of source around it.
 */
import { readSourceText } from "../../../runtime/source-text.ts";

/** Where in the app's source an error was thrown, and the lines around it. */
export type CodeFrame = {
  /** The file as the stack names it (a path or a file: URL). */
  readonly file: string;
  /** 1-based line and column. */
  readonly line: number;
  readonly column: number;
  /** The lines around it, numbered, the thrown-at line marked with `>` and a caret under its column. */
  readonly text: string;
};

/** This library's own source directory (src/ in the repository, dist/ in the package), as a path. */
const libraryRoot = decodeURIComponent(new URL("../../../", import.meta.url).pathname);

/** Lines shown above and below the line thrown at. */
const CONTEXT_LINES = 3;

/** The location (file, line, column) of the first stack frame that is the app's own code. */
export function appFrameOf(stack: string): { file: string; line: number; column: number } | undefined {
  for (const raw of stack.split("\n")) {
    const line = raw.trim();
    if (!line.startsWith("at ")) continue;
    const inParens = line.endsWith(")") ? line.slice(line.lastIndexOf("(") + 1, -1) : line.slice(3);
    const match = /^(.*):(\d+):(\d+)$/.exec(inParens);
    if (match === null) continue;
    const file = match[1]!;
    const path = file.startsWith("file://") ? decodeURIComponent(new URL(file).pathname) : file;
    if (!path.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(path)) continue; // node:internal, native, eval
    if (path.includes("/node_modules/") || path.startsWith(libraryRoot)) continue;
    return { file, line: Number(match[2]), column: Number(match[3]) };
  }
  return undefined;
}

/** The numbered lines of `source` around `line`, with the line marked and a caret under `column`. */
export function frameText(source: string, line: number, column: number): string {
  const lines = source.split(/\r?\n/);
  const first = Math.max(1, line - CONTEXT_LINES);
  const last = Math.min(lines.length, line + CONTEXT_LINES);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const text = lines[n - 1]!;
    out.push(`${n === line ? ">" : " "} ${String(n).padStart(width)} | ${text}`.trimEnd());
    if (n === line) out.push(`  ${" ".repeat(width)} | ${text.slice(0, column - 1).replace(/[^\t]/g, " ")}^`);
  }
  return out.join("\n");
}

/** The code frame of `error`'s top app frame, or undefined when its stack names none that can be read. */
export async function codeFrameOf(error: unknown): Promise<CodeFrame | undefined> {
  const stack = error instanceof Error ? error.stack : undefined;
  if (stack === undefined) return undefined;
  const at = appFrameOf(stack);
  if (at === undefined) return undefined;
  const source = await readSourceText(at.file);
  if (source === undefined || at.line > source.split("\n").length) return undefined;
  return { ...at, text: frameText(source, at.line, at.column) };
}
