/**
 * Development's reload on save (docs/live-apps.md#development): while the production gate is off
 * and the app runs under `svc-live dev`, a page holds the script that listens to `?_svc=reload`,
 * which answers an event stream naming the process's boot id; with the gate on, or without the dev
 * loop (replicas in development, each with a boot id of its own), neither exists.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Live, Ui } from "../../src/mod.ts";
import { DEV, withEnv } from "../support/env.ts";
import { DEV_LOOP_ENV } from "../../src/runtime/env.ts";

/** Development under svc-live dev's loop. */
const DEV_LOOP = { ...DEV, [DEV_LOOP_ENV]: "1" };

const built: { close(): void }[] = [];
after(() => built.forEach((app) => app.close()));
const definition = { init: () => 0, update: (n: number) => n, view: (n: number) => Ui.h("main", {}, String(n)) };

async function appUnder(env: Record<string, string | undefined>) {
  const app = await withEnv(env, () => Live.app<number>(definition));
  built.push(app);
  return app;
}

test("development under svc-live dev: the page holds the reload script, and ?_svc=reload streams the boot id the script compares", async () => {
  const app = await appUnder(DEV_LOOP);
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
  const app = await appUnder({ ...DEV_LOOP, NODE_ENV: "production", SVC_AUTH_TOKEN_SECRET: "dev-reload-test-secret-0123456789abcdef" });
  const html = await (await app.fetch(new Request("http://app.test/"))).text();
  assert.ok(!html.includes("EventSource"), html);
  const resp = await app.fetch(new Request("http://app.test/?_svc=reload"));
  assert.equal(resp.headers.get("Content-Type"), "text/html; charset=utf-8");
});

test("development without svc-live dev (replicas behind a balancer, each with its own boot id): no reload script, and ?_svc=reload is the page", async () => {
  const app = await appUnder({ ...DEV, [DEV_LOOP_ENV]: undefined });
  const html = await (await app.fetch(new Request("http://app.test/"))).text();
  assert.ok(!html.includes("EventSource"), html);
  const resp = await app.fetch(new Request("http://app.test/?_svc=reload"));
  assert.equal(resp.headers.get("Content-Type"), "text/html; charset=utf-8");
});
