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

/** Heap bytes in use after a collection, or undefined when this runtime offers no way to collect. */
export async function heapAfterCollection(): Promise<number | undefined> {
  for (let i = 0; i < 3; i++) {
    if (!collect()) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return process.memoryUsage().heapUsed;
}
