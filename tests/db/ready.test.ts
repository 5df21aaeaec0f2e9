/**
 * db.ready() reports at startup what would otherwise fail the first query: a host that refuses, a
 * host that accepts and never answers, a driver that is not installed. Real sockets on this
 * machine, a real Postgres, and a child process whose module resolution hides the drivers. An
 * error Result survives JSON.stringify with its message.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createServer, type Server, type Socket } from "node:net";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Db, DbError, Result } from "../../src/mod.ts";

const POSTGRES_URL = process.env["SVC_TEST_POSTGRES_URL"];

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A host that accepts connections and never says a word. */
async function silentHost(): Promise<{ port: number; server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, server, sockets };
}

async function readyOf(url: string, timeoutMs = 5000): Promise<{ ok: boolean; message: string; json: string }> {
  const db = Db.open(url);
  try {
    const ready = await db.ready({ timeoutMs });
    return { ok: ready.ok, message: ready.ok ? "" : ready.error.message, json: JSON.stringify(ready) };
  } finally {
    await db.close();
  }
}

describe("db.ready() before the first query", () => {
  const silent: Array<Awaited<ReturnType<typeof silentHost>>> = [];
  after(async () => {
    for (const host of silent) {
      for (const socket of host.sockets) socket.destroy();
      await new Promise<void>((resolve) => host.server.close(() => resolve()));
    }
  });

  test("a local SQLite database and the real Postgres answer: Ok", async () => {
    assert.deepEqual(await readyOf(":memory:"), { ok: true, message: "", json: '{"ok":true}' });
    if (POSTGRES_URL !== undefined) assert.equal((await readyOf(POSTGRES_URL)).ok, true);
  });

  test("a postgres:// host that refuses: Err naming the host and never the password", async () => {
    const port = await closedPort();
    const ready = await readyOf(`postgres://app:hunter2-secret@127.0.0.1:${port}/app`);
    assert.equal(ready.ok, false);
    assert.match(ready.message, new RegExp(`cannot reach the database at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
    assert.doesNotMatch(ready.json, /hunter2-secret/);
    assert.match(ready.json, /"code":"db_error","message":"db.ready: cannot reach the database at/);
  });

  test("a libsql:// host that refuses: Err naming the host and never the token", async () => {
    const port = await closedPort();
    const ready = await readyOf(`libsql://127.0.0.1:${port}?tls=0&authToken=token-that-must-not-print`);
    assert.equal(ready.ok, false);
    assert.match(ready.message, new RegExp(`cannot reach the database at 127\\.0\\.0\\.1:${port}`));
    assert.doesNotMatch(ready.json, /token-that-must-not-print/);
  });

  test("a host that accepts and never answers: Err after timeoutMs, naming the host (postgres:// and libsql://)", async () => {
    const host = await silentHost();
    silent.push(host);
    for (const url of [`postgres://app@127.0.0.1:${host.port}/app`, `libsql://127.0.0.1:${host.port}?tls=0`]) {
      const started = Date.now();
      const ready = await Promise.race([
        readyOf(url, 300),
        // close() may wait for the hung request; the verdict itself must come at the timeout.
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${url}: no verdict in 10 s`)), 10_000)),
      ]);
      assert.equal(ready.ok, false, url);
      assert.equal(ready.message, `the database at 127.0.0.1:${host.port} did not answer within 300 ms`, url);
      assert.ok(Date.now() - started >= 290, url);
      assert.ok(host.sockets.size > 0, `${url}: the driver did connect`);
    }
  });

  test("timeoutMs must be positive", async () => {
    const db = Db.open(":memory:");
    const ready = await db.ready({ timeoutMs: 0 });
    assert.equal(ready.ok ? "" : ready.error.code, "invalid_argument");
    await db.close();
  });

  test("a driver that is not installed: Err with the install command, before any query, and it survives JSON.stringify", () => {
    const hide = fileURLToPath(new URL("./support/hide-drivers.mjs", import.meta.url));
    const mod = new URL("../../src/mod.ts", import.meta.url).href;
    const script = `
      import { Db } from ${JSON.stringify(mod)};
      for (const url of [":memory:", "postgres://app@127.0.0.1:1/app"]) {
        const db = Db.open(url);
        console.log(JSON.stringify(await db.ready()));
        await db.close();
      }`;
    // The drivers are hidden by a Node module hook (--import), so the child is Node's whatever runtime
    // runs this suite: Bun and Deno take neither the flag nor the hook.
    const runtime = globalThis as { Bun?: unknown; Deno?: unknown };
    const node = runtime.Bun !== undefined || runtime.Deno !== undefined ? "node" : process.execPath;
    const child = spawnSync(node, ["--import", "tsx", "--import", hide, "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(child.status, 0, child.stderr);
    const [sqlite, postgres] = child.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(sqlite.ok, false);
    assert.equal(sqlite.error.code, "db_error");
    assert.match(sqlite.error.message, /need the @libsql\/client package, an optional peer dependency of svc-live that is not installed/);
    assert.match(sqlite.error.message, /`npm install @libsql\/client`/);
    assert.match(postgres.error.message, /postgres:\/\/ URLs need the postgres package.*`npm install postgres`/);
  });
});

test("an error Result keeps its message through JSON.stringify, with the fields of its class", () => {
  assert.equal(
    JSON.stringify(Result.err("bad_email", "email is malformed")),
    '{"ok":false,"error":{"name":"SvcError","code":"bad_email","message":"email is malformed"}}',
  );
  assert.deepEqual(JSON.parse(JSON.stringify(new DbError("duplicate key", true))), {
    name: "SvcError",
    code: "db_error",
    message: "duplicate key",
    uniqueViolation: true,
  });
  const withCause = new DbError("database error: x", false);
  assert.doesNotMatch(JSON.stringify(withCause), /stack|at /);
});
