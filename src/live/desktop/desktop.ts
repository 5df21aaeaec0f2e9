/**
 * `Live.desktop(app)`: runs a live app as a desktop application (docs/desktop.md). It serves the
 * app on 127.0.0.1 on a free port behind the desktop front (src/live/desktop/guard.ts), opens a
 * window on it, and hands the window a one-time launch token in the URL's fragment, through a
 * private launch file rather than a command line (docs/desktop.md#the-launch-token). The token
 * never goes to the log. When the window closes (its process exits, or its stream closes and does
 * not come back within a short grace), the session ends and, by default, so does the process.
 *
 * The window: a native one through `webview-bun` when the app runs on Bun and that package is
 * installed, else Chromium, Chrome or Edge as an app window (`--app=`). Starting processes and
 * finding the browser are the runtime layer's.
 */
import { randomToken } from "../server/registry/registry.ts";
import type { LiveApp } from "../server/app/app.ts";
import { log } from "../../log.ts";
// Loaded when a desktop app starts (below), not with the library: they start processes with node:child_process.
import type { StartedWindow } from "../../runtime/browser.ts";
import { listen, type Listening } from "../../runtime/serve.ts";
import { onceUnref } from "../../runtime/timers.ts";
import { readEnv } from "../../runtime/env.ts";
import { launchFile } from "./bootstrap-page.ts";
import { DesktopGuard } from "./guard.ts";

/** Options of `Live.desktop`. */
export type DesktopOptions = {
  /** The window's title (default: the app's title). */
  readonly title?: string;
  /**
   * Which window: "auto" (the default) a native one when `webview-bun` is installed and the app
   * runs on Bun, else a browser's app window; "browser" always a browser's; "native" a native one
   * or an error.
   */
  readonly window?: "auto" | "browser" | "native";
  /** The browser to start (default: SVC_DESKTOP_BROWSER, else the first Chromium, Chrome or Edge found). */
  readonly browser?: string;
  /**
   * More command-line arguments for the browser (for example `--headless=new` in CI); default: the
   * SVC_DESKTOP_BROWSER_ARGS variable, split at spaces.
   */
  readonly browserArgs?: readonly string[];
  /** Whether the process exits when the window closes (default true). */
  readonly exitOnClose?: boolean;
  /** How long the window's stream may stay closed before the window counts as closed (default 3,000 ms). */
  readonly closeGraceMs?: number;
  /** The port to listen on (default 0: a free one). */
  readonly port?: number;
};

/** A running desktop app. */
export type DesktopApp = {
  /** The app's address, without the launch token. */
  readonly url: string;
  /** The port it listens on, on 127.0.0.1 (the `port` option, or the free one chosen). */
  readonly port: number;
  /** Settles once the window has closed and the session has ended. */
  readonly closed: Promise<void>;
  /** Ends the session, closes the window and stops serving (the process exits only when the window closes by itself). */
  close(): Promise<void>;
};

/**
 * Runs a live app as a desktop application (docs/desktop.md): serves it on 127.0.0.1, on a free
 * port, to that one window only, and opens a window on it, a native one through `webview-bun` on
 * Bun when that package is installed, else Chromium, Chrome or Edge as an app window. The window
 * receives a one-time launch token (docs/desktop.md#the-launch-token); no other program on the
 * machine can load the app or act on its session. When the window closes, the session ends, the
 * server stops and, unless `exitOnClose: false`, the process exits.
 *
 * @param app a live app built with `Live.app(definition, { session: "token" })`: a desktop window
 *   holds its session in a signed token, not a cookie
 * @param options the window (`"auto"`, `"browser"`, `"native"`), its title, the browser to start,
 *   whether the process exits with the window (docs/desktop.md#running-a-desktop-app)
 * @returns once the window is starting: its `url` (without the token), `port`, `closed` (settles
 *   when the window has closed and the session ended) and `close()`
 * @throws {TypeError} for an app without `{ session: "token" }` or a bad option
 * @throws {Error} when no window can be opened: no browser found, or `window: "native"` without
 *   `webview-bun` on Bun
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * type Note = { text: string };
 * const notes = Live.app<Note>(
 *   {
 *     init: () => ({ text: "" }),
 *     update: (model, msg, args) => (msg === "Edit" ? { text: String(args[0]) } : model),
 *     view: (model) => Ui.h("textarea", { onInput: "Edit" }, model.text),
 *   },
 *   { session: "token", title: "Notes" },
 * );
 *
 * const running = await Live.desktop(notes, { window: "auto" });
 * console.log(`serving the window at ${running.url}`);
 * await running.closed; // the user closed the window; by default the process exits here
 * ```
 */
export async function desktop<Model>(app: LiveApp<Model>, options: DesktopOptions = {}): Promise<DesktopApp> {
  const { title, grace, which } = checkedOptions(app, options);
  const runtime = await import("../../runtime/browser.ts");
  const launchToken = randomToken();
  const watch = windowWatch(grace);
  const guard = new DesktopGuard({
    app,
    launchToken,
    title,
    onLaunch: () => folder.removeLaunchFile(),
    onStreams: (open) => watch.streams(open),
  });
  const server = await listen(guard.fetch, "127.0.0.1", options.port ?? 0);
  guard.host = `127.0.0.1:${server.port}`;
  const url = `http://${guard.host}/`;
  const folder = launchFolder(runtime.privateFolder());
  let window: OpenedWindow;
  try {
    const launch = runtime.fileUrl(folder.writeLaunchFile(launchFile(`${url}#${launchToken}`)));
    window = await openWindow(runtime, which, { launch, direct: `${url}#${launchToken}`, profile: folder.path, title }, options);
  } catch (error) {
    await server.close();
    await folder.remove();
    throw error;
  }
  void window.exited.then(watch.finish);
  log.info(`svc-live desktop: ${title} at ${url} (a ${window.kind} window)`);
  return { url, port: server.port, ...closeWithWindow(runtime, { app, guard, server, folder, window, watch }, options) };
}

/** `desktop`'s options, checked: the window's title, the close grace and which window to open. */
function checkedOptions<Model>(app: LiveApp<Model>, options: DesktopOptions) {
  const described = typeof app?.describe === "function" ? app.describe() : undefined;
  if (described?.session !== "token") {
    throw new TypeError('Live.desktop needs a live app built with Live.app(definition, { session: "token" })');
  }
  const grace = options.closeGraceMs ?? 3_000;
  if (!Number.isSafeInteger(grace) || grace < 0) throw new TypeError("Live.desktop: closeGraceMs must be a whole number of ms");
  const which = options.window ?? "auto";
  if (which !== "auto" && which !== "browser" && which !== "native") {
    throw new TypeError(`Live.desktop: window must be "auto", "browser" or "native", not ${JSON.stringify(which)}`);
  }
  return { title: options.title ?? described.title, grace, which };
}

/**
 * When the window counts as gone: its process exited, its streams stayed closed for the grace, or
 * the app was closed (a call, a stop signal). `gone` settles then.
 */
function windowWatch(grace: number) {
  let stopGrace: (() => void) | undefined;
  let finish: () => void = () => {};
  const gone = new Promise<void>((resolve) => (finish = resolve));
  return {
    gone,
    finish: () => finish(),
    /** The window's open streams changed: none open starts the grace, one open stops it. */
    streams(open: number) {
      stopGrace?.();
      stopGrace = open === 0 ? onceUnref(finish, grace) : undefined;
    },
    stopGrace: () => stopGrace?.(),
  };
}

/** What a running desktop app stops once its window is gone. */
type Running<Model> = {
  readonly app: LiveApp<Model>;
  readonly guard: DesktopGuard;
  readonly server: Listening;
  readonly folder: ReturnType<typeof launchFolder>;
  readonly window: OpenedWindow;
  readonly watch: ReturnType<typeof windowWatch>;
};

/**
 * Once the window is gone: the session ends, the window closes, the server stops, the folder goes
 * and, when the window closed by itself and `exitOnClose` allows, the process exits. `close()` and
 * a stop signal (Ctrl-C, a service manager's stop) close it the same way.
 */
function closeWithWindow<Model>(
  runtime: BrowserRuntime,
  { app, guard, server, folder, window, watch }: Running<Model>,
  options: DesktopOptions,
): Pick<DesktopApp, "closed" | "close"> {
  let closedByCall = false;
  const closed = watch.gone.then(async () => {
    stopOnSignal();
    watch.stopGrace();
    await guard.endSession().catch((error: unknown) => log.error(`live.desktop end failed: ${String(error)}`));
    window.close();
    await window.exited;
    await server.close();
    app.close();
    await folder.remove();
    if (!closedByCall && (options.exitOnClose ?? true)) runtime.exitProcess(0);
  });
  // Interrupted (Ctrl-C, a service manager's stop): the window and the folder go too.
  const stopOnSignal = runtime.onStopSignal(() => {
    closedByCall = true;
    watch.finish();
    void closed.then(() => runtime.exitProcess(130));
  });
  return {
    closed,
    close: async () => {
      closedByCall = true;
      watch.finish();
      await closed;
    },
  };
}

/** The private folder, and its launch file removed once the window has used it. */
function launchFolder(folder: ReturnType<BrowserRuntime["privateFolder"]>) {
  let launchPath: string | undefined;
  return {
    path: folder.path,
    writeLaunchFile(html: string) {
      launchPath = folder.writeLaunchFile(html);
      return launchPath;
    },
    removeLaunchFile: () => folder.removeFile("launch.html"),
    remove: () => folder.remove(),
  };
}

type OpenedWindow = StartedWindow & { readonly kind: "native" | "browser" };

type BrowserRuntime = typeof import("../../runtime/browser.ts");

/**
 * Where a window opens: the launch file's URL (for a browser), the address with the token (for a
 * native window, on its standard input), the browser profile's folder, and the window's title.
 */
type WindowTarget = { readonly launch: string; readonly direct: string; readonly profile: string; readonly title: string };

async function openWindow(
  runtime: BrowserRuntime,
  which: "auto" | "browser" | "native",
  { launch, direct, profile, title }: WindowTarget,
  options: DesktopOptions,
): Promise<OpenedWindow> {
  if (which !== "browser") {
    const { startNativeWindow } = await import("../../runtime/native-window.ts");
    // The native window's process gets the address with the token on its standard input.
    const native = await startNativeWindow(direct, title);
    if (native !== undefined) return { ...native, kind: "native" };
    if (which === "native") {
      throw new Error("Live.desktop: no native window: install webview-bun and run the app on Bun (docs/desktop.md#the-window)");
    }
  }
  const browser = runtime.findBrowser(options.browser);
  if (browser === undefined) {
    throw new Error(
      "Live.desktop: no Chromium, Chrome or Edge found: install one, or name it in SVC_DESKTOP_BROWSER or the browser option",
    );
  }
  const args = options.browserArgs ?? (readEnv("SVC_DESKTOP_BROWSER_ARGS") ?? "").split(" ").filter(Boolean);
  return { ...(await runtime.startAppWindow(browser, launch, profile, args)), kind: "browser" };
}
