/**
 * The database drivers are optional peer dependencies (src/db/driver.ts, missingDriver): a missing
 * one is reported with the command that installs it; any other failure is passed on unchanged.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { missingDriver } from "../../src/db/driver.ts";

// A variable specifier: the type checker must not look for a package that does not exist.
const ABSENT = "svc-live-absent-driver-for-tests";

test("a driver package that is not installed fails with the install command for Node, Bun and Deno", async () => {
  const failure = await import(ABSENT).catch(missingDriver(ABSENT, "absent://")).then(
    () => assert.fail("the absent package loaded"),
    (error: unknown) => error as Error,
  );
  assert.match(
    failure.message,
    /^absent:\/\/ URLs need the svc-live-absent-driver-for-tests package, an optional peer dependency of svc-live/,
  );
  assert.match(failure.message, /`npm install svc-live-absent-driver-for-tests`/);
  assert.match(failure.message, /`bun add svc-live-absent-driver-for-tests`/);
  assert.match(failure.message, /`deno add npm:svc-live-absent-driver-for-tests`/);
  assert.ok(failure.cause !== undefined, "the runtime's own error is kept as the cause");
});

test("an installed driver loads, and a failure that is not a missing package is passed on as it is", async () => {
  const loaded = await import("postgres").catch(missingDriver("postgres", "postgres://"));
  assert.equal(typeof loaded.default, "function");

  const broken = new Error("the driver's own start-up failed");
  await assert.rejects(Promise.reject(broken).catch(missingDriver("postgres", "postgres://")), (error) => error === broken);
  // A missing package that is not the driver (one of its own dependencies) is not misreported.
  const other = Object.assign(new Error("Cannot find package 'pg-native' imported from postgres"), { code: "ERR_MODULE_NOT_FOUND" });
  await assert.rejects(Promise.reject(other).catch(missingDriver("postgres", "postgres://")), (error) => error === other);
});
