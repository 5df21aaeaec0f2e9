/**
 * A failure of the shared session store (docs/deployment.md#when-the-database-fails): Postgres
 * down, unreachable or refusing. Every live route answers it the same way, 503
 * with Retry-After (responses.ts `storeUnavailable`), never 500: nothing of the request was kept
 * or sent, the session stays as it was saved last, and the client retries. A failure is caught
 * where the store is called, so an app's own bug (a view that throws) is not mistaken for one.
 */
import { log } from "../../log.ts";

/** What a store call gives instead of its value when the store failed. */
export const STORE_FAILED: unique symbol = Symbol("store failed");

/** Logs a store failure and stands for it (use as a promise's `.catch`). */
export function storeFailed(error: unknown): typeof STORE_FAILED {
  log.error(`live.store failed, request refused (503): ${error instanceof Error ? error.message : String(error)}`);
  return STORE_FAILED;
}

/** The value of a store call, or STORE_FAILED when it threw or rejected. */
export async function orStoreFailed<T>(work: () => T | Promise<T>): Promise<T | typeof STORE_FAILED> {
  try {
    return await work();
  } catch (error) {
    return storeFailed(error);
  }
}
