/** Environment variables, read at call time (docs/auth.md#secrets). */
type Globals = {
  Deno?: { env: { get(name: string): string | undefined } };
  process?: { env?: Record<string, string | undefined> };
};
const g = globalThis as unknown as Globals;

/**
 * Set to "1" by `svc-live dev` in the environment of the app it runs (and by init's Deno `dev`
 * task): only an app run so reloads its open pages when it restarts. Development mode alone is not
 * enough, as replicas in development behind a balancer have a boot id each.
 */
export const DEV_LOOP_ENV = "SVC_LIVE_DEV_LOOP";

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
