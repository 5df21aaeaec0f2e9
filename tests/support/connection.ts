/**
 * The connection bindings a server passes as `fetch`'s second argument, for a test calling
 * `app.fetch(request, env)` directly: @hono/node-server's `{ incoming }`, Bun.serve's server
 * (`requestIP`) and Deno.serve's handler info (`remoteAddr`) at once, so the same test runs on
 * each runtime.
 */
export function connectionEnv(address: string): Record<string, unknown> {
  const family = address.includes(":") ? "IPv6" : "IPv4";
  return {
    incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: family } },
    requestIP: () => ({ address, family, port: 40000 }),
    remoteAddr: { hostname: address, port: 40000, transport: "tcp" },
  };
}
