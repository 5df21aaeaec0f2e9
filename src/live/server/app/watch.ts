/**
 * Who is told when a live app is built: `svc-live doctor` watches while it imports a module, so it
 * finds the apps a factory built (a server entry calling `createApp()`), not only the exported ones
 * (docs/live-apps.md#serving). Nothing watches otherwise, and nothing is kept.
 */

/** Called with each live app built while it is set. */
export type AppWatcher = (app: object) => void;

let watcher: AppWatcher | undefined;

/** Sets the watcher (undefined to stop watching); returns the one it replaces. */
export function watchBuiltApps(next: AppWatcher | undefined): AppWatcher | undefined {
  const previous = watcher;
  watcher = next;
  return previous;
}

/** Tells the watcher, if any, that `app` was built. */
export function noteBuiltApp(app: object): void {
  watcher?.(app);
}
