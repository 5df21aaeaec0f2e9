/**
 * The live endpoints' refusals. "Session lost" is one constant response, byte-identical for no
 * cookie, an unknown id and a body naming another session, so that nothing reveals which ids exist
 * (docs/protocol.md#sessions-and-cookies). The layers below http/ answer outcomes
 * (src/live/server/registry/lookup.ts); `refusalFor` is the one place that turns a refusal into
 * its Response, on every route.
 */
import type { AppErrorReport } from "../session/development.ts";
import type { Frame } from "../streams/sse-wire.ts";
import type { Refusal, Resolved } from "../registry/lookup.ts";
import type { LiveSession } from "../session/session.ts";
import type { RouteContext } from "./route-context.ts";
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

const plain = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };

function sessionLost(): Response {
  return new Response("session lost", { status: HTTP.sessionLost, headers: { ...plain, [STATUS_HEADER]: SESSION_LOST } });
}

/** The event's own update ended the session (docs/protocol.md#errors-and-statuses): the tab reloads. */
export function sessionEnded(): Response {
  return new Response(null, { status: HTTP.sessionEnded, headers: { [STATUS_HEADER]: SESSION_ENDED } });
}

/** A rotated-away id within its grace period: the client retries (with its ticket, if it has one). */
function sessionRotating(): Response {
  return new Response("session rotating", { status: HTTP.sessionRotating, headers: { ...plain, [STATUS_HEADER]: SESSION_ROTATING } });
}

/** The revocation gate could not read the access state: fail closed, retry later (docs/auth.md#live-sessions-and-the-gate). */
function gateUnavailable(): Response {
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
function storeUnavailable(): Response {
  return new Response("session store unavailable; retry", {
    status: HTTP.gateUnavailable,
    headers: { ...plain, [RETRY_AFTER_HEADER]: "1", [STATUS_HEADER]: GATE_UNAVAILABLE },
  });
}

/**
 * This replica is draining and does not hold the session (docs/deployment.md#several-replicas):
 * 503 with Retry-After, which the client retries, and the proxy sends to another replica.
 */
function replicaDraining(): Response {
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
 * How many times a render or a stream looks its session up when the copy it found stops (moves to
 * another replica, or is drained) while it waits for the copy's lock; after that, 503 and retry.
 */
export const LOOKUPS = 3;

/**
 * The Response to a refusal (src/live/server/registry/lookup.ts): the one every route answers it
 * with (docs/protocol.md#errors-and-statuses). An evicted session's reply clears its cookies.
 */
export function refusalFor<Model>(ctx: Pick<RouteContext<Model>, "access">, req: Request, refusal: Refusal): Response {
  return refusal.kind === "evicted" ? ctx.access.signedOut(sessionLost(), req) : REFUSAL_OF[refusal.kind]();
}

/**
 * A lookup's live session, or the Response refusing the request: the one way every route goes
 * from its lookup to its refusal.
 */
export function liveOr<Model>(
  ctx: Pick<RouteContext<Model>, "access">,
  req: Request,
  found: Resolved<Model> | Refusal,
): LiveSession<Model> | Response {
  return found.kind === "live" ? found.session : refusalFor(ctx, req, found);
}

const REFUSAL_OF: { readonly [Kind in Exclude<Refusal["kind"], "evicted">]: () => Response } = {
  lost: sessionLost,
  rotating: sessionRotating,
  elsewhere: replicaDraining,
  store_failed: storeUnavailable,
  gate_unavailable: gateUnavailable,
};
