/**
 * Process signals and exit, for the graceful drain (docs/deployment.md#draining): Node and Bun
 * through `process`, Deno through `Deno.addSignalListener` and `Deno.exit`.
 */
type Proc = { once(signal: string, listener: () => void): unknown; exit(code?: number): never; platform?: string };
type DenoNs = { addSignalListener(signal: string, listener: () => void): void; exit(code?: number): never; build?: { os?: string } };

const g = globalThis as unknown as { Deno?: DenoNs; process?: Proc };

/** Calls `listener` once, on the first of `signals` the process receives. Returns nothing to undo: a drain is final. */
export function onceOnSignal(signals: readonly string[], listener: (signal: string) => void): void {
  let fired = false;
  const fire = (signal: string) => () => {
    if (fired) return;
    fired = true;
    listener(signal);
  };
  for (const signal of signals) {
    if (g.Deno !== undefined) {
      // Windows accepts only SIGINT and SIGBREAK.
      if (g.Deno.build?.os === "windows" && signal !== "SIGINT") continue;
      g.Deno.addSignalListener(signal, fire(signal));
    } else g.process?.once(signal, fire(signal));
  }
}

/** Ends the process with `code`. */
export function exitProcess(code: number): void {
  if (g.Deno !== undefined) g.Deno.exit(code);
  else g.process?.exit(code);
}
