/**
 * POST <base>/_svc/end (docs/protocol.md#token-sessions): the client of a token session cleared its
 * Session field, and the session ends here: its effects stop, its streams get the session-lost
 * signal, its id dies in the store, and its token names nothing from then on. Only a token-session
 * app has the route. The token in X-Svc-Session is the CSRF defence (no form can send it); the
 * origin is checked as for events (docs/security.md#origin).
 */
import type { RouteContext } from "./route-context.ts";
import { crossOrigin, liveOr, refusalFor } from "./refusals.ts";
import { orStoreFailed, STORE_FAILED } from "../registry/lookup.ts";

/** Ends the session the request's token names: 204, or the refusal every route gives. */
export async function serveEnd<Model>(parts: RouteContext<Model>, req: Request): Promise<Response> {
  const session = liveOr(parts, req, await orStoreFailed(() => parts.sessions.resolve(parts.sessionIdOf(req))));
  if (session instanceof Response) return session;
  if (!parts.originAllowed(req)) return crossOrigin();
  // Under the mutex: an event in flight finishes first, and none starts on the ended session.
  await session.mutex.run(() => parts.sessions.end(session));
  // With a shared store the id is dead there before the reply says so: no replica revives it.
  const writes = parts.sessions.settled(session);
  if (writes !== undefined && !(await writes.then(() => true, () => false))) return refusalFor(parts, req, STORE_FAILED);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
