/**
 * Reads a source file named in an error's stack, for development's code frame
 * (docs/live-apps.md#mistakes-are-loud-in-development). node:fs is loaded through
 * `process.getBuiltinModule`, which Node (20.16+), Bun and Deno have; on a host without it there
 * is no source to show and the frame is left out.
 */

type NodeFs = { readFile(path: string, encoding: "utf8"): Promise<string> };
type NodeUrl = { fileURLToPath(url: string): string };
type ProcessLike = { getBuiltinModule?: (id: string) => unknown };

const getBuiltin = (globalThis as { process?: ProcessLike }).process?.getBuiltinModule;
const nodeFs = getBuiltin?.("node:fs/promises") as NodeFs | undefined;
const nodeUrl = getBuiltin?.("node:url") as NodeUrl | undefined;

/** The text of the file a stack frame names (a path or a file: URL), or undefined when it cannot be read. */
export async function readSourceText(location: string): Promise<string | undefined> {
  if (nodeFs === undefined || nodeUrl === undefined) return undefined;
  try {
    return await nodeFs.readFile(location.startsWith("file:") ? nodeUrl.fileURLToPath(location) : location, "utf8");
  } catch {
    return undefined;
  }
}
