/**
 * The native window's process (src/runtime/native-window.ts): `bun native-window-main.ts <webview-bun's path> <title>`,
 * with the URL on its standard input (it holds the launch token), opens a webview-bun window on
 * the URL and runs its event loop until the window closes.
 */
import process from "node:process";

type WebviewModule = { Webview: new () => { title: string; navigate(url: string): void; run(): void } };

const [module, title] = process.argv.slice(2);
let url = "";
for await (const chunk of process.stdin) url += String(chunk);
// webview-bun as the app's project resolved it (an optional peer, absent from the type checker's view).
const { Webview } = (await import(module!)) as WebviewModule;
const window = new Webview();
window.title = title ?? "";
window.navigate(url.trim() || "about:blank");
window.run();
