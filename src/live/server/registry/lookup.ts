/**
 * What looking a session up answers (docs/protocol.md#errors-and-statuses), and every refusal the
 * layers below http/ answer with: outcomes, never Responses. Only src/live/server/http/refusals.ts
 * turns one into a Response, so each refusal reads the same on every route, byte for byte.
 */
import { log } from "../../../log.ts";
import type { LiveSession } from "../session/session.ts";

/** What the session registry answers for a request's session id. */
export type Resolved<Model> =
  | { readonly kind: "live"; readonly session: LiveSession<Model> }
  | NotLive;

/** A lookup's answer other than a live session. */
export type NotLive = typeof ROTATING | typeof LOST | typeof ELSEWHERE;

/** No session by that id, here or in the store. */
export const LOST = { kind: "lost" } as const;
/** Held by no one here, and this replica is draining: another replica must take it (503, retry). */
export const ELSEWHERE = { kind: "elsewhere" } as const;
/** A rotated-away id within its grace period, rotated here or at another replica (docs/deployment.md#rotation-on-any-replica). */
export const ROTATING = { kind: "rotating" } as const;

/**
 * The shared session store could not save or load (docs/deployment.md#when-the-database-fails):
 * nothing of the request was kept or sent, and the client retries. A failure is caught where the
 * store is called, so an app's own bug (a view that throws) is not mistaken for one.
 */
export const STORE_FAILED = { kind: "store_failed" } as const;
/** The revocation gate could not read the access state: fail closed, retry later (docs/auth.md#live-sessions-and-the-gate). */
export const GATE_UNAVAILABLE = { kind: "gate_unavailable" } as const;
/** The revocation gate evicted the session: it has ended, and the reply clears its cookies. */
export const EVICTED = { kind: "evicted" } as const;

/** Why a request found no session it may use. */
export type Refusal = NotLive | typeof STORE_FAILED | typeof GATE_UNAVAILABLE | typeof EVICTED;

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

/** Whether a store call's answer is STORE_FAILED (its value otherwise). */
export function isStoreFailed<T>(answer: T | typeof STORE_FAILED): answer is typeof STORE_FAILED {
  return answer === STORE_FAILED;
}
