/**
 * Development's reload on save (docs/live-apps.md#development): while the production gate is off
 * a page holds the script that listens to `?_svc=reload`, which answers an event stream naming the
 * process's boot id; with the gate on, neither exists.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Live, Ui } from "../../src/mod.ts";
import { DEV, withEnv } from "../support/env.ts";

const built: { close(): void }[] = [];
after(() => built.forEach((app) => app.close()));
const definition = { init: () => 0, update: (n: number) => n, view: (n: number) => Ui.h("main", {}, String(n)) };

async function appUnder(env: Record<string, string | undefined>) {
  const app = await withEnv(env, () => Live.app<number>(definition));
  built.push(app);
  return app;
}

test("development: the page holds the reload script, and ?_svc=reload streams the boot id the script compares", async () => {
  const app = await appUnder(DEV);
  const html = await (await app.fetch(new Request("http://app.test/a/page"))).text();
  const boot = /new EventSource\("\?_svc=reload"\).*e\.data!=="([0-9a-f]{16})"/.exec(html)?.[1];
  assert.ok(boot !== undefined, html);
  const resp = await app.fetch(new Request("http://app.test/a/page?_svc=reload"));
  assert.equal(resp.status, 200);
  assert.equal(resp.headers.get("Content-Type"), "text/event-stream");
  const reader = resp.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  assert.equal(first, `retry: 250\ndata: ${boot}\n\n`);
});

test("production: no reload script, and ?_svc=reload is the page", async () => {
  const app = await appUnder({ ...DEV, NODE_ENV: "production", SVC_AUTH_TOKEN_SECRET: "dev-reload-test-secret-0123456789abcdef" });
  const html = await (await app.fetch(new Request("http://app.test/"))).text();
  assert.ok(!html.includes("EventSource"), html);
  const resp = await app.fetch(new Request("http://app.test/?_svc=reload"));
  assert.equal(resp.headers.get("Content-Type"), "text/html; charset=utf-8");
});
