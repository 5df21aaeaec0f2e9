/**
 * How many CPU cores the process may use, for sizing worker pools. Worked out on first use, not at
 * import: the package has no top-level await, so bundlers and CommonJS `require()` can load it.
 */
import { runtimeName } from "./detect.ts";

const fallbackCores = 2;

type NodeOs = { availableParallelism?: () => number; cpus(): readonly unknown[] };
type NodeProcess = { getBuiltinModule?: (id: string) => unknown };

let cores: number | undefined;

function detectCores(): number {
  const fromNavigator = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  if (typeof fromNavigator === "number" && fromNavigator > 0) return fromNavigator;
  if (runtimeName !== "web") {
    // Node 20 has no navigator; process.getBuiltinModule (Node 20.16+) loads node:os synchronously.
    const os = (globalThis as { process?: NodeProcess }).process?.getBuiltinModule?.("node:os") as NodeOs | undefined;
    if (os !== undefined) return typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  }
  return fallbackCores;
}

export function cpuCount(): number {
  return (cores ??= detectCores());
}
