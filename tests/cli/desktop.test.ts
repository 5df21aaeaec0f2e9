// `svc-live desktop <app module>` (docs/desktop.md#the-command): which export it runs, and the
// errors it gives before anything starts. The run itself is tests/e2e/desktop.test.ts.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { desktopAppOf, windowOption } from "../../src/cli/desktop.ts";
import { Live, Ui } from "../../src/mod.ts";

const definition = { init: () => 0, update: (n: number) => n + 1, view: (n: number) => Ui.h("p", {}, String(n)) };
const token = Live.app(definition, { session: "token" });
const other = Live.app(definition, { session: "token" });
const cookie = Live.app(definition);
const dir = mkdtempSync(join(tmpdir(), "svc-cli-desktop-"));
after(() => {
  [token, other, cookie].forEach((a) => a.close());
  rmSync(dir, { recursive: true, force: true });
});

function captured() {
  const io = { lines: [] as string[], out: (line: string) => io.lines.push(line), err: (line: string) => io.lines.push(line) };
  return io;
}

test("the module's default export is run, else its only live app; none or several is an error", () => {
  assert.equal(desktopAppOf({ default: token, other }), token);
  assert.equal(desktopAppOf({ app: token, n: 1 }), token);
  assert.match(String(desktopAppOf({ n: 1 })), /exports no live app/);
  assert.match(String(desktopAppOf({ a: token, b: other })), /several live apps \(a, b\)/);
});

test("--window takes auto, browser or native", () => {
  assert.equal(windowOption(undefined), undefined);
  assert.equal(windowOption("native"), "native");
  assert.match(String(windowOption("tab")), /--window must be/);
});

test("usage errors and an app without token sessions are reported before anything starts", async () => {
  const none = captured();
  assert.equal(await main(["desktop"], none), 2);
  assert.match(none.lines.join("\n"), /give one app module/);
  const badWindow = captured();
  assert.equal(await main(["desktop", "app.ts", "--window", "tab"], badWindow), 2);
  const missing = captured();
  assert.equal(await main(["desktop", join(dir, "missing.ts")], missing), 1);
  assert.match(missing.lines.join("\n"), /cannot load/);
  const module = join(dir, "no-app.mjs");
  writeFileSync(module, "export const n = 1;\n");
  const noApp = captured();
  assert.equal(await main(["desktop", module], noApp), 1);
  assert.match(noApp.lines.join("\n"), /exports no live app/);
});

test("an app built without session token is refused with the reason", async () => {
  const { runDesktop } = await import("../../src/cli/desktop.ts");
  await assert.rejects(runDesktop(cookie as never, { exitOnClose: false }), /session: "token"/);
});
