/**
 * `svc-live dev`'s loop (docs/live-apps.md#development): the app's entry module run in a child
 * process under the runtime's own watch mode, which restarts it when a file it imports is saved:
 * `node --watch` (with tsx registered, as Node runs no TypeScript by itself), `bun --watch`,
 * `deno run --watch`. The child shares this process's terminal; Ctrl-C stops both.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { runtimeName } from "./detect.ts";
import { DEV_LOOP_ENV } from "./env.ts";

/** The command that runs `entry` under the current runtime's watch, or a sentence saying why there is none. */
export function watchCommand(entry: string, where: { cwd: string; packageDir: string }): { command: string; args: string[] } | string {
  const self = process.execPath;
  if (runtimeName === "bun") return { command: self, args: ["--watch", entry] };
  if (runtimeName === "deno") return { command: self, args: ["run", "--watch", "-A", entry] };
  if (runtimeName !== "node") return "svc-live dev runs on Node, Bun or Deno";
  // tsx from the app's project, else from this package's: the same search bin/svc-live.js makes.
  for (const base of [where.cwd, where.packageDir]) {
    try {
      const loader = createRequire(join(base, "noop.js")).resolve("tsx");
      return { command: self, args: ["--watch", "--import", pathToFileURL(loader).href, entry] };
    } catch {
      continue;
    }
  }
  return "Node needs tsx to run TypeScript: npm install --save-dev tsx";
}

/**
 * Runs `command` with this process's terminal and environment, plus DEV_LOOP_ENV, until it exits;
 * resolves to its exit code. SIGINT and SIGTERM sent to this process are passed on to it.
 */
export function runChild(command: { command: string; args: readonly string[] }): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command.command, [...command.args], { stdio: "inherit", env: { ...process.env, [DEV_LOOP_ENV]: "1" } });
    // Passed on, and if the child has not gone a second later, it is killed: a watcher may wait on
    // its own child otherwise.
    const forward = (signal: NodeJS.Signals) => () => {
      child.kill(signal);
      setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 1000).unref();
    };
    const onInt = forward("SIGINT");
    const onTerm = forward("SIGTERM");
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      resolve(code ?? (signal === "SIGINT" || signal === "SIGTERM" ? 0 : 1));
    });
    child.on("error", () => resolve(1));
  });
}
