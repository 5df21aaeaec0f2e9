// A remote libsql:// database that cannot be reached fails with an error naming its host, never
// its credentials: @libsql/client alone says only "fetch failed" (src/db/libsql.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Db } from "../../src/mod.ts";
import { libsqlDriver } from "../../src/db/libsql.ts";
import { withHost } from "../../src/db/driver.ts";

test("a libsql:// host that does not resolve: the error names the host and not the token", async () => {
  // .invalid never resolves (RFC 2606), with or without a network.
  const db = Db.open("libsql://nohost.invalid?authToken=token-that-must-not-print");
  try {
    const result = await db.query({ sql: "select 1", args: [] });
    assert.equal(result.ok, false);
    const message = result.ok ? "" : result.error.message;
    assert.match(message, /cannot reach the database at nohost\.invalid/);
    assert.doesNotMatch(message, /token-that-must-not-print/);
    assert.equal(result.ok ? "" : result.error.code, "db_error");
  } finally {
    await db.close();
  }
});

test("a network failure is named with the host and its cause; any other error passes unchanged", async () => {
  const cause = new Error("connect ECONNREFUSED 10.0.0.1:443");
  const refused = withHost(new TypeError("fetch failed", { cause }), "db.example.com") as Error;
  assert.equal(refused.message, "cannot reach the database at db.example.com: fetch failed (connect ECONNREFUSED 10.0.0.1:443)");
  const syntax = new Error('SQLITE_ERROR: near "selec": syntax error');
  assert.equal(withHost(syntax, "db.example.com"), syntax);
  assert.ok(withHost(new TypeError("fetch failed"), undefined) instanceof TypeError, "a local database has no host to name");

  const failing = {
    execute: () => Promise.reject(new TypeError("fetch failed", { cause })),
    batch: () => Promise.reject(new TypeError("fetch failed", { cause })),
    close: () => {},
  };
  const driver = libsqlDriver(failing, false, "db.example.com:8080");
  await assert.rejects(driver.query({ sql: "select 1", args: [] }), /cannot reach the database at db\.example\.com:8080/);
  await assert.rejects(driver.transaction([{ sql: "select 1", args: [] }]), /cannot reach the database at db\.example\.com:8080/);
});
