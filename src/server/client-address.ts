/**
 * The client's address for rate limits and logs, with the `trustProxy` option (docs/deployment.md
 * "Client addresses and trustProxy").
 *
 * By default the address is the connection's peer, which the client cannot choose: a request's
 * X-Forwarded-For is written by whoever sends it, so reading it without a proxy in front lets any
 * client pick a new address per request. Behind proxies that append to X-Forwarded-For, say which
 * hops to trust: a number of hops (the nearest n addresses are proxies), or the proxies' own
 * addresses or CIDR ranges (every trusted hop is skipped, from the connection outwards). The
 * address is the first one, counting from the connection, that is not a trusted proxy.
 */
import type { Context } from "hono";
import {
  convertIPv4MappedIPv6ToIPv4,
  convertIPv4ToBinary,
  convertIPv6ToBinary,
  distinctRemoteAddr,
  isIPv4MappedIPv6,
} from "hono/utils/ipaddr";
import { connectionAddress } from "../runtime/conn-info.ts";

/** false (the default): no proxy; a number: that many proxy hops; a list: the proxies' addresses or CIDR ranges. */
export type TrustProxy = false | number | readonly string[];

/** Which proxies may name the client (docs/deployment.md). */
export type ClientAddressOptions = {
  /** Which proxies may name the client in X-Forwarded-For; default false, none (docs/deployment.md#client-addresses-and-trustproxy). */
  readonly trustProxy?: TrustProxy | undefined;
};

type Binary = { readonly v4: boolean; readonly bits: bigint };
type Range = Binary & { readonly mask: bigint };

/** An address as bits (an IPv4-mapped IPv6 address as IPv4), or undefined when it is not one. */
function binaryOf(address: string): Binary | undefined {
  try {
    const kind = distinctRemoteAddr(address);
    if (kind === "IPv4") return { v4: true, bits: convertIPv4ToBinary(address) };
    if (kind !== "IPv6") return undefined;
    const bits = convertIPv6ToBinary(address);
    return isIPv4MappedIPv6(bits) ? { v4: true, bits: convertIPv4MappedIPv6ToIPv4(bits) } : { v4: false, bits };
  } catch {
    return undefined;
  }
}

function rangeOf(rule: string): Range {
  if (typeof rule !== "string") throw new TypeError(`trustProxy: ${JSON.stringify(rule)} is not an address or a CIDR range`);
  const slash = rule.indexOf("/");
  const address = binaryOf(slash < 0 ? rule.trim() : rule.slice(0, slash).trim());
  if (address === undefined) throw new TypeError(`trustProxy: ${JSON.stringify(rule)} is not an address or a CIDR range`);
  const width = address.v4 ? 32 : 128;
  const prefixText = slash < 0 ? String(width) : rule.slice(slash + 1).trim();
  // A mapped IPv6 range ("::ffff:10.0.0.0/104") counts its prefix over 128 bits.
  const prefix = Number(prefixText) - (address.v4 && slash >= 0 && rule.includes(":") ? 96 : 0);
  if (!/^\d{1,3}$/.test(prefixText) || prefix < 0 || prefix > width) {
    throw new TypeError(`trustProxy: ${JSON.stringify(rule)} has a bad prefix length`);
  }
  const mask = ((1n << BigInt(prefix)) - 1n) << BigInt(width - prefix);
  return { v4: address.v4, bits: address.bits & mask, mask };
}

/** An X-Forwarded-For entry without the port or brackets some proxies add ("1.2.3.4:80", "[::1]:80"). */
function hostOf(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return v4WithPort ? v4WithPort[1]! : entry;
}

/**
 * Checks a `trustProxy` value once and returns how to find the client's address from the
 * connection's and the X-Forwarded-For header. A bad value is a programming error and throws.
 */
export function proxyChain(
  trustProxy: TrustProxy | undefined,
): (connection: string | undefined, forwardedFor: string | null | undefined) => string | undefined {
  if (trustProxy === undefined || trustProxy === false || trustProxy === 0) return (connection) => connection;
  if (typeof trustProxy === "number") {
    if (!Number.isSafeInteger(trustProxy) || trustProxy < 0) {
      throw new TypeError(`trustProxy: a hop count must be a non-negative integer, not ${trustProxy}`);
    }
    const hops = trustProxy;
    return (connection, forwardedFor) => {
      const chain = [connection, ...forwardedHops(forwardedFor)];
      return chain[Math.min(hops, chain.length - 1)];
    };
  }
  if (!Array.isArray(trustProxy)) throw new TypeError("trustProxy must be false, a hop count or a list of proxy addresses");
  const ranges = trustProxy.map(rangeOf);
  const trusted = (address: string | undefined): boolean => {
    const binary = address === undefined ? undefined : binaryOf(address);
    return binary !== undefined && ranges.some((range) => range.v4 === binary.v4 && (binary.bits & range.mask) === range.bits);
  };
  return (connection, forwardedFor) => {
    const chain = [connection, ...forwardedHops(forwardedFor)];
    let i = 0;
    while (i < chain.length - 1 && trusted(chain[i])) i += 1;
    return chain[i];
  };
}

/** X-Forwarded-For's entries, nearest first (each proxy appends the address it received from). */
function forwardedHops(header: string | null | undefined): string[] {
  if (!header) return [];
  return header.split(",").map((entry) => hostOf(entry.trim())).filter((entry) => entry !== "").reverse();
}

/**
 * The client's address for this request (see the module comment), or undefined when the host gave
 * no connection address and no trusted proxy named one. Checks `trustProxy` on every call: build a
 * resolver once with `clientAddressResolver` on a hot path.
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const app = new Hono();
 * // Behind one load balancer: its X-Forwarded-For entry names the client.
 * app.get("/whoami", (c) => c.text(Server.clientAddress(c, { trustProxy: 1 }) ?? "unknown"));
 * ```
 */
export function clientAddress(c: Context, options: ClientAddressOptions = {}): string | undefined {
  return clientAddressResolver(options)(c);
}

/**
 * `clientAddress` with its options checked once (a bad `trustProxy` throws here): for a rate
 * limiter or a log line, which ask on every request.
 *
 * @throws {TypeError} for a `trustProxy` that is not false, a hop count or a list of addresses
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const clientOf = Server.clientAddressResolver({ trustProxy: ["10.0.0.0/8"] });
 * const app = new Hono();
 * app.use(async (c, next) => {
 *   console.log(`${c.req.method} ${c.req.path} from ${clientOf(c) ?? "?"}`);
 *   await next();
 * });
 * ```
 */
export function clientAddressResolver(options: ClientAddressOptions = {}): (c: Context) => string | undefined {
  const resolve = proxyChain(options.trustProxy);
  return (c) => resolve(connectionAddress(c), c.req.header("X-Forwarded-For"));
}
