/**
 * The live endpoints' refusals. "Session lost" is one constant response, byte-identical for no
 * cookie, an unknown id and a body naming another session, so that nothing reveals which ids exist
 * (docs/protocol.md#sessions-and-cookies).
 */
import type { AppErrorReport } from "../app/development.ts";
import type { Frame } from "../streams/sse-wire.ts";
import type { Resolved } from "../replicas/takeover.ts";
import {
  ACK_HEADER,
  APP_ERROR,
  CSRF_FAILED,
  GATE_UNAVAILABLE,
  HANDLER_GONE,
  HTTP,
  REPLICA_DRAINING,
  RETRY_AFTER_HEADER,
  SEQ_HEADER,
  SESSION_ENDED,
  SESSION_LOST,
  SESSION_ROTATING,
  STATUS_HEADER,
} from "../../../protocol/mod.ts";
import { log } from "../../../log.ts";

const plain = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };

export function sessionLost(): Response {
  return new Response("session lost", { status: HTTP.sessionLost, headers: { ...plain, [STATUS_HEADER]: SESSION_LOST } });
}

/** The event's own update ended the session (docs/protocol.md#errors-and-statuses): the tab reloads. */
export function sessionEnded(): Response {
  return new Response(null, { status: HTTP.sessionEnded, headers: { [STATUS_HEADER]: SESSION_ENDED } });
}

/** A rotated-away id within its grace period: the client retries (with its ticket, if it has one). */
export function sessionRotating(): Response {
  return new Response("session rotating", { status: HTTP.sessionRotating, headers: { ...plain, [STATUS_HEADER]: SESSION_ROTATING } });
}

/** The revocation gate could not read the access state: fail closed, retry later (docs/auth.md#live-sessions-and-the-gate). */
export function gateUnavailable(): Response {
  return new Response("temporarily unavailable", {
    status: HTTP.gateUnavailable,
    headers: { ...plain, [RETRY_AFTER_HEADER]: "1", [STATUS_HEADER]: GATE_UNAVAILABLE },
  });
}

/** A page load when every session the app may keep is connected (docs/security.md#session-bounds). */
export function sessionsFull(): Response {
  return new Response("too many sessions; try again later", { status: 503, headers: { ...plain, "Retry-After": "5" } });
}

/** The shared session store could not save or load (docs/deployment.md#several-replicas): retry. */
export function storeUnavailable(): Response {
  return new Response("session store unavailable; retry", {
    status: HTTP.gateUnavailable,
    headers: { ...plain, [RETRY_AFTER_HEADER]: "1", [STATUS_HEADER]: GATE_UNAVAILABLE },
  });
}

/**
 * This replica is draining and does not hold the session (docs/deployment.md#several-replicas):
 * 503 with Retry-After, which the client retries, and the proxy sends to another replica.
 */
export function replicaDraining(): Response {
  return new Response("shutting down; retry", {
    status: HTTP.gateUnavailable,
    headers: { ...plain, [RETRY_AFTER_HEADER]: "1", [STATUS_HEADER]: REPLICA_DRAINING },
  });
}

/** Missing or mismatched CSRF token: 403 (the spec leaves the status open). */
export function csrfFailed(): Response {
  return new Response("csrf token missing or wrong", { status: HTTP.csrfFailed, headers: { ...plain, [STATUS_HEADER]: CSRF_FAILED } });
}

/**
 * A request that names another origin than the app's (docs/security.md#origin): refused like a
 * wrong CSRF token, whatever token it carries.
 */
export function crossOrigin(): Response {
  return new Response("cross-origin request refused", { status: HTTP.csrfFailed, headers: { ...plain, [STATUS_HEADER]: CSRF_FAILED } });
}

export function badRequest(code: string, message: string, status: number = HTTP.badRequest): Response {
  return new Response(JSON.stringify({ error: code, message }), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

/**
 * The event's handler is not in the tree, even with its id mapped through the frames the tab had not
 * applied yet (docs/protocol.md#ids-that-move): the element left. Nothing was processed; the client
 * resyncs, keeping its dirty inputs, and reports them again with its next event.
 */
export function handlerGone(): Response {
  return new Response(
    JSON.stringify({ error: "handler_gone", message: "the element that sent this event is no longer in the page; nothing changed" }),
    {
      status: HTTP.handlerGone,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store", [STATUS_HEADER]: HANDLER_GONE },
    },
  );
}

/**
 * The app's update or view threw: the session survives unchanged and the reply says so, with the
 * log line's id and the notice the page shows its user (LiveAppOptions.failureNotice). In
 * development the reply also carries what failed, its stack and code frame, for the page's overlay
 * (docs/live-apps.md#mistakes-are-loud-in-development).
 */
export function appError(failure: { logId: string; notice: string; report: AppErrorReport | undefined }): Response {
  const body = {
    error: APP_ERROR,
    message: "the application failed to handle this event; nothing changed",
    logId: failure.logId,
    notice: failure.notice,
    ...failure.report && { report: failure.report },
  };
  return new Response(JSON.stringify(body), {
    status: HTTP.appError,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", [STATUS_HEADER]: APP_ERROR },
  });
}

/** A JSON event reply, or a full-HTML reply when the patches replace the root (docs/protocol.md#full-html-reply). */
export function frameReply(frame: Frame, fullHtml: string | undefined): Response {
  if (fullHtml === undefined) {
    return new Response(JSON.stringify(frame), { headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
  }
  const headers: Record<string, string> = {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    [SEQ_HEADER]: String(frame.seq),
  };
  if (frame.ackInputs && Object.keys(frame.ackInputs).length > 0) headers[ACK_HEADER] = JSON.stringify(frame.ackInputs);
  return new Response(fullHtml, { headers });
}

/**
 * A failure of the shared session store (docs/deployment.md#when-the-database-fails): Postgres
 * down, unreachable or refusing. Every live route answers it the same way, 503
 * with Retry-After (`storeUnavailable` above), never 500: nothing of the request was kept
 * or sent, the session stays as it was saved last, and the client retries. A failure is caught
 * where the store is called, so an app's own bug (a view that throws) is not mistaken for one.
 */

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

/**
 * How many times a render or a stream looks its session up when the copy it found stops (moves to
 * another replica, or is drained) while it waits for the copy's lock; after that, 503 and retry.
 */
export const LOOKUPS = 3;

/**
 * The answer to a session lookup that found no live session (docs/protocol.md#errors-and-statuses):
 * the store failed (503, retry), no such session (the one constant 404), an id rotated away from
 * within its grace period, or a session this draining replica will not take (503, retry
 * elsewhere). Every route that looks a session up answers through here.
 */
export function refusalFor<Model>(lookup: typeof STORE_FAILED | NotLive<Model>): Response {
  return lookup === STORE_FAILED ? storeUnavailable() : REFUSAL_OF[lookup.kind]();
}

/** A lookup's answer other than a live session. */
type NotLive<Model> = Exclude<Resolved<Model>, { readonly kind: "live" }>;

const REFUSAL_OF: { readonly [Kind in NotLive<unknown>["kind"]]: () => Response } = {
  lost: sessionLost,
  rotating: sessionRotating,
  elsewhere: replicaDraining,
};
