import { test } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { Server } from "../../src/server/mod.ts";
import { withEnv } from "../support/env.ts";

// docs/auth.md#secure-rule, table-driven over every combination of transport, production
// signal and cookie kind, through a Hono app with the secureCookies middleware and app.fetch.
const transports: Array<{ name: string; url: string; headers: Record<string, string>; https: boolean }> = [
  { name: "plain http", url: "http://app.test/", headers: {}, https: false },
  { name: "https URL (direct TLS)", url: "https://app.test/", headers: {}, https: true },
  { name: "X-Forwarded-Proto: https", url: "http://app.test/", headers: { "X-Forwarded-Proto": "https" }, https: true },
  {
    name: "X-Forwarded-Proto: HTTPS, http (first hop wins)",
    url: "http://app.test/",
    headers: { "X-Forwarded-Proto": "HTTPS, http" },
    https: true,
  },
  { name: "X-Forwarded-Proto: http", url: "http://app.test/", headers: { "X-Forwarded-Proto": "http" }, https: false },
  { name: "X-Forwarded-Ssl: on", url: "http://app.test/", headers: { "X-Forwarded-Ssl": "on" }, https: true },
  { name: "X-Forwarded-Ssl: off", url: "http://app.test/", headers: { "X-Forwarded-Ssl": "off" }, https: false },
];
const gates: Array<{ name: string; env: Record<string, string | undefined>; on: boolean }> = [
  { name: "no ENV", env: { ENV: undefined, MYAPP_ENV: undefined }, on: false },
  { name: "ENV=production", env: { ENV: "production", MYAPP_ENV: undefined }, on: true },
  { name: "ENV=staging", env: { ENV: "staging", MYAPP_ENV: undefined }, on: true },
  { name: "ENV=dev", env: { ENV: "dev", MYAPP_ENV: undefined }, on: false },
  { name: "ENV=Development", env: { ENV: "Development", MYAPP_ENV: undefined }, on: false },
  { name: "ENV=local", env: { ENV: "local", MYAPP_ENV: undefined }, on: false },
  { name: "ENV empty", env: { ENV: "", MYAPP_ENV: undefined }, on: false },
  { name: "MYAPP_ENV=prod", env: { ENV: undefined, MYAPP_ENV: "prod" }, on: true },
  { name: "MYAPP_ENV=dev over ENV=prod", env: { ENV: "prod", MYAPP_ENV: "dev" }, on: false },
  { name: "MYAPP_ENV=prod over ENV=dev", env: { ENV: "dev", MYAPP_ENV: "prod" }, on: true },
];
const cookies: Array<{ name: string; line: [string, string, string]; always: boolean }> = [
  { name: "plain", line: ["sid", "v", "Path=/; HttpOnly"], always: false },
  { name: "already Secure", line: ["sid", "v", "Path=/; Secure; HttpOnly"], always: false },
  { name: "already secure (lower case)", line: ["sid", "v", "Path=/;secure"], always: false },
  { name: "__Host- name", line: ["__Host-sid", "v", "Path=/; HttpOnly"], always: true },
  { name: "__Secure- name", line: ["__Secure-sid", "v", "Path=/"], always: true },
  { name: "SameSite=None", line: ["sid", "v", "Path=/; SameSite=None"], always: true },
  { name: "samesite = none", line: ["sid", "v", "Path=/; samesite = none"], always: true },
  { name: "SameSite=Lax", line: ["sid", "v", "Path=/; SameSite=Lax"], always: false },
];

function appFor(line: [string, string, string]) {
  const app = new Hono();
  app.use(Server.secureCookies({ prefix: "MYAPP" }));
  app.get("/", () => {
    const resp = Server.withCookie(line[0], line[1], line[2], Server.text("ok"));
    return Server.addCookie(Server.cookie("second", "2"), resp);
  });
  return app;
}

function secureCount(line: string): number {
  return line.split(";").filter((part) => part.trim().toLowerCase() === "secure").length;
}

test("every transport x production signal x cookie kind: Secure appears exactly once when required, never otherwise", async () => {
  let cases = 0;
  for (const gate of gates) {
    await withEnv(gate.env, async () => {
      assert.equal(Server.productionGateOn("MYAPP"), gate.on, gate.name);
      for (const transport of transports) {
        for (const kind of cookies) {
          const resp = await appFor(kind.line).fetch(new Request(transport.url, { headers: transport.headers }));
          const [first, second] = resp.headers.getSetCookie();
          const context = `${gate.name} / ${transport.name} / ${kind.name}`;
          const alreadySecure = /;\s*secure/i.test(kind.line[2]);
          const expected = transport.https || gate.on || kind.always || alreadySecure ? 1 : 0;
          assert.equal(secureCount(first!), expected, `${context}: ${first}`);
          assert.equal(secureCount(second!), transport.https || gate.on ? 1 : 0, `${context} (addCookie): ${second}`);
          assert.equal(await resp.text(), "ok");
          cases++;
        }
      }
    });
  }
  assert.equal(cases, gates.length * transports.length * cookies.length);
});

test("plain HTTP with no production signal leaves every cookie exactly as written", async () => {
  await withEnv({ ENV: undefined, MYAPP_ENV: undefined }, async () => {
    const resp = await appFor(["sid", "v", "Path=/; HttpOnly"]).fetch(new Request("http://localhost/"));
    assert.deepEqual(resp.headers.getSetCookie(), ["sid=v; Path=/; HttpOnly", "second=2; Path=/; HttpOnly; SameSite=Lax"]);
  });
});
