/**
 * The few file operations the command-line tools need (src/cli), behind one small interface.
 * node:fs/promises is served by Node, Bun and Deno alike, so one implementation covers the three.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface FileSystem {
  /** The absolute form of `path`, against the working directory. */
  resolve(path: string): string;
  /** A file: URL's path in this platform's spelling. */
  fromFileUrl(url: URL): string;
  /** The names in a directory, or undefined when it does not exist. */
  list(dir: string): Promise<string[] | undefined>;
  /** Creates a directory and its parents; an existing one is fine. */
  makeDir(dir: string): Promise<void>;
  readText(path: string): Promise<string>;
  /** Writes a new file; `mode` (e.g. 0o600) where the platform has modes. Fails if it exists. */
  writeNewText(path: string, text: string, mode?: number): Promise<void>;
}

export const fileSystem: FileSystem = {
  resolve: (path) => resolve(path),
  fromFileUrl: (url) => fileURLToPath(url),
  async list(dir) {
    try {
      return await readdir(dir);
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return undefined;
      throw error;
    }
  },
  async makeDir(dir) {
    await mkdir(dir, { recursive: true });
  },
  readText: (path) => readFile(path, "utf8"),
  async writeNewText(path, text, mode) {
    await writeFile(path, text, { encoding: "utf8", flag: "wx", ...(mode === undefined ? {} : { mode }) });
  },
};
