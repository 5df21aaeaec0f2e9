/**
 * The load generator of bench/http.bench.ts: autocannon in a Node process of its own, so that it
 * never shares a thread (or a runtime) with the server it measures. Each connection is a tab of
 * its own session: its cookie, CSRF header and event body, set per connection (setupClient).
 *
 *   node --import tsx bench/http-load.ts '{"url", "seconds", "tabs": [{"headers", "body"}]}'
 *
 * Prints one line: LOAD {"requests", "seconds", "non2xx", "errors", "p50", "p99"}.
 */
type Run = { requests: { total: number }; duration: number; non2xx: number; errors: number; latency: { p50: number; p99: number } };
// Imported by a name in a variable: the package ships no type declarations (typed here by hand).
const packageName = "autocannon";
const autocannon = ((await import(packageName)) as { default: unknown }).default as (options: Record<string, unknown>) => Promise<Run>;

type Tab = { headers: Record<string, string>; body: string };
const { url, seconds, tabs } = JSON.parse(process.argv[2]!) as { url: string; seconds: number; tabs: Tab[] };
let next = 0;
const result = await autocannon({
  url,
  method: "POST",
  connections: tabs.length,
  duration: seconds,
  setupClient: (client: { setHeadersAndBody(headers: Record<string, string>, body: string): void }) => {
    const tab = tabs[next++ % tabs.length]!;
    client.setHeadersAndBody(tab.headers, tab.body);
  },
});
const r = result;
console.log(
  `LOAD ${
    JSON.stringify({
      requests: r.requests.total,
      seconds: r.duration,
      non2xx: r.non2xx,
      errors: r.errors,
      p50: r.latency.p50,
      p99: r.latency.p99,
    })
  }`,
);
export {};
