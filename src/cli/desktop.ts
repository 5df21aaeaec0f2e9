/**
 * `svc-live desktop <app module>` (docs/desktop.md#the-command): imports the module, takes the live
 * app it exports (its default export, else the one LiveApp among its exports), and runs it with
 * `Live.desktop`. The command ends when the window closes.
 */
import { LiveApp } from "../live/server/app/app.ts";
import { desktop, type DesktopOptions } from "../live/desktop/desktop.ts";

/**
 * Whether a value is a live app. Not only `instanceof`: the module may have been loaded with
 * another copy of svc-live than this command's (npx's copy and the project's, or a module the
 * loader compiled as CommonJS), and the desktop mode needs only the app's public methods.
 */
function isLiveApp(value: unknown): value is LiveApp<unknown> {
  if (value instanceof LiveApp) return true;
  const app = value as Partial<LiveApp<unknown>> | null;
  return typeof app === "object" && app !== null && typeof app.fetch === "function" && typeof app.describe === "function" &&
    typeof app.close === "function";
}

/** The live app a module exports: `default`, else its only LiveApp; a message when there is none or several. */
export function desktopAppOf(exports: Record<string, unknown>): LiveApp<unknown> | string {
  if (isLiveApp(exports.default)) return exports.default;
  const apps = Object.entries(exports).filter(([, value]) => isLiveApp(value));
  if (apps.length === 1) return apps[0]![1] as LiveApp<unknown>;
  if (apps.length === 0) return 'the module exports no live app (export default Live.app(definition, { session: "token" }))';
  return `the module exports several live apps (${apps.map(([name]) => name).join(", ")}): export the one to run as default`;
}

/** The window option's values, checked. */
export function windowOption(value: string | undefined): DesktopOptions["window"] | string {
  if (value === undefined || value === "auto" || value === "browser" || value === "native") return value;
  return `--window must be auto, browser or native, not ${JSON.stringify(value)}`;
}

/** Runs the app until its window closes. */
export async function runDesktop(app: LiveApp<unknown>, options: DesktopOptions): Promise<void> {
  const running = await desktop(app, options);
  await running.closed;
}
