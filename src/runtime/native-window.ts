/**
 * A native window for the desktop mode (docs/desktop.md#the-window), through the optional
 * `webview-bun` package (the system's web view: WebView2, WKWebView or WebKitGTK). Its event loop
 * blocks the thread that runs it, so it runs in a Bun process of its own
 * (native-window-main.ts), whose exit is the window closing. Only under Bun, and only when the
 * package can be found from the working directory; otherwise there is no native window and the
 * desktop mode opens a browser's app window.
 */
import { spawn } from "node:child_process";
import process from "node:process";
import { runtimeName } from "./detect.ts";
import type { StartedWindow } from "./browser.ts";

// Beside this module with its extension: .ts when run from the sources, .js from the built dist/.
const mainUrl = import.meta.url.endsWith(".ts")
  ? new URL("./native-window-main.ts", import.meta.url)
  : new URL("./native-window-main.js", import.meta.url);

type BunGlobal = { resolveSync(specifier: string, from: string): string };

/** Where webview-bun is, found from the working directory (the app's project); undefined when it is not there or this is not Bun. */
export function nativeWindowModule(): string | undefined {
  if (runtimeName !== "bun") return undefined;
  try {
    return (globalThis as unknown as { Bun: BunGlobal }).Bun.resolveSync("webview-bun", process.cwd());
  } catch {
    return undefined;
  }
}

/**
 * Opens a native window on `url`, which holds the launch token in its fragment: it goes to the
 * window's process on its standard input, never on its command line. Undefined without webview-bun.
 */
export function startNativeWindow(url: string, title: string): Promise<StartedWindow | undefined> {
  const module = nativeWindowModule();
  if (module === undefined) return Promise.resolve(undefined);
  const child = spawn(process.execPath, [mainUrl.pathname, module, title], { stdio: ["pipe", "ignore", "ignore"], cwd: process.cwd() });
  child.stdin!.end(url);
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  });
  return Promise.resolve({
    exited,
    close: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  });
}
