/**
 * The proxy of the local recipe (examples/replicas/proxy.ts) in a process of its own, for the
 * replicas bench: a load balancer runs apart from both the app's replicas and its clients, so the
 * bench's tabs and the proxy do not share one event loop.
 *
 *   node --import tsx bench/proxy-process.ts <round-robin|sticky> <replica url>...
 *
 * Prints `listening <port>` once it accepts connections.
 */
import process from "node:process";
import { type Mode, Proxy } from "../examples/replicas/proxy.ts";

const [mode, ...targets] = process.argv.slice(2);
if ((mode !== "round-robin" && mode !== "sticky") || targets.length === 0) {
  console.error("usage: proxy-process.ts <round-robin|sticky> <replica url>...");
  process.exit(2);
}
const proxy = new Proxy(targets, mode as Mode);
const url = await proxy.listen();
console.log(`listening ${new URL(url).port}`);
process.on("SIGTERM", () => void proxy.close().then(() => process.exit(0)));
