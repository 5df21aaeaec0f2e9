/** Environment variables, read at call time (docs/auth.md#secrets). */
type Globals = {
  Deno?: { env: { get(name: string): string | undefined } };
  process?: { env?: Record<string, string | undefined> };
};
const g = globalThis as unknown as Globals;

export function readEnv(name: string): string | undefined {
  if (g.Deno !== undefined) {
    try {
      return g.Deno.env.get(name);
    } catch {
      // Without --allow-env Deno throws; an unreadable variable is an unset one.
      return undefined;
    }
  }
  return g.process?.env?.[name];
}
