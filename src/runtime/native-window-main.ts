/**
 * The native window's process (src/runtime/native-window.ts): `bun native-window-main.ts <url>
 * <title>` opens a webview-bun window on the URL and runs its event loop until the window closes.
 */
import process from "node:process";

type WebviewModule = { Webview: new () => { title: string; navigate(url: string): void; run(): void } };

const [url, title] = process.argv.slice(2);
// A variable specifier: webview-bun is an optional peer, absent from the type checker's view.
const specifier = "webview-bun";
const { Webview } = (await import(specifier)) as WebviewModule;
const window = new Webview();
window.title = title ?? "";
window.navigate(url ?? "about:blank");
window.run();
