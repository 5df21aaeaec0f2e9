/**
 * What a user and a developer see when the app's code throws (docs/live-apps.md#errors-an-app-sees):
 * a page load whose `init` or first `view` throws answers 500 HTML, in development with the
 * message, the code frame of the app's own source and the stack, in production with only the
 * app's notice and the log line's id; an event whose `update` throws answers `app-error` (the
 * same spelling in the status header and the body) with the log line's id and the notice, and in
 * development a report with the stack and the code frame.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Live, setLogSink, Ui } from "../../src/mod.ts";
import { DEV, withEnv } from "../support/env.ts";
import { openTab } from "../support/live-harness.ts";
import { readFile } from "node:fs/promises";
import { buttonId } from "./apps.ts";
import { appFrameOf, frameText } from "../../src/live/server/session/code-frame.ts";

const lines: string[] = [];
const previousSink = setLogSink((level, line) => lines.push(`${level} ${line}`));
after(() => setLogSink(previousSink));

const PRODUCTION = { ...DEV, NODE_ENV: "production", SVC_AUTH_TOKEN_SECRET: "app-failures-test-secret-0123456789abcdef" };

const throwingView = {
  init: () => ({ n: 0 }),
  update: (model: { n: number }) => model,
  view: (_model: { n: number }): ReturnType<typeof Ui.h> => {
    throw new RangeError("the view cannot draw this"); // the line the code frame marks
  },
};
const throwingInit = {
  init: (): { n: number } => {
    throw new TypeError("init has no model for you");
  },
  update: (model: { n: number }) => model,
  view: (model: { n: number }) => Ui.h("main", {}, String(model.n)),
};
const throwingUpdate = {
  init: () => 0,
  update: (n: number, msg: string) => {
    if (msg === "Boom") throw new RangeError("update exploded here");
    return n + 1;
  },
  view: (n: number) => Ui.h("main", {}, Ui.h("button", { onClick: "Boom" }, String(n))),
};

const built: { close(): void }[] = [];
after(() => built.forEach((app) => app.close()));
async function appUnder<M>(env: Record<string, string | undefined>, definition: Parameters<typeof Live.app<M>>[0], options = {}) {
  const app = await withEnv(env, () => Live.app<M>(definition, options));
  built.push(app);
  return app;
}

const SOURCE = await readFile(new URL(import.meta.url), "utf8");
/** The 1-based line of this file that holds `needle`. */
const lineOf = (needle: string) => SOURCE.split("\n").findIndex((line) => line.includes(needle)) + 1;
const unescape = (html: string) => html.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

for (
  const [label, definition, thrown, where] of [
    ["view", throwingView, "RangeError: the view cannot draw this", "the line the code frame marks"],
    ["init", throwingInit, "TypeError: init has no model for you", 'throw new TypeError("init has no model for you")'],
  ] as const
) {
  test(`development: a page load whose ${label} throws shows the message, a code frame of the app's source and the stack`, async () => {
    const app = await appUnder(DEV, definition as Parameters<typeof Live.app<unknown>>[0]);
    const before = lines.length;
    const resp = await app.fetch(new Request("http://app.test/some/page"));
    assert.equal(resp.status, 500);
    assert.equal(resp.headers.get("Content-Type"), "text/html; charset=utf-8");
    const html = await resp.text();
    assert.match(html, /Application error \(development only\)/);
    assert.ok(html.includes(`the page /some/page failed: ${thrown}`), html);
    const frame = unescape(/<pre id="svc-code-frame"[^>]*>([^<]*)<\/pre>/.exec(html)?.[1] ?? "");
    assert.notEqual(frame, "", "a code frame is shown");
    const marked = frame.split("\n").find((line) => line.startsWith(">"));
    assert.ok(marked?.includes(String(lineOf(where))), `the marked line is this file's line ${lineOf(where)}: ${marked}`);
    assert.ok(marked?.includes(where), marked);
    assert.match(html, /<pre id="svc-stack"[^>]*>[^<]*app-failures\.test\.ts/);
    const logged = lines.slice(before).find((line) => line.startsWith("ERROR live.page failed"));
    const id = /id=([0-9a-f]{12})/.exec(logged ?? "")?.[1];
    assert.ok(id !== undefined && html.includes(`live.page failed id=${id}`), "the page names the log line");
  });

  test(`production: a page load whose ${label} throws shows only the notice with the log line's id`, async () => {
    const app = await appUnder(PRODUCTION, definition as Parameters<typeof Live.app<unknown>>[0]);
    const before = lines.length;
    const resp = await app.fetch(new Request("http://app.test/"));
    assert.equal(resp.status, 500);
    const html = await resp.text();
    const id = /id=([0-9a-f]{12})/.exec(lines.slice(before).find((line) => line.startsWith("ERROR live.page failed")) ?? "")?.[1];
    assert.ok(id !== undefined, "logged with an id");
    assert.ok(html.includes(`Something went wrong. Reference: ${id}`), html);
    for (
      const secret of [
        thrown.split(": ")[1]!,
        "svc-stack",
        "svc-code-frame",
        "app-failures.test.ts",
        label === "view" ? "RangeError" : "TypeError",
      ]
    ) {
      assert.ok(!html.includes(secret), `nothing of the error in production: ${secret}`);
    }
  });
}

test("the failure notice is the app's own, for its language", async () => {
  const app = await appUnder(PRODUCTION, throwingView as Parameters<typeof Live.app<unknown>>[0], {
    failureNotice: ({ logId, request }: { logId: string; request: Request }) =>
      request.headers.get("Accept-Language")?.startsWith("fr") ? `Une erreur est survenue (${logId}).` : `Failed (${logId}).`,
  });
  const html = await (await app.fetch(new Request("http://app.test/", { headers: { "Accept-Language": "fr-FR" } }))).text();
  assert.match(html, /Une erreur est survenue \([0-9a-f]{12}\)\./);
});

test("a new session whose first view threw is not kept", async () => {
  const app = await appUnder(DEV, throwingView as Parameters<typeof Live.app<unknown>>[0]);
  await app.fetch(new Request("http://app.test/"));
  assert.equal(app.sessions.size, 0);
});

test("development: an event whose update throws answers app-error with the log id, the stack and the code frame", async () => {
  const app = await appUnder<number>(DEV, throwingUpdate);
  const tab = await openTab(app);
  const resp = await tab.post({ seq: 1, msg: "Boom", handlerId: buttonId(tab.html, "0") });
  assert.equal(resp.status, 500);
  assert.equal(resp.headers.get("X-Svc-Status"), "app-error");
  const body = await resp.json() as {
    error: string;
    logId: string;
    notice: string;
    report: { logId: string; stack: string; frame: { line: number; text: string } };
  };
  assert.equal(body.error, "app-error", "the body spells the code as the status header does");
  assert.match(body.logId, /^[0-9a-f]{12}$/);
  assert.equal(body.report.logId, body.logId);
  assert.match(body.report.stack, /RangeError: update exploded here/);
  assert.equal(body.report.frame.line, lineOf('throw new RangeError("update exploded here")'));
  assert.match(body.report.frame.text, /^> *\d+ \| .*update exploded here/m);
});

test("production: an event whose update throws answers app-error with the notice and the log id, and no report", async () => {
  const app = await appUnder<number>(PRODUCTION, throwingUpdate);
  const tab = await openTab(app);
  const resp = await tab.post({ seq: 1, msg: "Boom", handlerId: buttonId(tab.html, "0") });
  assert.equal(resp.status, 500);
  const text = await resp.text();
  const body = JSON.parse(text) as Record<string, unknown>;
  assert.equal(body["error"], "app-error");
  assert.equal(body["notice"], `Something went wrong. Reference: ${body["logId"]}`);
  assert.equal(body["report"], undefined);
  assert.ok(!text.includes("exploded"), "nothing of the error leaves the server");
});

test("the code frame is the top frame outside the library and its dependencies, with the line marked and a caret", () => {
  const stack = [
    "Error: x",
    "    at inner (node:internal/process/task_queues:95:5)",
    `    at render (${new URL("../../src/live/render.ts", import.meta.url).href}:10:3)`,
    "    at Hono.dispatch (/srv/app/node_modules/hono/dist/hono-base.js:200:5)",
    "    at view (file:///srv/app/app.ts:12:9)",
    "    at /srv/app/other.ts:3:1",
  ].join("\n");
  assert.deepEqual(appFrameOf(stack), { file: "file:///srv/app/app.ts", line: 12, column: 9 });
  assert.deepEqual(appFrameOf("    at /srv/app/other.ts:3:1"), { file: "/srv/app/other.ts", line: 3, column: 1 });
  assert.equal(appFrameOf("Error: x\n    at native"), undefined);
  const source = ["a", "b", "c", "d", "  throw x;", "f", "g", "h", "i"].join("\n");
  assert.equal(
    frameText(source, 5, 3),
    ["  2 | b", "  3 | c", "  4 | d", "> 5 |   throw x;", "    |   ^", "  6 | f", "  7 | g", "  8 | h"].join("\n"),
  );
});
