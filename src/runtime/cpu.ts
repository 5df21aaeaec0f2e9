/** How many CPU cores the process may use, for sizing worker pools. */
import { runtimeName } from "./detect.ts";

const fallbackCores = 2;

async function detectCores(): Promise<number> {
  const fromNavigator = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  if (typeof fromNavigator === "number" && fromNavigator > 0) return fromNavigator;
  if (runtimeName !== "web") {
    try {
      const os = await import("node:os");
      return typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
    } catch {
      // fall through to the fallback
    }
  }
  return fallbackCores;
}

export const cpuCount: number = await detectCores();
