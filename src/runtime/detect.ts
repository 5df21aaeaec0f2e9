/**
 * Which runtime we run on, read once at load. This folder is the only place in src/ that may
 * name Node, Bun or Deno specifics (CONTRIBUTING.md#conventions).
 */
type Globals = { Deno?: { version?: { deno?: string } }; Bun?: { version?: string }; process?: { versions?: { node?: string } } };
const g = globalThis as unknown as Globals;

export type RuntimeName = "bun" | "deno" | "node" | "web";

export const runtimeName: RuntimeName = g.Bun !== undefined
  ? "bun"
  : g.Deno !== undefined
  ? "deno"
  : g.process?.versions?.node
  ? "node"
  : "web";
