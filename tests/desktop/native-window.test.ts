/**
 * The native window of the desktop mode (docs/desktop.md#the-window) under Bun: with `webview-bun`
 * found from the working directory, `window: "auto"` starts the window's own Bun process, hands it
 * the address with the launch token on its standard input (not its command line), and its exit
 * ends the session. The package here is a stand-in with webview-bun's interface, written into a
 * temporary project, whose `run()` does what the page would; the real web view needs a display.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { Live, Secret, Ui } from "../../src/mod.ts";

const skip = "Bun" in globalThis ? undefined : "the native window (webview-bun) is Bun's: this test runs under Bun only";
if (skip !== undefined) console.log(`# tests/desktop/native-window skipped: ${skip}`);

const project = mkdtempSync(join(tmpdir(), "svc-native-window-"));
after(() => rmSync(project, { recursive: true, force: true }));

/** A webview-bun stand-in: its window acts as the launched page would, records what it saw, and closes. */
const STAND_IN = `
import { writeFileSync } from "node:fs";
export class Webview {
  title = "";
  navigate(url) { this.url = url; }
  run() {
    void (async () => {
      const target = new URL(this.url);
      const launch = target.hash.slice(1);
      target.hash = "";
      const page = await fetch(target, { headers: { "X-Svc-Launch": launch } });
      const html = await page.text();
      const token = /<meta name="svc-session-token" content="([^"]*)">/.exec(html)?.[1] ?? "";
      const event = await fetch(new URL("/_svc/event", target), {
        method: "POST",
        headers: { "X-Svc-Session": token, "Content-Type": "application/json" },
        body: JSON.stringify({ seq: 1, msg: "Inc" }),
      });
      writeFileSync(process.env.FAKE_WINDOW_OUT, JSON.stringify({
        argv: process.argv.slice(2), title: this.title, hadToken: launch.length > 20, page: page.status, html, event: event.status,
      }));
      process.exit(0);
    })();
  }
}
`;

test(
  "under Bun with webview-bun installed, the window is native: the token goes on stdin, its exit ends the session",
  { skip },
  async () => {
    const pkg = join(project, "node_modules", "webview-bun");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "webview-bun", version: "0.0.0", type: "module", main: "index.js" }));
    writeFileSync(join(pkg, "index.js"), STAND_IN);
    const out = join(project, "seen.json");
    process.env.FAKE_WINDOW_OUT = out;
    const app = Live.app<{ n: number }>(
      {
        init: () => ({ n: 0 }),
        update: (m) => ({ n: m.n + 1 }),
        view: (m) => Ui.h("main", {}, Ui.h("p", {}, `count ${m.n}`), Ui.h("button", { onClick: "Inc" }, "+")),
      },
      { session: "token", title: "Native", secret: Secret.fromString("native-window-test-secret-native-window-0") },
    );
    const cwd = process.cwd();
    process.chdir(project);
    try {
      const running = await Live.desktop(app, { exitOnClose: false });
      await running.closed;
    } finally {
      process.chdir(cwd);
    }
    const seen = JSON.parse(readFileSync(out, "utf8")) as {
      argv: string[];
      title: string;
      hadToken: boolean;
      page: number;
      html: string;
      event: number;
    };
    assert.equal(seen.title, "Native");
    assert.equal(seen.hadToken, true, "the window's address carried the launch token");
    assert.equal(seen.argv.length, 2, "its command line: webview-bun's path and the title");
    assert.ok(seen.argv.every((arg) => !arg.includes("#")), "no token on the command line");
    assert.equal(seen.page, 200);
    assert.match(seen.html, /count 0/);
    assert.equal(seen.event, 200);
    assert.equal(app.sessions.size, 0, "the window's exit ended the session");
    app.close();
  },
);
