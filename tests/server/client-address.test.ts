import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { Server, type TrustProxy } from "../../src/mod.ts";
import { proxyChain } from "../../src/server/client-address.ts";
import { connectionEnv } from "../support/connection.ts";

// docs/deployment.md "Client addresses and trustProxy".
function appWith(trustProxy?: TrustProxy): Hono {
  const app = new Hono();
  const address = Server.clientAddressResolver({ trustProxy });
  app.get("/", (c) => c.text(address(c) ?? "unknown"));
  return app;
}
async function seen(app: Hono, connection: string | undefined, forwardedFor?: string): Promise<string> {
  const headers: Record<string, string> = forwardedFor === undefined ? {} : { "X-Forwarded-For": forwardedFor };
  const resp = await app.fetch(
    new Request("http://app.test/", { headers }),
    connection === undefined ? undefined : connectionEnv(connection),
  );
  return resp.text();
}

describe("Server.clientAddress", () => {
  test("without trustProxy the address is the connection's, whatever X-Forwarded-For says", async () => {
    const app = appWith();
    assert.equal(await seen(app, "203.0.113.7"), "203.0.113.7");
    assert.equal(await seen(app, "203.0.113.7", "10.9.9.9"), "203.0.113.7");
    assert.equal(await seen(app, "2001:db8::1", "10.9.9.9, 10.8.8.8"), "2001:db8::1");
    assert.equal(await seen(appWith(false), "203.0.113.7", "1.1.1.1"), "203.0.113.7");
    assert.equal(await seen(appWith(0), "203.0.113.7", "1.1.1.1"), "203.0.113.7");
  });

  test("a bare app.fetch call, with no connection bindings, has no address; X-Forwarded-For does not make one", async () => {
    assert.equal(await seen(appWith(), undefined, "10.9.9.9"), "unknown");
  });

  test("a hop count believes that many proxies, counted from the connection", async () => {
    assert.equal(await seen(appWith(1), "10.0.0.2", "198.51.100.4"), "198.51.100.4");
    // The client prepended a spoofed entry: the proxy appended the real one after it.
    assert.equal(await seen(appWith(1), "10.0.0.2", "6.6.6.6, 198.51.100.4"), "198.51.100.4");
    assert.equal(await seen(appWith(2), "10.0.0.2", "6.6.6.6, 198.51.100.4, 10.0.0.3"), "198.51.100.4");
    // Fewer hops than configured: the farthest one there is.
    assert.equal(await seen(appWith(3), "10.0.0.2", "198.51.100.4"), "198.51.100.4");
    assert.equal(await seen(appWith(1), "10.0.0.2"), "10.0.0.2");
  });

  test("a list of proxies skips every trusted hop and stops at the first untrusted one", async () => {
    const app = appWith(["10.0.0.0/8", "2001:db8::/32", "192.0.2.1"]);
    assert.equal(await seen(app, "10.0.0.2", "198.51.100.4"), "198.51.100.4");
    assert.equal(await seen(app, "10.0.0.2", "6.6.6.6, 198.51.100.4, 192.0.2.1, 10.1.2.3"), "198.51.100.4");
    // A connection from outside the list is the client: its X-Forwarded-For is not believed.
    assert.equal(await seen(app, "203.0.113.9", "198.51.100.4"), "203.0.113.9");
    assert.equal(
      await seen(app, "::ffff:10.0.0.2", "198.51.100.4"),
      "198.51.100.4",
      "an IPv4-mapped connection address matches its IPv4 range",
    );
    assert.equal(await seen(app, "2001:db8::5", "[2001:db8::6]:443, 198.51.100.4:5100"), "198.51.100.4");
    // Every hop trusted: the farthest.
    assert.equal(await seen(app, "10.0.0.2", "10.0.0.3"), "10.0.0.3");
    // A garbage entry is not trusted, so it is the address (a key that only the sender shares).
    assert.equal(await seen(app, "10.0.0.2", "not-an-ip"), "not-an-ip");
  });

  test("a bad trustProxy value is refused when the resolver is made", () => {
    for (
      const bad of [
        -1,
        1.5,
        Number.NaN,
        Infinity,
        ["10.0.0.0/33"],
        ["nonsense"],
        ["10.0.0.1/x"],
        [7 as unknown as string],
        "10.0.0.1" as unknown as TrustProxy,
        true as unknown as TrustProxy,
      ]
    ) {
      assert.throws(() => proxyChain(bad), TypeError, JSON.stringify(bad));
    }
  });
});

test("behind a real @hono/node-server socket the address is the peer's loopback address", async () => {
  const { serve } = await import("@hono/node-server");
  const app = appWith();
  const server = await new Promise<{ port: number; close: () => void }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve({ port: info.port, close: () => s.close() }));
  });
  try {
    const resp = await fetch(`http://127.0.0.1:${server.port}/`, { headers: { "X-Forwarded-For": "10.9.9.9" } });
    assert.match(await resp.text(), /^(::ffff:)?127\.0\.0\.1$/);
  } finally {
    server.close();
  }
});
