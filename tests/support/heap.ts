// The heap in use after a full collection, on Node, Bun and Deno, for memory-bound tests.
import v8 from "node:v8";
import vm from "node:vm";

type Globals = { gc?: () => void; Bun?: { gc(force: boolean): void } };

function collect(): boolean {
  const g = globalThis as unknown as Globals;
  if (g.Bun !== undefined) {
    g.Bun.gc(true);
    return true;
  }
  if (typeof g.gc === "function") {
    g.gc();
    return true;
  }
  try {
    v8.setFlagsFromString("--expose-gc");
    (vm.runInNewContext("gc") as () => void)();
    return true;
  } catch {
    return false;
  }
}

/**
 * Heap bytes in use after a collection. Throws when this runtime offers no way to force one: Node,
 * Bun and Deno all do (node:v8's --expose-gc, Bun.gc), so a bound measured without a collection
 * would only hide a regression.
 */
export async function heapAfterCollection(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    if (!collect()) throw new Error("heap not measured: this runtime offers no way to force a garbage collection");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return process.memoryUsage().heapUsed;
}
