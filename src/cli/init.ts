/**
 * `svc-live init <dir>`: writes a minimal live app into a new (or empty) directory, with a .env holding
 * a freshly generated SVC_AUTH_TOKEN_SECRET (docs/auth.md#secrets: the project
 * initialiser writes it into the generated environment file).
 *
 * Web APIs only (the secret comes from crypto.getRandomValues); file access goes through the
 * FileSystem interface of src/runtime/fs.ts.
 */
import { encodeBytes } from "../runtime/base64url.ts";
import type { FileSystem } from "../runtime/fs.ts";
import { templates } from "./templates.ts";

/** Random bytes in a generated secret: 32 bytes, 43 base64url characters. */
export const SECRET_BYTES = 32;

export function generateSecret(): string {
  return encodeBytes(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

export type InitOptions = {
  /**
   * The svc-live dependency of the generated package.json. By default the installed version's
   * range ("^0.1.0"), or "file:<checkout>" when svc-live runs from a checkout of its repository.
   */
  readonly svc?: string;
};

/**
 * A written app: its folder, its files, and what the writer should know at once: a `warning` when
 * the app depends on svc-live by a registry range that may not resolve (an unpublished version,
 * or svc-live run from a tarball without `--svc`).
 */
export type InitDone = { readonly dir: string; readonly files: readonly string[]; readonly warning?: string };

/** What init can refuse; a failed write (permissions, a full disk) is reported as "write_failed". */
export type InitError = { readonly code: "invalid_argument" | "dir_not_empty" | "write_failed"; readonly message: string };
export type InitResult = { readonly ok: true; readonly value: InitDone } | { readonly ok: false; readonly error: InitError };

const refuse = (code: InitError["code"], message: string): InitResult => ({ ok: false, error: { code, message } });

const SVC_ROOT = new URL("../../", import.meta.url);

/** Writes the app into `dir`, which must be new or empty. Never throws. */
export async function init(fs: FileSystem, dir: string, options: InitOptions = {}): Promise<InitResult> {
  if (typeof dir !== "string" || dir.trim() === "") {
    return refuse("invalid_argument", "give the directory to create, e.g. svc-live init my-app");
  }
  const target = fs.resolve(dir);
  try {
    const existing = await fs.list(target);
    if (existing !== undefined && existing.length > 0) return refuse("dir_not_empty", `${target} is not empty; choose a new directory`);
    return { ok: true, value: await write(fs, target, options) };
  } catch (error) {
    return refuse("write_failed", `cannot write ${target}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function write(fs: FileSystem, target: string, options: InitOptions): Promise<InitDone> {
  const root = rootOf(fs);
  const own = await ownPackage(fs);
  // The versions svc-live is developed and tested with.
  const range = (name: string) => own.peerDependencies?.[name] ?? own.devDependencies?.[name] ?? "*";
  const fromRegistry = options.svc === undefined && !(await checkout(fs, root));
  const svc = options.svc ?? (fromRegistry ? `^${own.version}` : `file:${root}`);
  const files = await templates(fs, {
    name: appName(target),
    svc,
    versions: {
      hono: range("hono"),
      nodeServer: range("@hono/node-server"),
      tsx: range("tsx"),
      typescript: range("typescript"),
      nodeTypes: range("@types/node"),
    },
    secret: generateSecret(),
  });
  await fs.makeDir(target);
  for (const [name, file] of Object.entries(files)) await fs.writeNewText(`${target}/${name}`, file.text, file.mode);
  const done = { dir: target, files: Object.keys(files) };
  return fromRegistry ? { ...done, warning: registryWarning(svc, own.version) } : done;
}

/** Said at once when the app's svc-live comes from the registry: `npm install` fails there if it is not published. */
function registryWarning(svc: string, version: string): string {
  return `the app depends on svc-live ${svc} from the npm registry; if svc-live ${version} is not published ` +
    `there (you run it from a tarball or a fork), npm install will fail: run init again with ` +
    `--svc "file:/path/to/svc-live-${version}.tgz"`;
}

/** The folder svc-live runs from: its package, or a checkout of its repository. */
export function rootOf(fs: FileSystem): string {
  return fs.fromFileUrl(SVC_ROOT).replace(/[\\/]+$/, "");
}

/** svc-live's own package.json: its version and the ranges it is developed with. */
export async function ownPackage(fs: FileSystem): Promise<OwnPackage> {
  return JSON.parse(await fs.readText(`${rootOf(fs)}/package.json`)) as OwnPackage;
}

/** The parts of svc-live's package.json that init and --version read. */
export type OwnPackage = {
  readonly version: string;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
};

/**
 * Whether svc-live runs from a checkout of its repository rather than as an installed package (in
 * node_modules, npx's cache or Deno's npm cache): only the repository has a tsconfig.json, which
 * the package does not ship.
 */
async function checkout(fs: FileSystem, root: string): Promise<boolean> {
  if (root.split(/[\\/]/).includes("node_modules")) return false;
  return (await fs.list(root))?.includes("tsconfig.json") === true;
}

/** The directory's last segment as a package name: lower case, [a-z0-9-._], or "svc-app". */
function appName(path: string): string {
  const last = path.split(/[\\/]/).filter((s) => s !== "").pop() ?? "";
  const name = last.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[._-]+|-+$/g, "");
  return name === "" ? "svc-app" : name;
}
