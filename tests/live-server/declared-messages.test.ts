// Development's check of handler messages against the messages an app declares
// (docs/live-apps.md#mistakes-are-loud-in-development): a handler naming an undeclared message is
// logged once per name, however often it renders; declared names and the `messages` option's are
// not; an app that declares nothing, or one built with the production gate on, logs nothing.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Live, setLogSink, Ui } from "../../src/mod.ts";
import { withEnv } from "../support/env.ts";

const lines: string[] = [];
const previousSink = setLogSink((level, line) => lines.push(`${level} ${line}`));
after(() => setLogSink(previousSink));

type Messages = { Inc: []; Draft: [value: string] };
type Model = { n: number };
// The view names "Ad" (a misspelling) and "Extra" (declared through the messages option) besides
// the declared ones; the type checker is told otherwise on purpose, as a view built from data would.
const view = (model: Model) =>
  Ui.h(
    "main",
    {},
    Ui.h("button", { onClick: "Inc" }, String(model.n)),
    Ui.h("input", { onInput: "Draft" }),
    Ui.h("button", { onClick: ["Ad", model.n] as never }, "add"),
    Ui.h("button", { onClick: "Ad" as never }, "add again"),
    Ui.h("button", { onClick: "Extra" as never }, "extra"),
  );
const definition = {
  init: () => ({ n: 0 }),
  update: (model: Model, msg: string, _args: readonly unknown[]) => (msg === "Inc" ? { n: model.n + 1 } : model),
  view,
};

const undeclared = () => lines.filter((line) => line.startsWith("WARN live.message"));

async function renderTwice(app: { request: (path: string, init?: RequestInit) => Response | Promise<Response>; close: () => void }) {
  for (let i = 0; i < 2; i++) assert.equal((await app.request("/", { headers: { Accept: "text/html" } })).status, 200);
  app.close();
}

test("in development, a handler naming an undeclared message is logged once per name", async () => {
  lines.length = 0;
  const app = await withEnv(
    { ENV: undefined, NODE_ENV: undefined },
    () => Live.app<Model, Messages>({ ...definition, messages: { Inc: true, Draft: true } }, { title: "counter", messages: ["Extra"] }),
  );
  await renderTwice(app);
  const warned = undeclared();
  assert.equal(warned.length, 1, warned.join("\n"));
  assert.match(
    warned[0]!,
    /live\.message "Ad" is named by a handler in counter's view but not declared in its messages \("Inc", "Draft", "Extra"\)/,
  );
});

test("an app that declares no messages, or one built in production, logs nothing", async () => {
  lines.length = 0;
  await renderTwice(await withEnv({ ENV: undefined, NODE_ENV: undefined }, () => Live.app<Model>(definition)));
  await renderTwice(
    await withEnv(
      { ENV: "production", SVC_AUTH_TOKEN_SECRET: "declared-messages-test-secret-0123456789" },
      () => Live.app<Model, Messages>({ ...definition, messages: { Inc: true, Draft: true } }),
    ),
  );
  assert.deepEqual(undeclared(), []);
});

test("under a message map, the declared names must be exactly its names", () => {
  // Type-level: a missing or an extra name does not compile (checked by npm run typecheck).
  const names: { readonly Inc: true; readonly Draft: true } = { Inc: true, Draft: true };
  // @ts-expect-error Draft is missing
  const missing: Parameters<typeof Live.app<Model, Messages>>[0]["messages"] = { Inc: true };
  // @ts-expect-error Other is not a message of the map
  const extra: Parameters<typeof Live.app<Model, Messages>>[0]["messages"] = { Inc: true, Draft: true, Other: true };
  assert.deepEqual([names, missing, extra].map((m) => Object.keys(m ?? {}).length), [2, 1, 3]);
});
