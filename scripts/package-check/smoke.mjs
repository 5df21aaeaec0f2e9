// The installed package as a user's app meets it, under Node (no TypeScript loader), Bun and Deno:
// every subpath of package.json's exports imports; a token signs and verifies; a live page is
// served over HTTP by the runtime's own server and one event changes it; a missing optional
// driver is reported with its install command. Run from a project that installed the tarball:
//   node smoke.mjs | bun smoke.mjs | deno run -A smoke.mjs   (Deno imports through npm: specifiers)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import process from "node:process";

const runtime = "Bun" in globalThis ? "bun" : "Deno" in globalThis ? "deno" : "node";
const specifier = (subpath) => `${runtime === "deno" ? "npm:" : ""}svc-live${subpath === "." ? "" : subpath.slice(1)}`;
const check = (ok, what) => {
  if (!ok) throw new Error(`${runtime}: ${what}`);
  console.log(`ok   ${what}`);
};

// Every subpath the package exports, read from the installed package.json.
const manifest = createRequire(`${process.cwd()}/`).resolve("svc-live/package.json");
const { exports } = JSON.parse(readFileSync(manifest, "utf8"));
const modules = {};
// Every subpath imports here, the split client's module too: importing it starts nothing and
// touches no browser global (the page starts it with startSplitClient()).
for (const subpath of Object.keys(exports).filter((path) => !/\.(js|json)$/.test(path))) {
  modules[subpath] = await import(specifier(subpath));
  check(Object.keys(modules[subpath]).length > 0, `import ${specifier(subpath)}`);
}
check(typeof modules["./split"].startSplitClient === "function", "svc-live/split exports startSplitClient, started by no import");
const client = readFileSync(createRequire(manifest).resolve("svc-live/client.js"), "utf8");
check(client.length > 1000 && client.includes("_svc"), "svc-live/client.js is the browser client");
const splitScript = readFileSync(createRequire(manifest).resolve("svc-live/split.js"), "utf8");
check(splitScript.includes("endSession") && splitScript.includes("_svc"), "svc-live/split.js is the split client's script");

const { Auth, Secret, Live, Ui, Db, Server } = modules["."];

// A token.
const secret = Secret.fromString("a smoke-test secret of more than 32 bytes");
const token = Auth.signToken(secret, { sub: "42" }, 60);
check(token.ok, "signToken");
const claims = Auth.verifyToken(secret, token.value);
check(claims.ok && claims.value.sub === "42", "verifyToken gives the claims back");
check(
  Auth.verifyToken(Secret.fromString("another secret of more than 32 bytes!"), token.value).error?.code === "bad_signature",
  "a token under another secret is refused",
);

// A password, hashed in the worker thread the built package starts from dist/.
const hash = await Auth.hashPassword("correct horse battery staple", 4);
check(
  hash.ok && (await Auth.verifyPassword("correct horse battery staple", hash.value)).value === true,
  "hashPassword and verifyPassword (worker thread)",
);

// The optional drivers are not installed here: opening their URLs says how to install them.
for (const [url, install] of [["postgres://nobody@127.0.0.1:1/none", "npm install postgres"], [":memory:", "npm install @libsql/client"]]) {
  const db = Db.open(url);
  const result = await db.query({ sql: "select 1", args: [] });
  check(!result.ok && result.error.message.includes(install), `Db.open(${JSON.stringify(url)}) without its driver names \`${install}\``);
  await db.close();
}

// A live page and one event, over HTTP from the runtime's own server.
const app = Live.app({
  init: () => ({ count: 0 }),
  update: (model, msg) => (msg === "Inc" ? { count: model.count + 1 } : model),
  view: (model) =>
    Ui.h("main", {}, Ui.h("output", { id: "count" }, String(model.count)), Ui.h("button", { id: "inc", onClick: "Inc" }, "+")),
});
// The connection's address, through the package's reader of each runtime's bindings.
const { Hono } = await import(runtime === "deno" ? "npm:hono" : "hono");
const resolveAddress = Server.clientAddressResolver();
const hono = new Hono().get("/whoami", (c) => c.text(resolveAddress(c) ?? "unknown"));
const handler = (req, env) => (new URL(req.url).pathname === "/whoami" ? hono.fetch(req, env) : app.fetch(req, env));

const { port, stop } = await serve(handler);
const base = `http://127.0.0.1:${port}`;
const page = await fetch(`${base}/`);
const html = await page.text();
check(page.status === 200 && /<output[^>]*id="count"[^>]*>0<\/output>/.test(html), "GET / serves the live page");
const script = /<script type="module" src="([^"]+)"><\/script>/.exec(html)?.[1];
const served = script === undefined ? undefined : await fetch(new URL(script, `${base}/`));
const servedClient = served === undefined ? "" : await served.text();
check(
  served?.status === 200 && servedClient.trim() === client.trim(),
  `the page loads the client (${script}), the same file as svc-live/client.js`,
);
const meta = (name) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1] ?? "";
const button = /<button[^>]*id="inc"[^>]*>/.exec(html)?.[0] ?? "";
// The markup leaves out the ids an element's place gives (docs/protocol.md#derived-ids): the button is the root's second child.
const handlerId = /svc-id="([^"]+)"/.exec(button)?.[1] ?? "r.1#button";
const cookie = page.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
const event = await fetch(`${base}/_svc/event`, {
  method: "POST",
  headers: { "Content-Type": "application/json", "X-Svc-Csrf": meta("svc-csrf"), Cookie: cookie },
  body: JSON.stringify({ seq: 1, msg: "Inc", args: [], handlerId, sessionId: meta("svc-session") }),
});
const reply = await event.text();
check(event.status === 200 && /"text":"1"/.test(reply), `POST /_svc/event applies the event and answers with its patch (${reply})`);
const again = await (await fetch(`${base}/`, { headers: { Cookie: cookie } })).text();
check(/<output[^>]*id="count"[^>]*>1<\/output>/.test(again), "the session keeps the new model");
const who = await (await fetch(`${base}/whoami`)).text();
check(who === "127.0.0.1" || who === "::1" || who === "::ffff:127.0.0.1", `Server.clientAddress reads the ${runtime} connection (${who})`);
await stop();
console.log(`smoke passed on ${runtime}`);

/** Serves the handler on a free port with the runtime's own server. */
async function serve(fetchHandler) {
  if (runtime === "bun") {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, srv) => fetchHandler(req, srv) });
    return { port: server.port, stop: async () => server.stop(true) };
  }
  if (runtime === "deno") {
    let listening;
    const port = new Promise((resolve) => (listening = resolve));
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen: (addr) => listening(addr.port) },
      (req, info) => fetchHandler(req, info),
    );
    return { port: await port, stop: () => server.shutdown() };
  }
  const { serve: nodeServe } = await import("@hono/node-server");
  let listening;
  const port = new Promise((resolve) => (listening = resolve));
  const server = nodeServe({ fetch: fetchHandler, port: 0, hostname: "127.0.0.1" }, (info) => listening(info.port));
  return {
    port: await port,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(resolve);
      }),
  };
}
