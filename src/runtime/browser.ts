/**
 * The window of the desktop mode (docs/desktop.md#the-window): finding a Chromium-family browser
 * (Chromium, Chrome or Edge) on this machine and starting it as an app window (`--app=`), in a
 * profile of its own, so that it is a process of its own whose exit is the window closing. Uses
 * node:child_process and node:fs, which Node, Bun and Deno all serve.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import process from "node:process";

/** Names of Chromium-family browsers on the PATH, in the order they are tried. */
const PATH_NAMES = [
  "chromium",
  "chromium-browser",
  "google-chrome",
  "google-chrome-stable",
  "chrome",
  "microsoft-edge",
  "microsoft-edge-stable",
  "msedge",
];

/** Where the browsers install themselves outside the PATH. */
function knownLocations(): string[] {
  if (process.platform === "darwin") {
    return [
      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
      "/Applications/Chromium.app/Contents/MacOS/Chromium",
      "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
    ];
  }
  if (process.platform === "win32") {
    const roots = [process.env.PROGRAMFILES, process.env["PROGRAMFILES(X86)"], process.env.LOCALAPPDATA].filter(Boolean) as string[];
    return roots.flatMap((root) => [
      join(root, "Google", "Chrome", "Application", "chrome.exe"),
      join(root, "Microsoft", "Edge", "Application", "msedge.exe"),
      join(root, "Chromium", "Application", "chrome.exe"),
    ]);
  }
  return ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/snap/bin/chromium"];
}

function executable(path: string): boolean {
  try {
    accessSync(path, process.platform === "win32" ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The browser to open: `explicit` (an option, or the SVC_DESKTOP_BROWSER variable) when given,
 * else the first Chromium, Chrome or Edge found on the PATH or where it installs itself.
 */
export function findBrowser(explicit: string | undefined): string | undefined {
  const chosen = explicit ?? process.env.SVC_DESKTOP_BROWSER;
  if (chosen !== undefined && chosen !== "") return chosen;
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  const suffixes = process.platform === "win32" ? [".exe", ""] : [""];
  for (const name of PATH_NAMES) {
    for (const dir of dirs) {
      for (const suffix of suffixes) {
        const path = join(dir, name + suffix);
        if (executable(path)) return path;
      }
    }
  }
  return knownLocations().find(executable);
}

/** A started window: a process of its own; `exited` settles when it ends. */
export type StartedWindow = { readonly exited: Promise<void>; close(): void };

/**
 * A private folder (mode 0700) for one window: its browser profile, and the launch file that hands
 * the page its one-time token without putting it on a command line, where other users of the
 * machine could read it (docs/desktop.md#the-launch-token). `remove` deletes it all.
 */
export function privateFolder(): {
  readonly path: string;
  writeLaunchFile(html: string): string;
  removeFile(name: string): void;
  remove(): Promise<void>;
} {
  const path = mkdtempSync(join(tmpdir(), "svc-desktop-"));
  return {
    path,
    writeLaunchFile(html) {
      const file = join(path, "launch.html");
      writeFileSync(file, html, { mode: 0o600, flag: "wx" });
      return file;
    },
    removeFile: (name) => rmSync(join(path, name), { force: true }),
    remove: () => removeFolder(path),
  };
}

/**
 * Removes a window's folder. The browser's helper processes can go on writing to the profile for a
 * while after the window's own process exits (ENOTEMPTY, EBUSY), so it tries again for up to
 * REMOVE_WAIT_MS; a folder still there then is left to the system's temporary-file cleanup, with
 * a warning, rather than failing the app's exit.
 */
async function removeFolder(path: string): Promise<void> {
  const end = Date.now() + REMOVE_WAIT_MS;
  for (;;) {
    try {
      rmSync(path, { recursive: true, force: true });
      return;
    } catch (error) {
      if (Date.now() >= end) {
        console.warn(`svc-live desktop: could not remove ${path}: ${(error as Error).message}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
const REMOVE_WAIT_MS = 10_000;

/** A file path as a file: URL. */
export function fileUrl(path: string): string {
  const slashes = path.replace(/\\/g, "/");
  return new URL(`file://${slashes.startsWith("/") ? "" : "/"}${slashes}`).href;
}

/**
 * Starts `browser` as an app window on `url`, with the profile in `profileDir`. `args` go after
 * ours (a test adds --headless and a debugging port). The process's output is dropped: a browser
 * may print the URLs it opens. Rejects when the browser cannot be started.
 */
export async function startAppWindow(browser: string, url: string, profileDir: string, args: readonly string[]): Promise<StartedWindow> {
  const child = spawn(
    browser,
    [
      `--app=${url}`,
      `--user-data-dir=${profileDir}`,
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-default-apps",
      "--disable-sync",
      ...args,
    ],
    { stdio: "ignore" },
  );
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (error) => reject(new Error(`cannot start the browser ${browser}: ${error.message}`)));
  });
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  });
  return {
    exited,
    close: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}

/**
 * Calls `stop` once when the process is asked to stop (SIGINT, SIGTERM); returns the function that
 * stops listening.
 */
export function onStopSignal(stop: () => void): () => void {
  const signals = process.platform === "win32" ? (["SIGINT"] as const) : (["SIGINT", "SIGTERM"] as const);
  const once = () => {
    off();
    stop();
  };
  const off = () => {
    for (const signal of signals) process.off(signal, once);
  };
  for (const signal of signals) process.on(signal, once);
  return off;
}

/** Ends this process (the desktop app's window closed). */
export function exitProcess(code: number): never {
  process.exit(code);
}
